// The confidence of the NER perceptron's entities, fitted after training (training/trainers/perceptron.ts):
// the O penalty, the temperature that calibrates its token label probabilities, each predicted entity's
// confidence, and the per-type confidence thresholds below which an entity is dropped.
import { NUM_LABELS } from '../../lib/text/ner/labels.js'
import { Scratch, marginals, viterbi } from '../../lib/text/ner/decode.js'
import { emissions, prf, spans, type Encoded, type Prf, type Tagger } from './perceptron-tagger.js'

const L = NUM_LABELS

/**
 * The transitions with `penalty` taken from every move into O (and from the start into O): the same
 * as lowering each token's O score, so that Viterbi prefers entities where it was unsure (more recall;
 * the confidence thresholds then drop the weak ones). Stored in the transitions, so serving needs
 * nothing new.
 */
export function penaliseO (T: Float32Array, penalty: number): Float32Array {
  const out = Float32Array.from(T)
  for (let p = 0; p <= L; p++) out[p * L] = (out[p * L] as number) - penalty
  return out
}

/** the confidence temperatures tried: 2^(k/2) for k = -2 .. 12 */
export const TEMPERATURES = Array.from({ length: 15 }, (_, i) => 2 ** ((i - 2) / 2))

/** summed -log P(gold label) over the tokens of `data` at each of TEMPERATURES, and the token count */
export function calibrationLoss (m: Tagger, data: Encoded[]): { loss: number[]; n: number } {
  const maxN = Math.max(1, ...data.map(d => d.n))
  const E = new Float32Array(maxN * L)
  const sc = new Scratch().fit(maxN)
  const loss = TEMPERATURES.map(() => 0)
  let n = 0
  for (const [i, temp] of TEMPERATURES.entries()) {
    n = 0
    for (const d of data) {
      emissions(m.W, d.ids, d.n, E)
      const p = marginals(E, m.T, d.n, d.labels, temp, sc)
      for (let t = 0; t < d.n; t++) loss[i]! -= Math.log(Math.max(1e-9, p[t] as number))
      n += d.n
    }
  }
  return { loss, n }
}

/** the temperature of least mean loss (calibrationLoss results, summed over parts if pooled) */
export function bestTemperature (loss: number[], n: number): number {
  let best = 1
  let bestLoss = Infinity
  TEMPERATURES.forEach((temp, i) => {
    if ((loss[i] as number) / n < bestLoss) {
      bestLoss = (loss[i] as number) / n
      best = temp
    }
  })
  return best
}

/**
 * The temperature that turns perceptron scores into the best-calibrated token label probabilities:
 * minimum mean -log P(gold label) on the validation tokens, over a grid.
 */
export function fitTagTemperature (m: Tagger, data: Encoded[]): number {
  const { loss, n } = calibrationLoss(m, data)
  return bestTemperature(loss, n)
}

/** the predicted entities of `data` with their type, confidence (as served) and whether gold has them */
export interface Scored {
  spans: Array<{ type: number; conf: number; correct: boolean }>
  gold: number
}

export function scoreSpans (m: Tagger, data: Encoded[], temperature: number): Scored {
  const maxN = Math.max(1, ...data.map(d => d.n))
  const E = new Float32Array(maxN * L)
  const out = new Uint8Array(maxN)
  const sc = new Scratch().fit(maxN)
  const spansOut: Scored['spans'] = []
  let gold = 0
  for (const d of data) {
    emissions(m.W, d.ids, d.n, E)
    viterbi(E, m.T, d.n, out, sc)
    const p = marginals(E, m.T, d.n, out, temperature, sc)
    const g = new Set(spans(d.labels, d.n))
    gold += g.size
    for (const s of spans(out, d.n)) {
      const [a, b, type] = s.split(':').map(Number) as [number, number, number]
      let conf = 0
      for (let t = a; t < b; t++) conf += p[t] as number
      conf /= b - a
      spansOut.push({ type, conf, correct: g.has(s) })
    }
  }
  return { spans: spansOut, gold }
}

/** precision/recall/F1 when entities of type k below thresholds[k] are dropped */
export function applyThresholds (s: Scored, thresholds: number[]): Prf {
  let tp = 0
  let pred = 0
  for (const x of s.spans) {
    if (x.conf >= (thresholds[x.type] as number)) {
      pred++
      if (x.correct) tp++
    }
  }
  return prf(tp, pred, s.gold)
}

/**
 * Per-type confidence thresholds: an entity of type k whose confidence (mean forward-backward
 * probability of its token labels, as served) is below thresholds[k] is dropped. Out of domain the
 * perceptron over-predicts some types (German capitalised nouns as organisations), so each of
 * PER/ORG/LOC gets the grid value that maximises validation F1 (coordinate ascent, two rounds; a
 * change must gain 0.001 F1).
 */
export function pickThresholds (s: Scored, grid: number[]): { thresholds: number[]; val: Prf } {
  // tp[type][grid index], pred[type][grid index]
  const tp = [0, 1, 2].map(() => grid.map(() => 0))
  const pred = [0, 1, 2].map(() => grid.map(() => 0))
  for (const { type, conf, correct } of s.spans) {
    grid.forEach((th, i) => {
      if (conf >= th) {
        pred[type]![i]!++
        if (correct) tp[type]![i]!++
      }
    })
  }
  const pick = [0, 0, 0]
  const score = (k: number[]) =>
    prf(
      k.reduce((a, i, t) => a + (tp[t]![i] as number), 0),
      k.reduce((a, i, t) => a + (pred[t]![i] as number), 0),
      s.gold
    )
  for (let round = 0; round < 2; round++) {
    for (let t = 0; t < 3; t++) {
      for (let i = 0; i < grid.length; i++) {
        const k = [...pick]
        k[t] = i
        if (score(k).f1 > score(pick).f1 + 0.001) pick[t] = i
      }
    }
  }
  return { thresholds: pick.map(i => grid[i] as number), val: score(pick) }
}

export const fitThresholds = (
  m: Tagger,
  data: Encoded[],
  temperature: number,
  grid: number[]
): { thresholds: number[]; val: Prf } => pickThresholds(scoreSpans(m, data, temperature), grid)
