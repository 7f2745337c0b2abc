// The multilingual figures: language detection accuracy (full sentences and their first 4 words) on
// language-id/ud-sentences, sentiment and emotion macro-F1 per language on validation rows, and how
// often lang_code omitted (detected, or English when unsure) gives the same top label as the right
// lang_code. Run alone (node --import tsx eval/languages.ts prints the table) or from npm run eval.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ModelInfo } from '../lib/serving/registry.js'
import { scanStore } from '../lib/serving/registry.js'
import { getTf, type TF } from '../lib/runtime/tf.js'
import type { LoadedModel } from '../lib/serving/loaded-model.js'
import { loaderOfClassifier } from '../lib/text/classifier-kinds.js'
import { loadLanguageId, routeLanguage, type Detection } from '../lib/text/langid/langid.js'
import { DATASETS } from '../training/readers/data.js'
import { argmax, confusion, ece, macroF1 } from '../training/trainers/scores.js'
import { languageCalibrationOf, recalibrateLanguage } from '../lib/text/calibration.js'
import {
  umsab,
  UMSAB_LANGS,
  XED_EMOTION,
  XED_POLARITY,
  xedRows,
  type LangRow
} from '../training/readers/multilingual.js'
import type { EvalRow } from './images.js'
import { everydayLanguages, EVERYDAY_LANGS } from '../training/heads/languages.js'
import { calibrationRow, heldHalf, pooledCalibrationRow, type CalibrationHalf } from './calibration.js'

const STORE = join(import.meta.dirname, '..', 'model-store')
const UD = join(DATASETS, 'language-id', 'ud-sentences')
const pct = (a: number, n: number) => (n === 0 ? 0 : a / n)

function detectionRows (det: LoadedModel<string, Detection>, model: string): Promise<EvalRow[]> {
  return (async () => {
    const rows: EvalRow[] = []
    let all = 0
    let all4 = 0
    let n = 0
    for (const f of readdirSync(UD)
      .filter(x => x.endsWith('.tsv'))
      .sort()) {
      const lang = f.slice(0, -4)
      const texts = readFileSync(join(UD, f), 'utf8')
        .split('\n')
        .filter(l => l.includes('\t'))
        .map(l => l.split('\t')[1] as string)
      const full = (await det.predict(texts)).filter(d => d.code === lang).length
      const four = (await det.predict(texts.map(t => t.split(' ').slice(0, 4).join(' ')))).filter(
        d => d.code === lang
      ).length
      rows.push({
        model,
        dataset: `ud-sentences ${lang} (${texts.length})`,
        metric: 'accuracy full / first 4 words',
        value: pct(full, texts.length),
        baseline: `4 words: ${pct(four, texts.length).toFixed(3)}`
      })
      all += full
      all4 += four
      n += texts.length
    }
    rows.push({
      model,
      dataset: `ud-sentences, 27 languages (${n})`,
      metric: 'accuracy full sentences',
      value: pct(all, n),
      baseline: 'target 0.97'
    })
    rows.push({
      model,
      dataset: `ud-sentences, 27 languages (${n})`,
      metric: 'accuracy first 4 words',
      value: pct(all4, n),
      baseline: 'target 0.85'
    })
    return rows
  })()
}

/**
 * macro-F1 over the labels present in the rows, and the calibration half of the rows, scored as the
 * service answers texts of that language (with the model's calibration by language, as
 * lib/text/routing.ts calibratedFor applies it), and the ECE of that half before the calibration by
 * language (its note; '' without one)
 */
async function scored (
  model: LoadedModel<string, number[]>,
  rows: LangRow[],
  name: string,
  lang: string
): Promise<{ f1: number; half: CalibrationHalf; before: string }> {
  const index = new Map(model.manifest.labels.map((l, i) => [l, i]))
  const gold = rows.map(r => index.get(r.label) as number)
  const texts = rows.map(r => r.text)
  const raw = await model.predict(texts)
  // as lib/text/routing.ts calibratedFor answers texts of this language
  const params = languageCalibrationOf(model.manifest)
  const probs = recalibrateLanguage(raw, lang, params)
  const f1 = macroF1(confusion(gold, probs.map(argmax), model.manifest.labels.length), [...new Set(gold)])
  const h0 = params === undefined ? undefined : heldHalf(name, texts, raw, gold)
  const before = h0 === undefined ? '' : `; ${ece(h0.probs, h0.gold).toFixed(3)} before calibration by language`
  return { f1, half: heldHalf(name, texts, probs, gold), before }
}

/** Share of rows whose top label with lang_code omitted equals the one with the right lang_code. */
async function agreement (
  det: LoadedModel<string, Detection>,
  english: LoadedModel<string, number[]>,
  multi: LoadedModel<string, number[]>,
  rows: LangRow[]
): Promise<number> {
  const texts = rows.map(r => r.text)
  const found = await det.predict(texts)
  const right = (await multi.predict(texts)).map(argmax)
  const en = (await english.predict(texts)).map(argmax)
  const label = (m: LoadedModel<string, number[]>, i: number) => m.manifest.labels[i]
  let same = 0
  found.forEach((d, i) => {
    const lang = routeLanguage(texts[i] as string, d, ['en', ...multi.manifest.languages]).code
    // the same model serves it
    if (multi.manifest.languages.includes(lang)) same++
    else if (lang === 'en' && label(english, en[i] as number) === label(multi, right[i] as number)) same++
  })
  return pct(same, rows.length)
}

