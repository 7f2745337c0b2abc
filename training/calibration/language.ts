// npm run train -- calibrate sentiment-multilingual: fits the calibration by
// language of a model that serves several languages (lib/text/calibration.ts) and writes it into its
// manifest (calibration.byLanguage), with no retraining: one temperature per language, on the
// model's served scores for the calibration half of that language's validation rows
// (training/trainers/scores.ts fitsTemperature), on top of the one temperature all languages share in its
// weights. A language whose own fit is within noise of 1 gets the temperature fitted on all such languages'
// rows together. The other half reports the expected calibration error before and after. A temperature
// changes no top label, so the macro-F1 figures stay as they are. --calibrate-dry prints the figures and
// writes nothing.
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { getTf } from '../../lib/runtime/tf.js'
import type { ModelManifest } from '../../schemas/model-manifest.js'
import { loaderOfClassifier } from '../../lib/text/classifier-kinds.js'
import type { LoadedModel } from '../../lib/serving/loaded-model.js'
import { recalibrateLanguage, toLogits, type LanguageCalibration } from '../../lib/text/calibration.js'
import { ece, eceFloor, eceOf, fitCalibration, fitsTemperature, pooledTop } from '../trainers/scores.js'
import {
  umsab,
  UMSAB_LANGS,
  XED_EMOTION,
  XED_POLARITY,
  XED_SPLIT_LANGS,
  xedRows,
  type LangRow
} from '../readers/multilingual.js'
import { options } from '../readers/options.js'

const METHOD =
  'temperature per language: the scores of a text in language l become softmax(log p / T[l]), ' +
  'on top of the temperature in the weights'

/** each multilingual head's validation rows by language (training/heads/languages.ts) */
export const LANGUAGE_CALIBRATED: Record<string, () => Record<string, LangRow[]>> = {
  'sentiment-multilingual': () => ({
    ...Object.fromEntries(Object.keys(UMSAB_LANGS).map(l => [l, umsab(l, 'val')])),
    nl: xedRows('nl', XED_POLARITY, 'val')
  }),
  'emotion-multilingual': () => Object.fromEntries(XED_SPLIT_LANGS.map(l => [l, xedRows(l, XED_EMOTION, 'val')]))
}

const r4 = (x: number) => Number(x.toFixed(4))
// a language whose fitted temperature is within this factor of 1 is fitted together with the other such
// languages: on the 150-300 rows of a language's fitting half such a difference is within noise
// (sentiment-multilingual v2, 2026-12-02: de, es, fr, it fitted 0.71-1.11 and their held halves got worse;
// hi 26.7 and nl 1.92 better), chosen after seeing those figures
const KEEP_WITHIN = 1.5

type Half = { lang: string; before: number[][]; gold: number[] }
/** the fitting rows of the languages that keep no temperature of their own, each language weighing alike */
type Shared = { logits: number[][]; gold: number[]; weights: number[]; langs: string[] }

export async function calibrateLanguages (
  op: string,
  dir: string,
  log: (s: string) => void = s => process.stderr.write(s + '\n')
): Promise<LanguageCalibration> {
  const validation = LANGUAGE_CALIBRATED[op]
  if (validation === undefined) {
    throw new Error(`no multilingual model ${op} (${Object.keys(LANGUAGE_CALIBRATED).join(', ')})`)
  }
  const path = join(dir, 'manifest.json')
  const manifest = JSON.parse(await readFile(path, 'utf8')) as ModelManifest & { calibration?: Record<string, unknown> }
  const { byLanguage: _old, ...rest } = manifest.calibration ?? {}
  const { tf } = await getTf()
  // the scores as served before this calibration (the weights, and any other calibration the manifest has): what
  // the temperatures are fitted on
  const served = { ...manifest, calibration: rest } as ModelManifest
  const load = loaderOfClassifier(manifest.kind)
  const model = (await load(dir, served, tf, { imageMaxPixels: 0 })) as LoadedModel<string, number[]>
  const index = new Map(manifest.labels.map((l, i) => [l, i]))
  const temperature: Record<string, number> = {}
  const halves: Half[] = []
  const shared: Shared = { logits: [], gold: [], weights: [], langs: [] }
  let fitted = 0
  for (const [lang, rows] of Object.entries(validation())) {
    const probs = await model.predict(rows.map(r => r.text))
    const gold = rows.map(r => index.get(r.label) ?? -1)
    const fit = rows.map((_, i) => i).filter(i => fitsTemperature(rows[i]!.text) && gold[i]! >= 0)
    const logits = fit.map(i => toLogits(probs[i]!, false))
    const f = fitCalibration(logits, fit.map(i => gold[i]!), false, undefined, false)
    if (Math.abs(Math.log(f.temperature)) >= Math.log(KEEP_WITHIN)) temperature[lang] = r4(f.temperature)
    else {
      log(`  ${lang}: fitted T ${r4(f.temperature)}, within ${KEEP_WITHIN}x of 1: fitted with the others`)
      shared.logits.push(...logits)
      shared.gold.push(...fit.map(i => gold[i]!))
      shared.weights.push(...fit.map(() => 1 / fit.length))
      shared.langs.push(lang)
    }
    fitted += fit.length
    const held = rows.map((_, i) => i).filter(i => !fitsTemperature(rows[i]!.text) && gold[i]! >= 0)
    halves.push({ lang, before: held.map(i => probs[i]!), gold: held.map(i => gold[i]!) })
  }
  model.dispose()
  const sharedBy = fitShared(shared, log)
  const params: LanguageCalibration = {
    method: METHOD,
    temperature: { ...temperature, ...sharedBy },
    multiLabel: false,
    fitted: [
      `npm run train -- calibrate ${op}: ${fitted} rows,`,
      "the half of each language's validation rows picked by training/trainers/scores.ts fitsTemperature;",
      'for each language alone, Adam on the negative log-likelihood, no bias per label;',
      `kept where at least ${KEEP_WITHIN}x from 1;`,
      'the other languages share one, fitted on their rows together (each language weighing alike),',
      'kept where, fitted on every other row, it lowers the negative log-likelihood of the rest both ways round'
    ].join(' ')
  }
  report(halves, params, { ...params, temperature }, log)
  if (options.calibrateDry) return params
  manifest.calibration = { ...rest, byLanguage: params }
  await writeFile(path, JSON.stringify(manifest, null, 2) + '\n')
  log(`wrote the calibration by language into ${op}'s manifest`)
  return params
}

