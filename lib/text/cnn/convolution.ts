// The convolution of the word-order classifier (lib/text/cnn/classifier.ts) over a text's tokens: one
// filter bank per width, ReLU, the maximum over positions. It is computed per token first: every
// token's vector times one [dim x (filters x sum of widths)] matrix gives what it adds to each window
// it is in, and a window's value is the sum of its tokens' parts.
// It keeps the per-token parts of the CACHED_WORDS most frequent words and of RARE_SLOTS other tokens
// (lib/text/cnn/inputs.ts): at most 4 x (CACHED_WORDS + RARE_SLOTS + maxTokens) x filters x (sum of
// widths) bytes, touched only as tokens arrive.
import type { WordVectors } from '../words/vectors.js'
import { sequenceIds } from './tokens.js'
import { CACHED_WORDS, RARE_SLOTS, tokenInput, type CnnGetter, type CnnPart } from './inputs.js'
import type { CnnWeightsJson } from './weights-json.js'

/** the convolution over the text's tokens: per width, each filter's largest ReLU output over the windows */
export function convPart (cfg: CnnWeightsJson, get: CnnGetter, vectors: WordVectors): { width: number; run: CnnPart } {
  const { filters: F, widths, sequence: seq } = cfg
  const input = tokenInput(cfg, get, vectors)
  const { M, bias, offsets, C } = convMatrix(cfg, get, input.width)
  const maxTokens = Math.max(1, seq.maxTokens)
  const { parts, place } = tokenParts(input, M, C, Math.min(CACHED_WORDS, vectors.size), maxTokens)
  // buffers reused by every text (a forward pass is synchronous): token ids, where each token's parts start
  const tokens = new Int32Array(maxTokens)
  const from = new Int32Array(maxTokens)
  const z = new Float64Array(F)
  return {
    width: widths.length * F,
    run: (text, h, at) => {
      const n = sequenceIds(text, seq, vectors.row, vectors.size, tokens)
      const Fc = F
      const P = parts
      const Z = z
      const Bc = bias
      const From = from
      place(tokens, n, From)
      for (let w = 0; w < widths.length; w++) {
        const k = widths[w] as number
        const out = at + w * Fc
        const off = offsets[w] as number
        // the maximum of ReLU outputs: 0 when every window is negative
        for (let f = 0; f < Fc; f++) h[out + f] = 0
        // windows t = 0 .. max(n - k, 0); tokens past the text's end are zero vectors
        const windows = Math.max(n - k, 0) + 1
        for (let t = 0; t < windows; t++) {
          for (let f = 0; f < Fc; f++) Z[f] = Bc[w * Fc + f] as number
          const last = Math.min(k, n - t)
          for (let j = 0; j < last; j++) {
            const base = (From[t + j] as number) + off + j * Fc
            for (let f = 0; f < Fc; f++) Z[f] = (Z[f] as number) + (P[base + f] as number)
          }
          for (let f = 0; f < Fc; f++) if ((Z[f] as number) > (h[out + f] as number)) h[out + f] = Z[f] as number
        }
      }
    }
  }
}

/** The filter banks as one matrix M of C rows of R and their biases; `offsets[w]`: width w's first row. */
function convMatrix (
  cfg: CnnWeightsJson,
  get: CnnGetter,
  R: number
): { M: Float32Array; bias: Float32Array; offsets: number[]; C: number } {
  const { filters: F, widths } = cfg
  // M[c][r]: row c = (width w, offset j, filter f), what a token at offset j of a window adds to filter f
  const offsets: number[] = []
  let C = 0
  for (const k of widths) {
    offsets.push(C)
    C += k * F
  }
  const M = new Float32Array(R * C)
  const bias = new Float32Array(widths.length * F)
  widths.forEach((k, w) => {
    const kernel = get(`conv${k}.kernel`, 'float32')
    if (kernel.shape.join() !== [F, R, k].join()) {
      throw new Error(`conv${k}.kernel is ${kernel.shape.join(' x ')}, not ${F} x ${R} x ${k}`)
    }
    const b = get(`conv${k}.bias`, 'float32').values
    for (let f = 0; f < F; f++) {
      bias[w * F + f] = b[f] as number
      for (let r = 0; r < R; r++) {
        for (let j = 0; j < k; j++) {
          M[((offsets[w] as number) + j * F + f) * R + r] = kernel.values[(f * R + r) * k + j] as number
        }
      }
    }
  })
  return { M, bias, offsets, C }
}

/**
 * The per-token parts (C values each: the token's input times M) and `place`, which finds where each
 * of a text's tokens has its parts in `parts` (from[t]), computing those not kept.
 */
function tokenParts (
  input: { width: number; of: (id: number) => Float64Array },
  M: Float32Array,
  C: number,
  common: number,
  maxTokens: number
): { parts: Float32Array; place: (tokens: Int32Array, n: number, from: Int32Array) => void } {
  const R = input.width
  // the parts of the most frequent words (the table's first rows), each computed when a text first
  // uses it: most tokens of a text are among them, and the pages of rows never used stay unallocated.
  // Then those of every other token (rarer words, and the learned rows of tokens the table lacks:
  // punctuation, user names...), each kept in its slot (id modulo RARE_SLOTS) until another token
  // needs it: a token costs [vector dim x filters x sum of widths] multiplications when its parts are
  // computed (about 40 us here), a sum of its parts when they are kept. After them, room for the parts
  // of a text's tokens whose slot an earlier token of the same text holds, computed for each text
  // (docs/performance.md: how a thread grows with the tokens it sees).
  const slots = common + RARE_SLOTS
  const parts = new Float32Array((slots + maxTokens) * C)
  const cached = new Uint8Array(common)
  // the token whose parts each slot holds (-1: none), and the last text that read it
  const rareRow = new Int32Array(RARE_SLOTS).fill(-1)
  const rareText = new Float64Array(RARE_SLOTS).fill(-1)
  let textNo = 0
  const partsOf = (id: number, base: number) => {
    const u = input.of(id)
    const Mc = M
    const P = parts
    const Rc = R
    const Cc = C
    for (let c = 0, m = 0; c < Cc; c++) {
      let s = 0
      for (let r = 0; r < Rc; r++, m++) s += (u[r] as number) * (Mc[m] as number)
      P[base + c] = s
    }
  }
  const place = (Tk: Int32Array, n: number, From: Int32Array) => {
    const Cc = C
    const me = ++textNo
    for (let t = 0; t < n; t++) {
      const id = Tk[t] as number
      if (id >= common) {
        // a rarer word or a learned row: its slot, unless an earlier token of this text holds it for another
        const r = id % RARE_SLOTS
        if (rareRow[r] === id) {
          rareText[r] = me
          From[t] = (common + r) * Cc
          continue
        }
        if (rareText[r] === me) {
          From[t] = (slots + t) * Cc
          partsOf(id, From[t] as number)
          continue
        }
        From[t] = (common + r) * Cc
        partsOf(id, From[t] as number)
        rareRow[r] = id
        rareText[r] = me
        continue
      }
      if (cached[id] === 0) {
        partsOf(id, id * Cc)
        cached[id] = 1
      }
      From[t] = id * Cc
    }
  }
  return { parts, place }
}
