// Similarity evaluation: Spearman's rho between predictions and STS scores on the dev split of
// stsb-multi-mt for each language, through the serving loader, with the peers' figures as baselines
// (the feature model of similarity v1 read 0.811 en, 0.808 de, 0.809 es, 0.809 nl).
import type { ModelInfo } from '../lib/serving/registry.js'
import type { TF } from '../lib/runtime/tf.js'
import { loadEncoderSimilarity } from '../lib/text/heads/similarity.js'
import { spearman, stsPairs } from '../training/readers/similarity.js'
import type { EvalRow } from './images.js'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/** the project's own English pairs (eval/data/similarity-everyday.jsonl): paraphrases in other words and unrelated
 * pairs */
export function everydayPairs (): Array<{ a: string; b: string; kind: 'paraphrase' | 'unrelated' }> {
  return readFileSync(join(import.meta.dirname, 'data', 'similarity-everyday.jsonl'), 'utf8')
    .split('\n')
    .filter(l => l.trim() !== '')
    .map(l => JSON.parse(l) as { a: string; b: string; kind: 'paraphrase' | 'unrelated' })
}

const PEERS: Record<string, string> = {
  en: 'TF-IDF 0.69, averaged GloVe 0.58, SBERT-NLI 0.77 (held-out); >= 0.84 wanted',
  de: 'TF-IDF 0.61 (held-out); >= 0.80 wanted',
  es: 'TF-IDF 0.68 (held-out); >= 0.80 wanted',
  nl: 'TF-IDF 0.62 (held-out); >= 0.80 wanted'
}

export async function evaluate (info: ModelInfo, tf: TF, log: (s: string) => void): Promise<EvalRow[]> {
  const model = await loadEncoderSimilarity(info.dir, info.manifest, tf, { imageMaxPixels: 0 })
  const rows: EvalRow[] = []
  try {
    for (const lang of ['en', 'de', 'es', 'nl']) {
      const pairs = stsPairs(lang, 'dev').map(p => ({ a: p.a, b: p.b, lang, score: p.score }))
      const gold = pairs.map(p => p.score)
      const t0 = performance.now()
      const pred = (await model.predict(pairs)) as number[]
      const ms = (performance.now() - t0) / pairs.length
      const rho = spearman(pred, gold)
      const served = info.manifest.languages.includes(lang)
      const note = served ? '' : ' (not served)'
      log(`similarity ${lang}: Spearman ${rho.toFixed(3)}, ${ms.toFixed(2)} ms per pair${note}`)
      const dataset = `stsb-multi-mt ${lang} (dev, ${pairs.length})`
      rows.push({
        model: `${info.name} v${info.version}${served ? '' : ' (not served)'}`,
        dataset,
        metric: 'spearman',
        value: rho,
        baseline: PEERS[lang] ?? ''
      })
    }
    if (info.manifest.languages.includes('en')) {
      const pairs = everydayPairs()
      const got = (await model.predict(pairs.map(p => ({ a: p.a, b: p.b, lang: 'en' })))) as number[]
      const of = (kind: string) => got.filter((_, i) => pairs[i]!.kind === kind)
      const para = of('paraphrase')
      const un = of('unrelated')
      const mean = (x: number[]) => x.reduce((a, v) => a + v, 0) / Math.max(1, x.length)
      const dataset =
        'everyday pairs en, written by the project ' +
        `(eval/data/similarity-everyday.jsonl: ${para.length} paraphrases, ${un.length} unrelated)`
      log(
        `similarity en everyday pairs: "${pairs[0]!.a}" / "${pairs[0]!.b}" ${got[0]!.toFixed(3)}; ` +
          `paraphrases mean ${mean(para).toFixed(3)} ` +
          `(${para.filter(v => v >= 0.6).length} of ${para.length} >= 0.6), ` +
          `unrelated mean ${mean(un).toFixed(3)} (${un.filter(v => v <= 0.2).length} of ${un.length} <= 0.2)`
      )
      const name = `${info.name} v${info.version}`
      rows.push({
        model: name,
        dataset,
        metric: `"${pairs[0]!.a}" / "${pairs[0]!.b}"`,
        value: got[0]!,
        baseline: '>= 0.6 wanted'
      })
      rows.push({ model: name, dataset, metric: 'paraphrases: mean similarity', value: mean(para) })
      rows.push({
        model: name,
        dataset,
        metric: 'paraphrases: share >= 0.6',
        value: para.filter(v => v >= 0.6).length / para.length
      })
      rows.push({
        model: name,
        dataset,
        metric: 'unrelated: mean similarity',
        value: mean(un),
        baseline: '<= 0.2 wanted'
      })
    }
  } finally {
    model.dispose()
  }
  return rows
}
