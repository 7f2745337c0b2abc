// Image model evaluation on ../shared/datasets/images: FER-2013 sample accuracy (overall and per
// class) for facial_emotion, then on the project's own labelled faces (eval/data/faces-own.csv) and on
// both together; COCO image-level recall@5 / precision@5 for object_recognizer, and milliseconds per
// image. Runs the same worker pipeline the service uses (decode + model).
// Run alone: node --import tsx eval/images.ts   (also called by npm run eval)
import { readFileSync, readdirSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { ImagePool } from '../lib/image/pool.js'
import { loadConfig } from '../lib/config.js'
import type { FaceResult, ObjectResult } from '../lib/image/types.js'
import { answerFor, OWN_CSV, ownFaceFile, readOwnFaces, SHARED_IMAGES, type OwnFace } from './faces-own.js'

export interface EvalRow {
  model: string
  dataset: string
  metric: string
  value: number
  baseline?: string
}

const DATA = SHARED_IMAGES

/** the line saying how many labelled faces have no image here, per source */
function skippedFaces (own: OwnFace[], present: OwnFace[]): string {
  const bySource = new Map<string, number>()
  for (const f of own) if (!present.includes(f)) bySource.set(f.source, (bySource.get(f.source) ?? 0) + 1)
  const skipped = [...bySource].map(([s, n]) => `${s} ${n}`).join(', ')
  return (
    `faces-own: ${own.length - present.length} of ${own.length} labelled faces skipped, ` +
    `their images absent (${skipped}); training/DATA.md says how to fetch them`
  )
}

/** accuracy and faces found on the project's own labelled faces (one annotator; never used to tune:
 * docs/models/facial_emotion.md), alone and together with the FER sample (`fer`: its counts) */
async function evaluateOwnFaces (
  pool: ImagePool,
  fer: { ok: number; found: number; n: number },
  log: (s: string) => void
): Promise<EvalRow[]> {
  const rows: EvalRow[] = []
  const own = readOwnFaces(readFileSync(OWN_CSV, 'utf8'))
  const present = own.filter(f => existsSync(ownFaceFile(f)))
  if (present.length < own.length) log(skippedFaces(own, present))
  if (present.length === 0) return rows
  const results = new Map<string, FaceResult>()
  const perOwn = new Map<string, { ok: number; n: number }>()
  let okOwn = 0
  let foundOwn = 0
  // photos (a face box given) apart from face crops (the image is the face, as in FER)
  const kind = { photos: { ok: 0, n: 0 }, 'face crops': { ok: 0, n: 0 } }
  for (const f of present) {
    const file = ownFaceFile(f)
    let r = results.get(file)
    if (r === undefined) {
      r = (await pool.run('facial_emotion', readFileSync(file))) as FaceResult
      results.set(file, r)
    }
    const tag = answerFor(r, f.box)
    const p = perOwn.get(f.label) ?? { ok: 0, n: 0 }
    p.n++
    if (tag !== undefined) foundOwn++
    const k = kind[f.box === undefined ? 'face crops' : 'photos']
    k.n++
    if (tag === f.label) {
      okOwn++
      p.ok++
      k.ok++
    }
    perOwn.set(f.label, p)
  }
  const n = present.length
  const name = `own labelled faces (${n}${n < own.length ? ` of ${own.length}` : ''})`
  const meanClass = [...perOwn.values()].reduce((a, p) => a + p.ok / p.n, 0) / perOwn.size
  rows.push({ model: 'facial_emotion', dataset: name, metric: 'accuracy', value: okOwn / n })
  rows.push({ model: 'facial_emotion', dataset: name, metric: 'faces found', value: foundOwn / n })
  rows.push({
    model: 'facial_emotion',
    dataset: name,
    metric: `mean of per-class accuracy (${perOwn.size} classes)`,
    value: meanClass
  })
  for (const [label, p] of [...perOwn].sort()) {
    rows.push({
      model: 'facial_emotion',
      dataset: 'own labelled faces',
      metric: `accuracy ${label} (${p.n})`,
      value: p.ok / p.n
    })
  }
  for (const [k, p] of Object.entries(kind)) {
    if (p.n > 0) {
      rows.push({
        model: 'facial_emotion',
        dataset: 'own labelled faces',
        metric: `accuracy on ${k} (${p.n})`,
        value: p.ok / p.n
      })
    }
  }
  const both = `fer2013 sample + own faces (${fer.n + n})`
  rows.push({ model: 'facial_emotion', dataset: both, metric: 'accuracy', value: (fer.ok + okOwn) / (fer.n + n) })
  rows.push({
    model: 'facial_emotion',
    dataset: both,
    metric: 'faces found',
    value: (fer.found + foundOwn) / (fer.n + n)
  })
  return rows
}

/** facial_emotion on the FER-2013 sample (48x48 grey face crops, labels.csv: file,label): accuracy
 * overall and per class, faces found, ms per image; `counts` for the rows of both sets together */
async function evaluateFer (
  pool: ImagePool
): Promise<{ rows: EvalRow[]; counts: { ok: number; found: number; n: number } }> {
  const rows: EvalRow[] = []
  const fer = join(DATA, 'fer2013-privatetest-sample')
  const items = readFileSync(join(fer, 'labels.csv'), 'utf8')
    .trim()
    .split(/\r?\n/)
    .slice(1)
    .map(l => l.split(',') as [string, string])
  const per = new Map<string, { ok: number; n: number }>()
  let ok = 0
  let found = 0
  let ms = 0
  for (const [file, label] of items) {
    const t0 = performance.now()
    const r = (await pool.run('facial_emotion', readFileSync(join(fer, file)))) as FaceResult
    ms += performance.now() - t0
    const p = per.get(label) ?? { ok: 0, n: 0 }
    p.n++
    if (r.faces.length > 0) found++
    if (r.facial_emotion[0]?.tag.toLowerCase() === label.toLowerCase()) {
      ok++
      p.ok++
    }
    per.set(label, p)
  }
  rows.push({
    model: 'facial_emotion',
    dataset: `fer2013 sample (${items.length})`,
    metric: 'accuracy',
    value: ok / items.length,
    baseline: '>= 0.50 wanted; library defaults 0.41 (held-out); face-api whole crop 0.60'
  })
  rows.push({
    model: 'facial_emotion',
    dataset: `fer2013 sample (${items.length})`,
    metric: 'faces found',
    value: found / items.length
  })
  for (const [label, p] of [...per].sort()) {
    rows.push({
      model: 'facial_emotion',
      dataset: 'fer2013 sample',
      metric: `accuracy ${label} (${p.n})`,
      value: p.ok / p.n
    })
  }
  rows.push({
    model: 'facial_emotion',
    dataset: 'fer2013 sample',
    metric: 'ms per image (48 px)',
    value: ms / items.length
  })
  return { rows, counts: { ok, found, n: items.length } }
}

/** object_recognizer on COCO128: image-level recall@5, precision@5, precision of the returned labels, ms per
 * image */
async function evaluateCoco (pool: ImagePool): Promise<EvalRow[]> {
  const rows: EvalRow[] = []
  // COCO: ground truth = the distinct category names of an image's annotations
  const coco = join(DATA, 'coco128')
  const inst = JSON.parse(readFileSync(join(coco, 'instances.json'), 'utf8')) as {
    images: Array<{ id: number; file_name: string }>
    annotations: Array<{ image_id: number; category_id: number }>
    categories: Array<{ id: number; name: string }>
  }
  const cat = new Map(inst.categories.map(c => [c.id, c.name]))
  const truth = new Map<number, Set<string>>()
  for (const a of inst.annotations) {
    const s = truth.get(a.image_id) ?? new Set<string>()
    s.add(cat.get(a.category_id) as string)
    truth.set(a.image_id, s)
  }
  const files = new Set(readdirSync(join(coco, 'images')))
  let recall = 0
  let precK = 0
  let precReturned = 0
  let n = 0
  let ms = 0
  for (const img of inst.images) {
    const gt = truth.get(img.id)
    if (gt === undefined || gt.size === 0 || !files.has(img.file_name)) continue
    const t0 = performance.now()
    const image = readFileSync(join(coco, 'images', img.file_name))
    const r = (await pool.run('object_recognizer', image)) as ObjectResult
    ms += performance.now() - t0
    const tags = r.output.map(o => o.tag)
    const hit = tags.filter(t => gt.has(t)).length
    recall += hit / gt.size
    precK += hit / 5
    precReturned += tags.length === 0 ? 0 : hit / tags.length
    n++
  }
  rows.push({
    model: 'object_recognizer',
    dataset: `coco128 (${n} images)`,
    metric: 'image-level recall@5',
    value: recall / n,
    baseline: 'CenterNet as the library ships it: 0.74 (held-out)'
  })
  rows.push({
    model: 'object_recognizer',
    dataset: `coco128 (${n} images)`,
    metric: 'precision@5 (hits / 5)',
    value: precK / n
  })
  rows.push({
    model: 'object_recognizer',
    dataset: `coco128 (${n} images)`,
    metric: 'precision of returned labels',
    value: precReturned / n
  })
  rows.push({ model: 'object_recognizer', dataset: 'coco128', metric: 'ms per image (640 px)', value: ms / n })
  return rows
}

export async function evaluateImages (log: (s: string) => void = () => {}): Promise<EvalRow[]> {
  const rows: EvalRow[] = []
  if (!existsSync(DATA)) {
    log(`no image datasets at ${DATA}`)
    return rows
  }
  // FACIAL_EMOTION_CROP=detector measures the opt-in crop (docs/configuration.md)
  const pool = new ImagePool({
    size: 1,
    maxPixels: 50_000_000,
    maxSide: 1024,
    objectTop: 5,
    maxQueue: 1000,
    faceCrop: loadConfig().facialEmotionCrop
  })
  await pool.start()
  try {
    const fer = await evaluateFer(pool)
    rows.push(...fer.rows)
    rows.push(...(await evaluateOwnFaces(pool, fer.counts, log)))
    rows.push(...(await evaluateCoco(pool)))
  } finally {
    await pool.close()
  }
  return rows
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await evaluateImages(console.log)
  for (const r of rows) console.log([r.model, r.dataset, r.metric, r.value.toFixed(3), r.baseline ?? ''].join(' | '))
}
