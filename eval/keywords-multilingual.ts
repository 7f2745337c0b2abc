// The encoder's keyphrases (kind encoder-keyphrases) on the Spanish termex documents, through its
// serving loader, beside the stopword ranker whose candidates it ranks: F1@10, P@10, R@10 by exact match.
import type { ModelInfo } from '../lib/serving/registry.js'
import type { LoadedModel } from '../lib/serving/loaded-model.js'
import type { Keyword, KeywordInput } from '../lib/text/keywords/ranker.js'
import { loadEncoderKeyphrases } from '../lib/text/heads/keyphrases.js'
import { average, scoreDoc } from '../training/readers/keywords.js'
import { phraseNorm, TERMEX, termexDocs } from '../training/trainers/keywords-pos.js'
import type { EvalRow } from './images.js'

const STOPWORD_ALONE = 'stopword ranker alone 0.216; target 0.28'

export async function evaluate (info: ModelInfo, _tf: unknown, log: (s: string) => void): Promise<EvalRow[]> {
  const ctx = { imageMaxPixels: 0 }
  const loaded = await loadEncoderKeyphrases(info.dir, info.manifest, undefined, ctx)
  const model = loaded as LoadedModel<KeywordInput, Keyword[]>
  const docs = termexDocs()
  const t0 = performance.now()
  const got = await model.predict(docs.map(d => ({ text: d.text, lang: 'es' })))
  const ms = (performance.now() - t0) / docs.length
  const s = average(
    docs.map((d, i) =>
      scoreDoc(
        (got[i] ?? []).map(k => phraseNorm(k.keyword)),
        d.gold
      )
    )
  )
  log(`keywords-multilingual es: termex ${docs.length} documents, F1@10 ${s.f1.toFixed(4)}, ${ms.toFixed(1)} ms each`)
  const name = `${info.name} v${info.version} (es)`
  const dataset = `${TERMEX.name} (all ${docs.length} documents; the settings were chosen on it)`
  return [
    { model: name, dataset, metric: 'F1@10 (exact match)', value: s.f1, baseline: STOPWORD_ALONE },
    { model: name, dataset, metric: 'P@10', value: s.p },
    { model: name, dataset, metric: 'R@10', value: s.r },
    { model: name, dataset, metric: 'ms per document (this machine, 2 cores)', value: ms }
  ]
}
