// The project's own labelled faces for facial_emotion (eval/data/faces-own.csv): reading the list,
// where each face's image lies (fetched under training/data, or in ../shared), and which face of an
// answer a labelled face is (the found face overlapping its box best).
import { join } from 'node:path'
import type { Box, FaceResult } from '../lib/image/types.js'

/** ../shared/datasets/images: the image datasets, where the faces of a shared: source lie */
export const SHARED_IMAGES = join(import.meta.dirname, '..', '..', 'shared', 'datasets', 'images')
export const OWN_CSV = join(import.meta.dirname, 'data', 'faces-own.csv')
const OWN_FETCHED = join(import.meta.dirname, '..', 'training', 'data', 'faces-own')

/** one face of eval/data/faces-own.csv: where its image is, the face's box (none: the image is one face
 * crop), its label */
export interface OwnFace {
  source: string
  path: string
  box?: Box
  label: string
}

export function readOwnFaces (text: string): OwnFace[] {
  const [head, ...lines] = text.trim().split(/\r?\n/)
  const col = (head as string).split(',')
  return lines.map(l => {
    const v = Object.fromEntries(l.split(',').map((x, i) => [col[i], x])) as Record<string, string>
    const b = (v.box ?? '')
      .trim()
      .split(/\s+/)
      .filter(x => x !== '')
      .map(Number)
    const face: OwnFace = { source: v.source as string, path: v.path as string, label: v.label as string }
    if (b.length === 4) face.box = { x: b[0]!, y: b[1]!, width: b[2]!, height: b[3]! }
    return face
  })
}

/** file of a face's image: github:owner/name -> training/data/faces-own/owner+name/path (fetched, not in
 * git); shared:set -> ../shared */
export function ownFaceFile (f: OwnFace, fetched = OWN_FETCHED, shared = SHARED_IMAGES): string {
  if (f.source.startsWith('github:')) return join(fetched, f.source.slice(7).replace('/', '+'), f.path)
  if (f.source.startsWith('shared:')) return join(shared, f.source.slice(7), f.path)
  throw new Error(`faces-own.csv: unknown source ${f.source}`)
}

export function iou (a: Box, b: Box): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y)
  const inter = w > 0 && h > 0 ? w * h : 0
  return inter === 0 ? 0 : inter / (a.width * a.height + b.width * b.height - inter)
}

/** the answer's emotion for a labelled face: the found face overlapping its box best (IoU >= 0.3),
 * or for a face crop without a box the answer's top-level emotion (the largest face), as for FER */
export function answerFor (r: FaceResult, box?: Box): string | undefined {
  if (box === undefined) return r.faces.length > 0 ? r.facial_emotion[0]?.tag.toLowerCase() : undefined
  let best: FaceResult['faces'][number] | undefined
  let bestIou = 0.3
  for (const f of r.faces) {
    const o = iou(f.box, box)
    if (o >= bestIou) {
      best = f
      bestIou = o
    }
  }
  return best?.facial_emotion[0]?.tag.toLowerCase()
}
