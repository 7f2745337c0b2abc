// NER of a 30-word text through HTTP, one request at a time (issue 45's speed target: p50 <= 15 ms):
// German through the tagger (model-store/ner), English, Spanish and French through the encoder's head
// (model-store/ner-multilingual). Prints p50 and p95 for each. npm run bench:ner [-- requests]
import { KEY, startService } from './service.js'

const TEXTS: Record<string, string> = {
  en:
    'Angela Merkel met Emmanuel Macron in Paris on Monday to discuss the budget of the European Union, ' +
    'and the two leaders later visited the offices of Airbus in Toulouse with their advisers.',
  de:
    'Angela Merkel traf am Montag Emmanuel Macron in Paris, um über den Haushalt der Europäischen Union zu ' +
    'sprechen, und später besuchten beide die Büros von Airbus in Toulouse mit ihren Beratern.',
  es:
    'Angela Merkel se reunió el lunes con Emmanuel Macron en París para hablar del presupuesto de la Unión ' +
    'Europea, y después los dos líderes visitaron las oficinas de Airbus en Toulouse con sus asesores.',
  fr:
    "Angela Merkel a rencontré Emmanuel Macron lundi à Paris pour parler du budget de l'Union européenne, " +
    "puis les deux dirigeants ont visité les bureaux d'Airbus à Toulouse avec leurs conseillers."
}

const requests = Number(process.argv[2] ?? 200)
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor(q * (xs.length - 1))] as number

const service = await startService()
try {
  for (const [lang, text] of Object.entries(TEXTS)) {
    const body = new URLSearchParams({ api_key: KEY, text, lang_code: lang }).toString()
    const post = async () =>
      await fetch(`${service.base}/v4/ner`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body
      })
    const first = await post()
    const entities = ((await first.json()) as { entities: unknown[] }).entities.length
    const ms: number[] = []
    for (let i = 0; i < requests; i++) {
      const t0 = performance.now()
      await (await post()).arrayBuffer()
      ms.push(performance.now() - t0)
    }
    const words = text.split(/\s+/).length
    const p50 = quantile(ms, 0.5).toFixed(1)
    const p95 = quantile(ms, 0.95).toFixed(1)
    process.stdout.write(`ner ${lang} (${words} words, ${entities} entities): p50 ${p50} ms, p95 ${p95} ms\n`)
  }
} finally {
  await service.close()
}