/**
 * The temperature the languages within noise of 1 share, by language. It is kept only where it also helps
 * across folds of those rows: fitted on every other row, it lowers the negative log-likelihood of the rest,
 * both ways round.
 */
function fitShared (shared: Shared, log: (s: string) => void): Record<string, number> {
  if (shared.langs.length === 0) return {}
  const fit = (keep: (i: number) => boolean) => {
    const rows = shared.gold.map((_, i) => i).filter(keep)
    const pick = <T>(xs: T[]) => rows.map(i => xs[i]!)
    return fitCalibration(pick(shared.logits), pick(shared.gold), false, pick(shared.weights), false).temperature
  }
  const odd = (i: number) => i % 2 === 1
  const helps = (t: number, rows: (i: number) => boolean) => nll(shared, t, rows) < nll(shared, 1, rows)
  const crossed = helps(fit(i => !odd(i)), odd) && helps(fit(odd), i => !odd(i))
  const T = r4(fit(() => true))
  const langs = shared.langs.join(', ')
  const rows = shared.gold.length
  log(`  ${langs}: one temperature fitted on their ${rows} rows together: ${T}${crossed ? '' : ', not kept'}`)
  return crossed ? Object.fromEntries(shared.langs.map(l => [l, T])) : {}
}

/** The weighted negative log-likelihood of the chosen shared rows under temperature t. */
function nll (shared: Shared, t: number, keep: (i: number) => boolean): number {
  let total = 0
  shared.logits.forEach((z, i) => {
    if (!keep(i)) return
    const top = Math.max(...z)
    const sum = z.reduce((a, x) => a + Math.exp((x - top) / t), 0)
    total -= shared.weights[i]! * ((z[shared.gold[i]!]! - top) / t - Math.log(sum))
  })
  return total
}

/** Each language's held half before and after, and all of them pooled (also with the own temperatures only). */
function report (halves: Half[], params: LanguageCalibration, own: LanguageCalibration, log: (s: string) => void) {
  for (const h of halves) {
    const after = recalibrateLanguage(h.before, h.lang, params)
    const floor = eceFloor(after.map(p => Math.max(...p)))
    if (params.temperature[h.lang] === undefined) continue
    log(
      `  ${h.lang}: T ${params.temperature[h.lang]}; ECE ${ece(h.before, h.gold).toFixed(4)} -> ` +
        `${ece(after, h.gold).toFixed(4)} (${h.gold.length} rows; a calibrated model's on as many: ${floor.toFixed(4)})`
    )
  }
  // every language's held half together, each language weighing alike
  const pooled = (p: LanguageCalibration | undefined) => {
    const { conf, hits, weights } = pooledTop(
      halves.map(h => ({ probs: recalibrateLanguage(h.before, h.lang, p), gold: h.gold }))
    )
    return eceOf(conf, hits, 15, weights).toFixed(4)
  }
  log(
    `  pooled, each language weighing alike: ECE ${pooled(undefined)} -> ${pooled(params)}` +
      ` (with the own temperatures only: ${pooled(own)})`
  )
}
