// The evaluation of abuse, target_sentiment, custom_classifier, phrase_extractor and nsfw
// (npm run eval, or npm run eval -- <op>): each through its serving code, on validation data only.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { ModelInfo } from '../lib/serving/registry.js'
import type { TF } from '../lib/runtime/tf.js'
import { loaderOfClassifier } from '../lib/text/classifier-kinds.js'
import { nounPhrases } from '../lib/text/keywords/phrases.js'
import { phraseKey } from '../lib/text/keywords/tokens.js'
import { decodeImage } from '../lib/image/decode.js'
import { classifyNsfw } from '../lib/image/nsfw.js'
import { DATASETS, isHeldOut, lines } from '../training/readers/data.js'
import { argmax, confusion } from '../training/trainers/scores.js'
import type { TextModelSpec } from '../training/trainers/text-model.js'
import type { EvalRow } from './images.js'
import { zeroShotAccuracy } from './custom_classifier.js'
import {
  beforeByInput,
  calibrationRow,
  heldHalf,
  pooledCalibrationRow,
  withoutByInput,
  type CalibrationHalf
} from './calibration.js'

export const OTHER_OPS = ['abuse', 'target_sentiment', 'custom_classifier', 'phrase_extractor', 'nsfw']

async function classifier (info: ModelInfo, tf: TF, spec: Pick<TextModelSpec, 'validation'>): Promise<EvalRow[]> {
  const load = loaderOfClassifier(info.manifest.kind)
  const model = await load(info.dir, info.manifest, tf, { imageMaxPixels: 0 })
  const bare = await withoutByInput(load, info, tf)
  const index = new Map(info.manifest.labels.map((l, i) => [l, i]))
  const rows: EvalRow[] = []
  const name = `${info.name} v${info.version}`
  const halves: CalibrationHalf[] = []
  const reported = new Set<string>()
  for (const v of spec.validation) {
    const texts = v.rows.map(r => r.text)
    const probs = (await model.predict(texts)) as number[][]
    const gold = v.rows.map(r => index.get(r.label) as number)
    const m = confusion(gold, probs.map(argmax), info.manifest.labels.length)
    rows.push({
      model: name,
      dataset: `${v.name} (${v.split}, ${v.rows.length})`,
      metric: v.metric.name,
      value: v.metric.score(m),
      ...(v.metric.baseline ? { baseline: v.metric.baseline } : {})
    })
    // the half of the rows not used to fit a temperature (the same half as the other models'), once a
    // set (a set scored by two metrics is listed twice)
    if (reported.has(v.name)) continue
    reported.add(v.name)
    const half = heldHalf(v.name, texts, probs, gold)
    if (half.probs.length >= 50) {
      rows.push(calibrationRow(name, v.name, half, await beforeByInput(bare, texts, half)))
      halves.push(half)
    }
  }
  const pooled = pooledCalibrationRow(name, halves)
  if (pooled !== undefined) rows.push(pooled)
  bare?.dispose()
  model.dispose()
  return rows
}

/**
 * Inspec validation abstracts: how many gold keyphrases found in the text are among the noun phrases, and how many
 * phrases are gold.
 */
function phrases (info: ModelInfo): EvalRow[] {
  let found = 0
  let present = 0
  let gold = 0
  let given = 0
  let docs = 0
  for (const l of lines('keyphrase/inspec/inspec.jsonl')) {
    const r = JSON.parse(l) as { text: string; keyphrases: string[] }
    if (!isHeldOut(r.text)) continue
    docs++
    const textKey = ` ${phraseKey(r.text)} `
    const keys = new Set(nounPhrases(r.text).map(p => phraseKey(p.keyword)))
    const inText = [...new Set(r.keyphrases.map(phraseKey))].filter(k => k !== '' && textKey.includes(` ${k} `))
    present += inText.length
    found += inText.filter(k => keys.has(k)).length
    given += keys.size
    gold += [...keys].filter(k => inText.includes(k)).length
  }
  const name = `${info.name} v${info.version}`
  const dataset = `Inspec validation abstracts (hash 1/5, ${docs})`
  return [
    {
      model: name,
      dataset,
      metric: 'recall of gold keyphrases that occur in the text (stems)',
      value: found / present
    },
    { model: name, dataset, metric: 'share of phrases that are gold keyphrases (stems)', value: gold / given }
  ]
}

async function nsfw (info: ModelInfo, tf: TF): Promise<EvalRow[]> {
  const files: string[] = []
  const walk = (d: string) => {
    for (const f of readdirSync(d)) {
      const p = join(d, f)
      if (statSync(p).isDirectory()) walk(p)
      else if (/\.(jpe?g|png)$/i.test(f)) files.push(p)
    }
  }
  walk(join(DATASETS, 'images'))
  let safe = 0
  for (const f of files) {
    const r = await classifyNsfw(tf, await decodeImage(readFileSync(f), 40_000_000, 1024))
    if (r.output === 'safe to open at work') safe++
  }
  return [
    {
      model: `${info.name} v${info.version}`,
      dataset: `ordinary photos: images/ (COCO, ImageNet sample, FER faces; ${files.length})`,
      metric: 'share called safe to open at work',
      value: safe / files.length,
      baseline: 'target 0.97'
    }
  ]
}

export async function evaluate (info: ModelInfo, tf: TF, log: (s: string) => void): Promise<EvalRow[]> {
  log(`${info.name}: evaluating`)
  switch (info.name) {
    case 'abuse':
      return classifier(info, tf, (await import('../training/specs/abuse.js')).ABUSE)
    case 'target_sentiment':
      return classifier(info, tf, (await import('../training/recipes/target_sentiment.js')).TARGET_SENTIMENT)
    case 'phrase_extractor':
      return phrases(info)
    case 'nsfw':
      return nsfw(info, tf)
    case 'custom_classifier':
      return (await zeroShotAccuracy()).flatMap(r => [
        {
          model: `${info.name} v${info.version}`,
          dataset: r.set,
          metric: 'top-1 accuracy, label names only',
          value: r.names,
          baseline: r.target
        },
        {
          model: `${info.name} v${info.version}`,
          dataset: r.set,
          metric: 'top-1 accuracy, names + keywords',
          value: r.keywords
        }
      ])
    default:
      return []
  }
}
