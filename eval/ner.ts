// NER evaluation through the serving loader: each validation sentence is rebuilt as text (tokens
// joined by spaces), tagged by lib/text/ner/tagger.ts exactly as the service would (its own tokeniser,
// character offsets), and scored by exact character-span + category F1 over name/group/place.
// Tokenisation differences between the corpus and the service therefore count as errors.
// A language whose model trained on its own validation file (German: GermEval dev, the only gold
// German data here) is not scored on it: its row is the 5-fold cross-validated figure that
// training/recipes/ner.ts measured and wrote into the manifest, labelled as such.
import type { ModelInfo } from '../lib/serving/registry.js'
import type { TF } from '../lib/runtime/tf.js'
import { loadNer, type Entity, type NerInput } from '../lib/text/ner/tagger.js'
import { CATEGORY, TYPES, typeOf, isBegin } from '../lib/text/ner/labels.js'
import type { LoadedModel } from '../lib/serving/loaded-model.js'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { loadEncoderNer } from '../lib/text/heads/ner.js'
import * as corpora from '../training/readers/ner.js'
import type { Sentence } from '../training/readers/ner.js'
import { joinWords } from '../training/readers/ner-transforms.js'
import type { EvalRow } from './images.js'

interface Validation {
  dataset: string
  path: string
  file: string
  read: () => Sentence[]
  /** the part a model that trains on the rest of the file is scored on */
  part?: { file: string; read: () => Sentence[] }
}

const VALIDATION: Record<string, Validation> = {
  en: {
    dataset: 'CoNLL-2003 English',
    path: 'ner/conll2003-en',
    file: 'eng.testa',
    read: () => corpora.conll2003('eng.testa')
  },
  es: {
    dataset: 'CoNLL-2002 Spanish',
    path: 'ner/conll2002-es-nl',
    file: 'esp.testa',
    read: () => corpora.conll2002('esp.testa')
  },
  nl: {
    dataset: 'CoNLL-2002 Dutch',
    path: 'ner/conll2002-es-nl',
    file: 'ned.testa',
    read: () => corpora.conll2002('ned.testa')
  },
  de: {
    dataset: 'GermEval 2014',
    path: 'ner/germeval2014-de',
    file: 'NER-de-dev.tsv',
    read: corpora.germevalDev,
    part: { file: 'every fifth source', read: () => corpora.germevalPart(true) }
  },
  fr: {
    dataset: "Europeana French newspapers (BnF: L'Ouest-Éclair 1906, OCR)",
    path: 'training/data/europeana-fr',
    file: 'every fifth page',
    read: () => corpora.europeanaFrench(true)
  }
}

/** the languages a model is scored in: the tagger's own; every validation language for the encoder's head */
const scoredIn = (info: ModelInfo): string[] =>
  info.manifest.kind === 'encoder-ner' ? Object.keys(VALIDATION) : info.manifest.languages

/** the validation data of `lang`: the held-out part of the file when the model trains on the rest (the encoder's
 * head lists the file's path, not a language, among its data) */
function validationOf (info: ModelInfo, lang: string): Validation | undefined {
  const v = VALIDATION[lang]
  if (v?.part === undefined || info.manifest.kind !== 'encoder-ner') return v
  const { file, read } = v.part
  const trains = info.manifest.training.data.some(d => d.path === v.path)
  return trains ? { dataset: `${v.dataset} (${file})`, path: v.path, file, read } : v
}

/** whether the manifest lists the validation file among the training data of `lang` */
const trainedOn = (info: ModelInfo, lang: string, v: { path: string; file: string }): boolean =>
  info.manifest.training.data.some(
    d => d.path === v.path && d.name.endsWith(`[${lang}]`) && (d.split ?? '').startsWith(v.file)
  )

