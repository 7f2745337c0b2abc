// The serving side of the keyphrase ranker (manifest kind keyword-ranker): noun-phrase candidates
// with features computed in TypeScript (lib/text/keywords/features.ts, the same code training used)
// and a small dense TF.js network that scores them. Texts are read up to MAX_CHARS characters.
// English only: the other languages are lib/text/heads/keyphrases.ts's.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Tensor } from '@tensorflow/tfjs'
import type { LoadedModel, ModelLoader } from '../../serving/loaded-model.js'
import { fileIO } from '../../runtime/tf-io.js'
import { analyse, MAX_CHARS, type Analysed } from './candidates.js'
import { featurise, FEATURES, rankCandidates, type KeywordTables } from './features.js'
import { getNlp } from './tokens.js'

export interface Keyword {
  keyword: string
  confidence_score: number
}
export interface KeywordInput {
  text: string
  lang: string
}

interface Config {
  features: string[]
  mean: number[]
  std: number[]
  tables: KeywordTables
}

export const TOP = 10
// Candidate analysis is synchronous; a long batch hands the event loop back after this many
// characters of text, so other requests are not held up behind it.
const YIELD_CHARS = 10_000
// rows of one tensor batch: the wasm backend's dense layers slow down per row on large tensors
// (100 texts of 7,000 characters, 32,773 rows: 1.5 s in batches of 32,768, 0.24 s in batches of 1,024)
const MAX_ROWS = 1_024

const pause = () => new Promise<void>(resolve => setImmediate(resolve))

export const loadKeywords: ModelLoader = async (dir, manifest, tf) => {
  const cfg = JSON.parse(await readFile(join(dir, 'keywords.json'), 'utf8')) as Config
  if (cfg.features.join('|') !== FEATURES.join('|')) {
    throw new Error('keywords.json was trained with other features than lib/text/keywords/features.ts computes')
  }
  const model = await tf.loadLayersModel(fileIO(join(dir, 'model.json')))
  getNlp()
  const F = FEATURES.length

  const scoreRows = async (rows: Float32Array[]): Promise<Float32Array> => {
    const out = new Float32Array(rows.length)
    for (let start = 0; start < rows.length; start += MAX_ROWS) {
      const part = rows.slice(start, start + MAX_ROWS)
      const x = new Float32Array(part.length * F)
      part.forEach((r, i) => {
        for (let j = 0; j < F; j++) x[i * F + j] = ((r[j] as number) - (cfg.mean[j] as number)) / (cfg.std[j] as number)
      })
      const y = tf.tidy(() => model.predict(tf.tensor2d(x, [part.length, F])) as Tensor)
      out.set((await y.data()) as Float32Array, start)
      y.dispose()
      await pause()
    }
    return out
  }

  const predict = async (inputs: KeywordInput[]): Promise<Keyword[][]> => {
    const docs: Array<{ a: Analysed; from: number }> = []
    const rows: Float32Array[] = []
    let read = 0
    for (const { text } of inputs) {
      const a = analyse(text)
      docs.push({ a, from: rows.length })
      rows.push(...featurise(a, cfg.tables))
      read += Math.min(text.length, MAX_CHARS)
      if (read >= YIELD_CHARS) {
        read = 0
        await pause()
      }
    }
    const scores = rows.length === 0 ? new Float32Array(0) : await scoreRows(rows)
    return docs.map(({ a, from }) => {
      const seen = new Set<string>()
      const out: Keyword[] = []
      for (const { candidate, score } of rankCandidates(a, scores.subarray(from, from + a.candidates.length))) {
        // keys are unique, but two could still print alike after case folding
        const shown = candidate.surface.toLowerCase()
        if (seen.has(shown)) continue
        seen.add(shown)
        out.push({ keyword: candidate.surface, confidence_score: Math.min(1, Math.max(0, Number(score.toFixed(4)))) })
        if (out.length === TOP) break
      }
      return out
    })
  }

  const loaded: LoadedModel<KeywordInput, Keyword[]> = {
    manifest,
    predict,
    warm: async () => {
      await predict([{ text: 'Neural networks for image classification.', lang: 'en' }])
    },
    dispose: () => {
      model.dispose()
    }
  }
  return loaded
}
