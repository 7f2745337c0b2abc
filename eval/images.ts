// Image model evaluation on ../shared/datasets/images: FER-2013 sample accuracy (overall and per
// class) for facial_emotion, COCO image-level recall@5 / precision@5 for object_recognizer, and
// milliseconds per image. Runs the same worker pipeline the service uses (decode + model).
// Run alone: node --import tsx eval/images.ts   (also called by npm run eval)
import { readFileSync, readdirSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { ImagePool } from '../lib/image/pool.js'
import type { FaceResult, ObjectResult } from '../lib/image/types.js'

export interface EvalRow { model: string, dataset: string, metric: string, value: number, baseline?: string }

const DATA = join(import.meta.dirname, '..', '..', 'shared', 'datasets', 'images')

export async function evaluateImages (log: (s: string) => void = () => {}): Promise<EvalRow[]> {
  const rows: EvalRow[] = []
  if (!existsSync(DATA)) { log(`no image datasets at ${DATA}`); return rows }
  const pool = new ImagePool({ size: 1, maxPixels: 50_000_000, maxSide: 1024, objectTop: 5, maxQueue: 1000 })
  await pool.start()
  try {
    // FER: 48x48 grey face crops, labels.csv: file,label
    const fer = join(DATA, 'fer2013-privatetest-sample')
    const items = readFileSync(join(fer, 'labels.csv'), 'utf8').trim().split(/\r?\n/).slice(1).map((l) => l.split(',') as [string, string])
    const per = new Map<string, { ok: number, n: number }>()
    let ok = 0; let found = 0; let ms = 0
    for (const [file, label] of items) {
      const t0 = performance.now()
      const r = await pool.run('facial_emotion', readFileSync(join(fer, file))) as FaceResult
      ms += performance.now() - t0
      const p = per.get(label) ?? { ok: 0, n: 0 }
      p.n++
      if (r.faces.length > 0) found++
      if (r.facial_emotion[0]?.tag.toLowerCase() === label.toLowerCase()) { ok++; p.ok++ }
      per.set(label, p)
    }
    rows.push({ model: 'facial_emotion', dataset: `fer2013 sample (${items.length})`, metric: 'accuracy', value: ok / items.length, baseline: '>= 0.50 wanted; library defaults 0.41 (held-out); face-api whole crop 0.60' })
    rows.push({ model: 'facial_emotion', dataset: `fer2013 sample (${items.length})`, metric: 'faces found', value: found / items.length })
    for (const [label, p] of [...per].sort()) rows.push({ model: 'facial_emotion', dataset: 'fer2013 sample', metric: `accuracy ${label} (${p.n})`, value: p.ok / p.n })
    rows.push({ model: 'facial_emotion', dataset: 'fer2013 sample', metric: 'ms per image (48 px)', value: ms / items.length })

    // COCO: ground truth = the distinct category names of an image's annotations
    const coco = join(DATA, 'coco128')
    const inst = JSON.parse(readFileSync(join(coco, 'instances.json'), 'utf8')) as { images: Array<{ id: number, file_name: string }>, annotations: Array<{ image_id: number, category_id: number }>, categories: Array<{ id: number, name: string }> }
    const cat = new Map(inst.categories.map((c) => [c.id, c.name]))
    const truth = new Map<number, Set<string>>()
    for (const a of inst.annotations) {
      const s = truth.get(a.image_id) ?? new Set<string>()
      s.add(cat.get(a.category_id) as string)
      truth.set(a.image_id, s)
    }
    const files = new Set(readdirSync(join(coco, 'images')))
    let recall = 0; let precK = 0; let precReturned = 0; let n = 0; ms = 0
    for (const img of inst.images) {
      const gt = truth.get(img.id)
      if (gt === undefined || gt.size === 0 || !files.has(img.file_name)) continue
      const t0 = performance.now()
      const r = await pool.run('object_recognizer', readFileSync(join(coco, 'images', img.file_name))) as ObjectResult
      ms += performance.now() - t0
      const tags = r.output.map((o) => o.tag)
      const hit = tags.filter((t) => gt.has(t)).length
      recall += hit / gt.size
      precK += hit / 5
      precReturned += tags.length === 0 ? 0 : hit / tags.length
      n++
    }
    rows.push({ model: 'object_recognizer', dataset: `coco128 (${n} images)`, metric: 'image-level recall@5', value: recall / n, baseline: 'CenterNet as the library ships it: 0.74 (held-out)' })
    rows.push({ model: 'object_recognizer', dataset: `coco128 (${n} images)`, metric: 'precision@5 (hits / 5)', value: precK / n })
    rows.push({ model: 'object_recognizer', dataset: `coco128 (${n} images)`, metric: 'precision of returned labels', value: precReturned / n })
    rows.push({ model: 'object_recognizer', dataset: 'coco128', metric: 'ms per image (640 px)', value: ms / n })
  } finally {
    await pool.close()
  }
  return rows
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await evaluateImages(console.log)
  for (const r of rows) console.log([r.model, r.dataset, r.metric, r.value.toFixed(3), r.baseline ?? ''].join(' | '))
}
