// The abuse rows as the word-order trainer (training/abuse_encoder.py) reads them: every text's
// hashed n-gram ids (lib/text/features.ts) and token ids (lib/text/cnn-tokens.ts), computed by the
// serving code itself so that training sees what serving will. Written to a folder of binary files:
//   meta.json   sets (name, rows), configs
//   rows.bin    int32 per row: set, label (1 Abusive), held-out fifth (1), n-gram count, token count
//   bag.bin     int32 n-gram ids, row after row;  seq.bin  int32 token ids, row after row
//   weight.bin  float32 per row, only when some row has a weight (rows of training/mix.ts weighDomains)
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { featureIds, type FeatureConfig } from '../lib/text/features.js'
import { sequenceIds, type SequenceConfig } from '../lib/text/cnn-tokens.js'
import type { WordVectors } from '../lib/text/word-vectors.js'
import { isHeldOut, type Labelled } from './data.js'

export interface ExportSet { name: string, rows: Array<Labelled & { weight?: number }> }

/** `positive`: the label written as 1 (every other label is 0) */
export async function exportRows (dir: string, sets: ExportSet[], bag: FeatureConfig, seq: SequenceConfig, vectors: WordVectors, positive = 'Abusive'): Promise<void> {
  await mkdir(dir, { recursive: true })
  const total = sets.reduce((n, s) => n + s.rows.length, 0)
  const rows = new Int32Array(total * 5)
  const bagIds: number[] = []
  const seqIds: number[] = []
  const b = new Int32Array(Math.max(1, bag.maxFeatures))
  const q = new Int32Array(Math.max(1, seq.maxTokens))
  let i = 0
  sets.forEach((set, s) => {
    for (const r of set.rows) {
      const nb = featureIds(r.text, bag, b)
      const nq = sequenceIds(r.text, seq, vectors.row, vectors.size, q)
      for (let k = 0; k < nb; k++) bagIds.push(b[k] as number)
      for (let k = 0; k < nq; k++) seqIds.push(q[k] as number)
      rows.set([s, r.label === positive ? 1 : 0, isHeldOut(r.text) ? 1 : 0, nb, nq], i * 5)
      i++
    }
  })
  await writeFile(join(dir, 'rows.bin'), rows)
  if (sets.some((set) => set.rows.some((r) => r.weight !== undefined))) await writeFile(join(dir, 'weight.bin'), Float32Array.from(sets.flatMap((set) => set.rows.map((r) => r.weight ?? 1))))
  await writeFile(join(dir, 'bag.bin'), Int32Array.from(bagIds))
  await writeFile(join(dir, 'seq.bin'), Int32Array.from(seqIds))
  await writeFile(join(dir, 'meta.json'), JSON.stringify({ sets: sets.map((s) => ({ name: s.name, rows: s.rows.length })), bag, seq, vocab: vectors.size, vdim: vectors.dim }, null, 2) + '\n')
}