async function opRows (
  tf: TF,
  op: string,
  data: Record<string, LangRow[]>,
  det: LoadedModel<string, Detection> | undefined
): Promise<EvalRow[]> {
  const infos = await scanStore(STORE)
  const multiInfo = infos.find(i => i.name === `${op}-multilingual`)
  const enInfo = infos.find(i => i.name === op)
  if (multiInfo === undefined) return []
  const loadMulti = loaderOfClassifier(multiInfo.manifest.kind)
  const loaded = await loadMulti(multiInfo.dir, multiInfo.manifest, tf, { imageMaxPixels: 0 })
  const multi = loaded as LoadedModel<string, number[]>
  const english =
    enInfo === undefined
      ? undefined
      : ((await loaderOfClassifier(enInfo.manifest.kind)(enInfo.dir, enInfo.manifest, tf, {
          imageMaxPixels: 0
        })) as LoadedModel<string, number[]>)
  const rows: EvalRow[] = []
  const name = `${multiInfo.name} v${multiInfo.version}`
  const halves: CalibrationHalf[] = []
  for (const [lang, rs] of Object.entries(data)) {
    const set = `${lang === 'nl' || op === 'emotion' ? 'XED' : 'UMSAB'} ${lang}`
    const { f1, half, before } = await scored(multi, rs, set, lang)
    rows.push({ model: name, dataset: `${set} (validation, ${rs.length})`, metric: 'macro-F1', value: f1 })
    if (half.probs.length >= 50) {
      rows.push(calibrationRow(name, `${set} validation`, half, before))
      halves.push(half)
    }
    if (det !== undefined && english !== undefined) {
      rows.push({
        model: name,
        dataset: `${lang} (validation, ${rs.length})`,
        metric: 'lang_code omitted agrees with the right lang_code',
        value: await agreement(det, english, multi, rs),
        baseline: 'target 0.95'
      })
    }
  }
  const pooled = pooledCalibrationRow(name, halves)
  if (pooled !== undefined) rows.push(pooled)
  rows.push(...(await everydayRows(multi, name, op === 'sentiment' ? 'sentiment' : 'emotion')))
  multi.dispose()
  english?.dispose()
  return rows
}

/** Accuracy on the project's own everyday texts of each language the model serves (never trained on): their
 * sentiment, or the emotion of those that have one. */
async function everydayRows (
  model: LoadedModel<string, number[]>,
  name: string,
  field: 'sentiment' | 'emotion'
): Promise<EvalRow[]> {
  const lines = everydayLanguages().filter(l => l[field] !== null)
  const rows: EvalRow[] = []
  for (const lang of EVERYDAY_LANGS.filter(l => model.manifest.languages.includes(l))) {
    const mine = lines.filter(l => l.lang === lang)
    const raw = await model.predict(mine.map(l => l.text))
    const probs = recalibrateLanguage(raw, lang, languageCalibrationOf(model.manifest))
    const right = mine.filter((l, i) => model.manifest.labels[argmax(probs[i]!)] === l[field]).length
    const file = 'eval/data/everyday-languages.jsonl'
    const some = field === 'emotion' ? ' with an emotion' : ''
    const dataset = `everyday texts in ${lang}${some}, written by the project (${file}, ${mine.length})`
    const value = pct(right, mine.length)
    const metric = field === 'sentiment' ? 'accuracy (3 classes)' : 'accuracy'
    rows.push({ model: name, dataset, metric, value, baseline: field === 'sentiment' ? 'target 0.85' : 'target 0.70' })
  }
  return rows
}

export async function evaluate (info: ModelInfo, tf: TF, log: (s: string) => void = () => {}): Promise<EvalRow[]> {
  const det = (await loadLanguageId(info.dir, info.manifest, tf, { imageMaxPixels: 0 })) as LoadedModel<
    string,
    Detection
  >
  const rows = await detectionRows(det, `${info.name} v${info.version}`)
  log('language detection scored')
  // XED is fetched, not committed (training/DATA.md): without it, its rows are left out and said so
  const xed = (f: () => LangRow[]): LangRow[] | undefined => {
    try {
      return f()
    } catch (err) {
      log(`skipped: ${(err as Error).message}`)
      return undefined
    }
  }
  const nl = xed(() => xedRows('nl', XED_POLARITY, 'val'))
  const sentiment = {
    ...Object.fromEntries(Object.keys(UMSAB_LANGS).map(l => [l, umsab(l, 'val')])),
    ...(nl !== undefined ? { nl } : {})
  }
  rows.push(...(await opRows(tf, 'sentiment', sentiment, det)))
  const emotion = Object.fromEntries(
    ['es', 'de', 'fr', 'it', 'pt', 'nl'].flatMap(l => {
      const r = xed(() => xedRows(l, XED_EMOTION, 'val'))
      return r === undefined ? [] : [[l, r]]
    })
  )
  if (Object.keys(emotion).length > 0) rows.push(...(await opRows(tf, 'emotion', emotion, det)))
  return rows
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { tf } = await getTf()
  const info = (await scanStore(STORE)).find(i => i.name === 'language_detection')
  if (info === undefined) throw new Error('model-store/language_detection is missing')
  const rows = await evaluate(info, tf, s => process.stderr.write(s + '\n'))
  console.log(
    [
      '| model | data | metric | value | note |',
      '|---|---|---|---:|---|',
      ...rows.map(r => `| ${r.model} | ${r.dataset} | ${r.metric} | ${r.value.toFixed(3)} | ${r.baseline ?? ''} |`)
    ].join('\n')
  )
}