/** a sentence as text with its gold entities as "start:end:category" */
export function asText (s: Sentence): { text: string; gold: string[] } {
  const { text, starts } = joinWords(s.words)
  const gold: string[] = []
  for (let t = 0; t < s.words.length;) {
    const y = s.labels[t] as number
    if (y === 0) {
      t++
      continue
    }
    let end = t + 1
    while (
      end < s.words.length &&
      s.labels[end] !== 0 &&
      !isBegin(s.labels[end] as number) &&
      typeOf(s.labels[end] as number) === typeOf(y)
    ) {
      end++
    }
    const category = CATEGORY[TYPES[typeOf(y)] as string]
    if (category !== undefined) {
      gold.push(`${starts[t]}:${(starts[end - 1] as number) + (s.words[end - 1] as string).length}:${category}`)
    }
    t = end
  }
  return { text, gold }
}

export async function evaluate (info: ModelInfo, tf: TF, log: (s: string) => void): Promise<EvalRow[]> {
  const load = info.manifest.kind === 'encoder-ner' ? loadEncoderNer : loadNer
  const model = (await load(info.dir, info.manifest, tf, { imageMaxPixels: 0 })) as LoadedModel<NerInput, Entity[]>
  const rows: EvalRow[] = []
  try {
    for (const lang of scoredIn(info)) {
      const v = validationOf(info, lang)
      if (v === undefined) continue
      if (trainedOn(info, lang, v)) {
        const cv = info.manifest.metrics.find(m => m.dataset === v.dataset && /cross-validated/.test(m.split))
        if (cv === undefined) {
          log(
            `ner ${lang}: trained on ${v.dataset} ${v.file} and no cross-validated figure in the manifest: not scored`
          )
          continue
        }
        log(
          `ner ${lang}: trained on ${v.dataset} ${v.file}, so not scored on it here; ` +
            `cross-validated F1 from the manifest ${cv.value.toFixed(4)} (${cv.split})`
        )
        rows.push({
          model: `${info.name} v${info.version}`,
          dataset: `${v.dataset} ${lang} (${v.file} is training data here: cross-validated figure from the manifest)`,
          metric: cv.metric,
          value: cv.value,
          ...(cv.baseline !== undefined ? { baseline: cv.baseline } : {})
        })
        continue
      }
      let items: Item[]
      try {
        items = v.read().map(asText)
      } catch (err) {
        // a set fetched into training/data (training/DATA.md) may be missing on this machine
        log(`ner ${lang}: ${(err as Error).message}: not scored`)
        continue
      }
      const { p, r, f1, ms } = await score(model, items, lang)
      const baseline = info.manifest.metrics.find(m => m.dataset === v.dataset)?.baseline
      log(
        `ner ${lang}: ${items.length} sentences, F1 ${f1.toFixed(4)} P ${p.toFixed(4)} R ${r.toFixed(4)}, ` +
          `${ms.toFixed(3)} ms per sentence`
      )
      rows.push({
        model: `${info.name} v${info.version}`,
        dataset: `${v.dataset} ${lang} (validation, ${items.length})`,
        metric: `entity F1 name/group/place, exact span (P ${p.toFixed(3)}, R ${r.toFixed(3)})`,
        value: f1,
        ...(baseline !== undefined ? { baseline } : {})
      })
    }
    if (scoredIn(info).includes('en')) rows.push(...(await otherDomains(model, `${info.name} v${info.version}`, log)))
  } finally {
    model.dispose()
  }
  return rows
}

interface Item {
  text: string
  gold: string[]
}

