// Keyphrase evaluation (called by npm run eval): F1@10, P@10 and R@10 on the Inspec validation
// abstracts, scoring the served model through its loader (lib/text/keywords/ranker.ts) by Porter2 stem
// keys, beside two baselines of our own on the same candidates and split: TF-IDF and PositionRank,
// and the untrained stopword ranker that serves es, nl and de, run on the same abstracts in English.
import type { ModelInfo } from '../lib/serving/registry.js'
import type { TF } from '../lib/runtime/tf.js'
import { loadKeywords, type Keyword, type KeywordInput } from '../lib/text/keywords/ranker.js'
import type { Analysed } from '../lib/text/keywords/candidates.js'
import { phraseKey } from '../lib/text/keywords/tokens.js'
import { STOPWORD_LANGUAGES, stopwordKeyphrases } from '../lib/text/keywords/stopwords.js'
import type { LoadedModel } from '../lib/serving/loaded-model.js'
import {
  average,
  keyphraseDocs,
  oracle,
  positionRanker,
  scoreDoc,
  tfidfRanker,
  type KeyDoc,
  type Scores
} from '../training/readers/keywords.js'
import type { EvalRow } from './images.js'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { TERMEX, termexF1 } from '../training/trainers/keywords-pos.js'

export async function evaluate (info: ModelInfo, tf: TF, log: (s: string) => void): Promise<EvalRow[]> {
  const model = (await loadKeywords(info.dir, info.manifest, tf, { imageMaxPixels: 0 })) as LoadedModel<
    KeywordInput,
    Keyword[]
  >
  const { train, val } = keyphraseDocs(log)
  const dataset = `Inspec validation (${val.length} abstracts)`
  const t0 = performance.now()
  const served = await model.predict(val.map(d => ({ text: d.text, lang: 'en' })))
  const ms = (performance.now() - t0) / val.length
  model.dispose()
  const tfidf = tfidfRanker(train)
  const score = (rank: (d: KeyDoc) => string[]) => average(val.map(d => scoreDoc(rank(d), d.gold)))
  const systems: Array<[string, Scores]> = [
    [`${info.name} v${info.version}`, score(d => (served[val.indexOf(d)] ?? []).map(k => phraseKey(k.keyword)))],
    [
      `stopword ranker (serves ${STOPWORD_LANGUAGES.join(', ')}), English stopwords`,
      score(d => stopwordKeyphrases(d.text, 'en', 10).map(k => phraseKey(k.keyword)))
    ],
    ['baseline: TF-IDF (ours)', score(d => tfidf(d.a as Analysed))],
    ['baseline: PositionRank (ours)', score(d => positionRanker(d.a))],
    ['ceiling: gold candidates first', score(oracle)]
  ]
  const rows: EvalRow[] = []
  for (const [name, s] of systems) {
    const peers = name.startsWith(info.name)
      ? 'retext-keywords / keyword-extractor 0.19-0.20 (held-out Inspec); TextRank/YAKE 0.27-0.30 (published)'
      : undefined
    rows.push({ model: name, dataset, metric: 'F1@10', value: s.f1, ...(peers ? { baseline: peers } : {}) })
    rows.push({ model: name, dataset, metric: 'P@10', value: s.p })
    rows.push({ model: name, dataset, metric: 'R@10', value: s.r })
  }
  rows.push({ model: `${info.name} v${info.version}`, dataset, metric: 'ms per abstract', value: ms })
  // Spanish: the stopword ranker with the model's Spanish word classes, on every termex document
  const es = termexF1(await readFile(join(info.dir, 'pos.json'), 'utf8').catch(() => '{}'))
  log(
    `keywords es: termex ${es.docs} documents, ` +
      `F1@10 ${es.s.f1.toFixed(4)} (P ${es.s.p.toFixed(3)}, R ${es.s.r.toFixed(3)})`
  )
  const termex = `${TERMEX.name} (all ${es.docs} documents)`
  rows.push({
    model: `${info.name} v${info.version} (stopword ranker, es)`,
    dataset: termex,
    metric: 'F1@10 (exact match)',
    value: es.s.f1,
    baseline: 'published on its 493 documents: YAKE 0.146, TopicRank 0.137, RAKE 0.120'
  })
  rows.push({
    model: `${info.name} v${info.version} (stopword ranker, es)`,
    dataset: termex,
    metric: 'P@10',
    value: es.s.p
  })
  return rows
}
