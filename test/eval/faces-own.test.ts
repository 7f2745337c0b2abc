// The project's own labelled faces for facial_emotion (eval/data/faces-own.csv) and how npm run eval
// reads them: every row names a known source, a pinned commit and a FER-2013 label; the answer for a
// face is the found face overlapping its box.
import t from 'tap'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { answerFor, iou, ownFaceFile, readOwnFaces } from '../../eval/faces-own.js'
import type { FaceResult } from '../../lib/image/types.js'

const csv = readFileSync(join(import.meta.dirname, '..', '..', 'eval', 'data', 'faces-own.csv'), 'utf8')

t.test('faces-own.csv: sources, commits, boxes and labels', async t => {
  const faces = readOwnFaces(csv)
  t.ok(faces.length > 65, `${faces.length} faces`)
  const labels = new Set(['angry', 'disgust', 'fear', 'happy', 'neutral', 'sad', 'surprise'])
  for (const f of faces) {
    t.ok(labels.has(f.label), `${f.path}: label ${f.label}`)
    t.match(f.source, /^(github:[\w.-]+\/[\w.-]+|shared:coco128)$/, f.path)
    if (f.box !== undefined) t.ok(f.box.width > 0 && f.box.height > 0, `${f.path}: box`)
  }
  for (const line of csv.trim().split('\n').slice(1)) t.match(line.split(',')[2], /^[0-9a-f]{40}$/, 'a pinned commit')
  const keys = faces.map(f => `${f.source} ${f.path} ${f.box?.x ?? ''},${f.box?.y ?? ''}`)
  t.equal(new Set(keys).size, keys.length, 'no face twice')
  t.notOk(csv.toLowerCase().includes('fer2013'), 'nothing from FER-2013')
})

t.test('ownFaceFile: fetched images under training/data, COCO from ../shared', async t => {
  t.equal(ownFaceFile({ source: 'github:a/b', path: 'x/y.jpg', label: 'happy' }, '/f', '/s'), '/f/a+b/x/y.jpg')
  t.equal(
    ownFaceFile({ source: 'shared:coco128', path: 'images/1.jpg', label: 'happy' }, '/f', '/s'),
    '/s/coco128/images/1.jpg'
  )
  t.throws(() => ownFaceFile({ source: 'http:x', path: 'y', label: 'happy' }))
})

t.test('answerFor: the found face overlapping the labelled box, else none', async t => {
  const face = (x: number, tag: string) => ({
    box: { x, y: 0, width: 100, height: 100 },
    facial_emotion: [{ tag, score: 0.9 }]
  })
  const r: FaceResult = { facial_emotion: [{ tag: 'Happy', score: 0.9 }], faces: [face(0, 'Happy'), face(300, 'Sad')] }
  t.equal(iou({ x: 0, y: 0, width: 100, height: 100 }, { x: 50, y: 0, width: 100, height: 100 }), 1 / 3)
  t.equal(answerFor(r, { x: 310, y: 10, width: 90, height: 90 }), 'sad')
  t.equal(answerFor(r, { x: 0, y: 0, width: 100, height: 100 }), 'happy')
  t.equal(answerFor(r, { x: 700, y: 0, width: 100, height: 100 }), undefined, 'a face not found')
  t.equal(answerFor(r), 'happy', 'a face crop without a box: the answer itself')
  t.equal(answerFor({ facial_emotion: [], faces: [] }), undefined)
})