/** exact character-span + category precision, recall and F1 of the model on `items`, and ms per sentence */
async function score (
  model: LoadedModel<NerInput, Entity[]>,
  items: Item[],
  lang: string
): Promise<{
  p: number
  r: number
  f1: number
  ms: number
  tp: number
  pred: number
  gold: number
  emptyClean: number
  empty: number
}> {
  let tp = 0
  let pred = 0
  let gold = 0
  let ms = 0
  let empty = 0
  let emptyClean = 0
  for (let i = 0; i < items.length; i += 500) {
    const part = items.slice(i, i + 500)
    const t0 = performance.now()
    const out = await model.predict(part.map(x => ({ text: x.text, lang })))
    ms += performance.now() - t0
    part.forEach((x, j) => {
      const g = new Set(x.gold)
      const p = (out[j] ?? []).map(e => `${e.start}:${e.end}:${e.category}`)
      gold += g.size
      pred += p.length
      if (g.size === 0) {
        empty++
        if (p.length === 0) emptyClean++
      }
      for (const s of p) if (g.has(s)) tp++
    })
  }
  const p = pred === 0 ? 0 : tp / pred
  const r = gold === 0 ? 0 : tp / gold
  return {
    p,
    r,
    f1: p + r === 0 ? 0 : (2 * p * r) / (p + r),
    ms: ms / Math.max(1, items.length),
    tp,
    pred,
    gold,
    emptyClean,
    empty
  }
}

/**
 * the project's own everyday sentences (eval/data/ner-everyday.jsonl): gold entities by their text, found left
 * to right
 */
export function everyday (): Item[] {
  const file = join(import.meta.dirname, 'data', 'ner-everyday.jsonl')
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(l => l.trim() !== '')
    .map(l => {
      const x = JSON.parse(l) as { text: string; entities: Array<{ text: string; category: string }> }
      let from = 0
      const gold = x.entities.map(e => {
        const at = x.text.indexOf(e.text, from)
        if (at < 0) throw new Error(`ner-everyday: "${e.text}" not in "${x.text}"`)
        from = at + e.text.length
        return `${at}:${from}:${e.category}`
      })
      return { text: x.text, gold }
    })
}

/**
 * English beyond newswire: WNUT-17 dev (social media; person, location, corporation and group as
 * organisation) and the project's own everyday sentences, most of them without any entity.
 */
async function otherDomains (
  model: LoadedModel<NerInput, Entity[]>,
  name: string,
  log: (s: string) => void
): Promise<EvalRow[]> {
  const rows: EvalRow[] = []
  const w = corpora.wnut17('emerging.dev.conll').map(asText)
  const sw = await score(model, w, 'en')
  log(
    `ner en social media (WNUT-17 dev): ${w.length} sentences, ` +
      `F1 ${sw.f1.toFixed(4)} P ${sw.p.toFixed(4)} R ${sw.r.toFixed(4)}`
  )
  rows.push({
    model: name,
    dataset: `WNUT-17 en, social media (dev, ${w.length})`,
    metric: `entity F1 name/group/place, exact span (P ${sw.p.toFixed(3)}, R ${sw.r.toFixed(3)})`,
    value: sw.f1,
    baseline: 'published (test, all 6 types): best shared-task system 0.419'
  })
  const e = everyday()
  const se = await score(model, e, 'en')
  const clean = se.emptyClean / Math.max(1, se.empty)
  log(
    `ner en everyday sentences (written by the project): ${e.length} sentences, ${se.empty} without entities, ` +
      `${se.emptyClean} of them tagged with none; F1 ${se.f1.toFixed(4)} P ${se.p.toFixed(4)} R ${se.r.toFixed(4)} ` +
      `(${se.tp}/${se.pred} predicted, ${se.gold} gold)`
  )
  const dataset =
    'everyday sentences en, written by the project ' +
    `(eval/data/ner-everyday.jsonl, ${e.length}: ${se.empty} without entities)`
  rows.push({
    model: name,
    dataset,
    metric:
      `entity precision, exact span (${se.tp} of ${se.pred} predicted right; ` +
      `R ${se.r.toFixed(3)}, F1 ${se.f1.toFixed(3)})`,
    value: se.p
  })
  rows.push({ model: name, dataset, metric: 'share of entity-free sentences tagged with no entity', value: clean })
  return rows
}
