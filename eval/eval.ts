// npm run eval: scores every model in model-store on the validation splits of ../shared/datasets,
// through the same loaders the service uses, and prints one row per model and metric with the
// published baselines; writes the table to eval/results.md as well.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { getTf } from '../lib/runtime/tf.js'
import { scanStore, type ModelInfo } from '../lib/serving/registry.js'
import type { TF } from '../lib/runtime/tf.js'
import { classifierLoader } from '../lib/text/classifier-kinds.js'
import { OPS } from '../training/specs/ops.js'
import { argmax, confusion } from '../training/trainers/scores.js'
import {
  beforeByInput,
  calibrationRow,
  heldHalf,
  pooledCalibrationRow,
  withoutByInput,
  type CalibrationHalf
} from './calibration.js'
import { evaluateImages, type EvalRow } from './images.js'
import { evaluate as evaluateOtherOp, OTHER_OPS } from './other-operations.js'
import { everydayMarkdown, isEveryday, type Answer } from './everyday.js'
import { everyday } from '../training/trainers/mix.js'
import { languageData } from '../training/heads/languages.js'
import { blendOf } from '../lib/text/heads/blend.js'
import { SPEC_OF } from '../training/heads/train.js'

const only = process.argv[2]
// `npm run eval -- everyday`: only the everyday sets of every classifier, to rewrite eval/everyday.md
const everydayOnly = only === 'everyday'
const OWN_EVAL = ['ner', 'ner-multilingual', 'keywords', 'keywords-multilingual', 'similarity', 'language_detection']
const rows: EvalRow[] = []
const store = join(import.meta.dirname, '..', 'model-store')
// each English classifier's answers on the everyday texts (its everyday validation sets), for eval/everyday.md
const answers: Record<string, Answer[]> = {}
const { tf, backend } = await getTf()
process.stderr.write(`TensorFlow.js backend: ${backend}\n`)

for (const info of await scanStore(store)) {
  if (only !== undefined && !everydayOnly && info.name !== only) continue
  if (everydayOnly && (OWN_EVAL.includes(info.name) || OTHER_OPS.includes(info.name))) continue
  if (OWN_EVAL.includes(info.name)) {
    // span and pair models: eval/<model>.ts scores them through their serving loader
    const mod = (await import(`./${info.name}.ts`)) as {
      evaluate: (info: ModelInfo, tf: TF, log: (s: string) => void) => Promise<EvalRow[]>
    }
    rows.push(...(await mod.evaluate(info, tf, s => process.stderr.write(s + '\n'))))
    continue
  }
  if (OTHER_OPS.includes(info.name)) {
    rows.push(...(await evaluateOtherOp(info, tf, s => process.stderr.write(s + '\n'))))
    continue
  }
  // a blend, or an English head named after another op's spec (intent-head), is scored on that op's sets
  const headOf = info.manifest.languages.includes('en') ? SPEC_OF[info.name] : undefined
  const spec = OPS[info.name] ?? OPS[blendOf(info.manifest)?.op ?? ''] ?? OPS[headOf ?? '']
  const load = classifierLoader(info.manifest.kind)
  if (load === undefined || spec === undefined) continue
  const model = await load(info.dir, info.manifest, tf, { imageMaxPixels: 0 })
  const bare = await withoutByInput(load, info, tf)
  const index = new Map(info.manifest.labels.map((l, i) => [l, i]))
  const name = `${info.name} v${info.version}`
  const halves: CalibrationHalf[] = []
  const other = info.manifest.kind.startsWith('encoder-') ? (languageData(info.name)?.validation ?? []) : []
  for (const v of [...spec.data().validation, ...other]) {
    if (everydayOnly && !isEveryday(v.name)) continue
    const probs = await model.predict(v.rows.map(r => r.text))
    // NONE: a text no label fits (independent per-label scores)
    const gold = v.rows.map(r => index.get(r.label) ?? -1)
    if (isEveryday(v.name)) {
      ;(answers[info.name] ??= []).push(
        ...v.rows.map((r, i) => ({
          text: r.text,
          gold: r.label,
          answer: info.manifest.labels[argmax(probs[i]!)] as string
        }))
      )
    }
    const m = confusion(
      gold.map(g => Math.max(0, g)),
      probs.map(argmax),
      info.manifest.labels.length
    )
    rows.push({
      model: name,
      dataset: `${v.name} (${v.split}, ${v.rows.length})`,
      metric: v.metric.name,
      value: v.metric.score(m, probs, gold),
      ...(v.metric.baseline ? { baseline: v.metric.baseline } : {})
    })
    // calibration on the half of the rows that did not fit the temperature
    const half = heldHalf(
      v.name,
      v.rows.map(r => r.text),
      probs,
      gold
    )
    if (v.calibration !== false && half.probs.length >= 50) {
      rows.push(
        calibrationRow(
          name,
          v.name,
          half,
          await beforeByInput(
            bare,
            v.rows.map(r => r.text),
            half
          )
        )
      )
      halves.push(half)
    }
  }
  bare?.dispose()
  const pooled = pooledCalibrationRow(name, halves)
  if (pooled !== undefined) rows.push(pooled)
  // leave one domain out: figures measured when training (each needs its own training run)
  const lodos = everydayOnly ? [] : info.manifest.metrics.filter(x => x.split.includes('leave one domain out'))
  for (const lodo of lodos) {
    rows.push({
      model: name,
      dataset: `${lodo.dataset} (${lodo.split}; from the manifest)`,
      metric: lodo.metric,
      value: lodo.value
    })
  }
  model.dispose()
}
if (only === undefined || only === 'facial_emotion' || only === 'object_recognizer') {
  rows.push(...(await evaluateImages(s => process.stderr.write(s + '\n'))))
}

const header = '| model | validation data | metric | value | baseline |\n|---|---|---|---:|---|'
const table = [
  header,
  ...rows.map(r => `| ${r.model} | ${r.dataset} | ${r.metric} | ${r.value.toFixed(3)} | ${r.baseline ?? ''} |`)
].join('\n')
console.log(table)
const today = new Date().toISOString().slice(0, 10)
if (only === undefined || everydayOnly) {
  writeFileSync(join(import.meta.dirname, 'everyday.md'), everydayMarkdown(everyday(), answers, today))
}
if (only === undefined) {
  writeFileSync(
    join(import.meta.dirname, 'results.md'),
    `Model evaluation, ${new Date().toISOString().slice(0, 10)}, backend ${backend} (npm run eval)\n\n${table}\n`
  )
}
