// The abuse rows as the word-order trainer (training/trainers/text_cnn.py) reads them: every text's
// hashed n-gram ids (lib/text/bag/features.ts) and token ids (lib/text/cnn/tokens.ts), computed by the
// serving code itself so that training sees what serving will. Written to a folder of binary files:
//   meta.json   sets (name, rows), configs
//   rows.bin    int32 per row: set, label (1 Abusive), held-out fifth (1), n-gram count, token count
//   bag.bin     int32 n-gram ids, row after row;  seq.bin  int32 token ids, row after row
//   weight.bin  float32 per row, only when some row has a weight (rows of training/trainers/mix.ts weighDomains)
//   vec.bin     float32 per row, the text's word-vector input (lib/text/bag/sentence-input.ts), only when
//               `mean` names its features (meta.json's vecDim numbers a row)
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { featureIds, type FeatureConfig } from '../../lib/text/bag/features.js'
import { sequenceIds, type SequenceConfig } from '../../lib/text/cnn/tokens.js'
import type { WordVectors } from '../../lib/text/words/vectors.js'
import type { CnnWeightsJson } from '../../lib/text/cnn/classifier.js'
import { inputDim, sentenceInput } from '../../lib/text/bag/sentence-input.js'
import { isHeldOut, type Labelled } from '../readers/data.js'

export interface ExportSet {
  name: string
  rows: Array<Labelled & { weight?: number }>
}

/** `positive`: the label written as 1 (every other label is 0), or the labels of a model of several, written as
 * their index (-1 for a label not among them: no label fits); `mean`: also write each text's word-vector input */
export async function exportRows (
  dir: string,
  sets: ExportSet[],
  bag: FeatureConfig,
  seq: SequenceConfig,
  vectors: WordVectors,
  positive: string | string[] = 'Abusive',
  mean?: FeatureConfig
): Promise<void> {
  await mkdir(dir, { recursive: true })
  const total = sets.reduce((n, s) => n + s.rows.length, 0)
  const rows = new Int32Array(total * 5)
  const bagIds: number[] = []
  const seqIds: number[] = []
  const b = new Int32Array(Math.max(1, bag.maxFeatures))
  const q = new Int32Array(Math.max(1, seq.maxTokens))
  const labelOf = (label: string) =>
    typeof positive === 'string' ? (label === positive ? 1 : 0) : positive.indexOf(label)
  const vecDim = mean === undefined ? 0 : inputDim(mean, vectors)
  const vec = new Float32Array(total * vecDim)
  let i = 0
  sets.forEach((set, s) => {
    for (const r of set.rows) {
      const nb = featureIds(r.text, bag, b)
      const nq = sequenceIds(r.text, seq, vectors.row, vectors.size, q)
      for (let k = 0; k < nb; k++) bagIds.push(b[k] as number)
      for (let k = 0; k < nq; k++) seqIds.push(q[k] as number)
      rows.set([s, labelOf(r.label), isHeldOut(r.text) ? 1 : 0, nb, nq], i * 5)
      if (mean !== undefined) sentenceInput(r.text, mean, vectors, vec.subarray(i * vecDim, (i + 1) * vecDim))
      i++
    }
  })
  await writeFile(join(dir, 'rows.bin'), rows)
  if (sets.some(set => set.rows.some(r => r.weight !== undefined))) {
    await writeFile(join(dir, 'weight.bin'), Float32Array.from(sets.flatMap(set => set.rows.map(r => r.weight ?? 1))))
  }
  if (mean !== undefined) await writeFile(join(dir, 'vec.bin'), vec)
  await writeFile(join(dir, 'bag.bin'), Int32Array.from(bagIds))
  await writeFile(join(dir, 'seq.bin'), Int32Array.from(seqIds))
  await writeFile(
    join(dir, 'meta.json'),
    JSON.stringify(
      {
        sets: sets.map(s => ({ name: s.name, rows: s.rows.length })),
        bag,
        seq,
        vocab: vectors.size,
        vdim: vectors.dim,
        ...(mean !== undefined ? { vecDim } : {})
      },
      null,
      2
    ) + '\n'
  )
}

/**
 * The trainer's weights (weights.json's tensors, weights.bin) with some tensors replaced: `rewrite` gets each
 * tensor and its bytes and returns its replacement, or undefined to keep it as trained.
 */
export function rewriteTensors (
  bytes: Buffer,
  trained: CnnWeightsJson['tensors'],
  rewrite: (
    t: CnnWeightsJson['tensors'][number],
    raw: Buffer
  ) => { raw: Buffer; tensor: CnnWeightsJson['tensors'][number] } | undefined
): { bin: Buffer; tensors: CnnWeightsJson['tensors'] } {
  const parts: Buffer[] = []
  const tensors: CnnWeightsJson['tensors'] = []
  let at = 0
  for (const t of trained) {
    const size = t.shape.reduce((a, b) => a * b, 1) * (t.dtype === 'float16' ? 2 : 4)
    const raw = bytes.subarray(at, at + size)
    at += size
    const out = rewrite(t, raw) ?? { raw, tensor: t }
    parts.push(out.raw)
    tensors.push(out.tensor)
  }
  return { bin: Buffer.concat(parts), tensors }
}

/**
 * The trainer's weights with its one-logit served head turned into the served model's two-label output
 * layer: logits [bias[0], z / temperature + bias[1]] for the served head's logit z, so that the softmax
 * gives the second label sigmoid(z / temperature + bias[1] - bias[0]) (a threshold: bias[1] minus its
 * logit). The other tensors are kept as trained.
 */
export function twoLabelOutput (
  bytes: Buffer,
  trained: CnnWeightsJson['tensors'],
  temperature: number,
  bias: [number, number]
): { bin: Buffer; tensors: CnnWeightsJson['tensors'] } {
  return rewriteTensors(bytes, trained, (t, raw) => {
    if (t.name === 'out.kernel') {
      // the served head is the first row; the first label's row is zeros
      const width = t.shape[1] as number
      const k = new Float32Array(2 * width)
      for (let d = 0; d < width; d++) k[width + d] = raw.readFloatLE(4 * d) / temperature
      return { raw: Buffer.from(k.buffer), tensor: { ...t, shape: [2, width] } }
    }
    if (t.name === 'out.bias') {
      return {
        raw: Buffer.from(new Float32Array([bias[0], raw.readFloatLE(0) / temperature + bias[1]]).buffer),
        tensor: { ...t, shape: [2] }
      }
    }
    return undefined
  })
}

/** The trainer's weights with the output layer's logits divided by `temperature` and shifted by a bias per label. */
export function withTemperatureOutput (
  bytes: Buffer,
  trained: CnnWeightsJson['tensors'],
  temperature: number,
  bias: number[]
): Buffer {
  return rewriteTensors(bytes, trained, (t, raw) => {
    if (t.name !== 'out.kernel' && t.name !== 'out.bias') return undefined
    const f = Float32Array.from(
      { length: raw.length / 4 },
      (_, i) => raw.readFloatLE(4 * i) / temperature + (t.name === 'out.bias' ? (bias[i] as number) : 0)
    )
    return { raw: Buffer.from(f.buffer), tensor: t }
  }).bin
}
