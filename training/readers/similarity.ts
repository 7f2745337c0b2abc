// STS Benchmark (multilingual, stsb-multi-mt) readers and the rank correlation the task reports;
// shared by training/heads/similarity.ts and eval/similarity.ts.
import { lines } from './data.js'

export interface Pair {
  a: string
  b: string
  score: number
}

export const STS_DIR = 'sts/stsb-multi-mt'
export const STS_LICENCE =
  'scores CC BY-SA 4.0; sentence texts keep their source licences ' +
  '(MSRpar/MSRvid: Microsoft Research terms; headlines: EMM; answers-*: CC BY-SA 3.0; ...)'

/** Splits one CSV line (no header): quoted fields may hold commas and doubled quotes. */
export function csvFields (line: string): string[] {
  const out: string[] = []
  let cur = ''
  let quoted = false
  for (let i = 0; i < line.length; i++) {
    const c = line[i]
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cur += '"'
        i++
      } else if (c === '"') quoted = false
      else cur += c
    } else if (c === '"') quoted = true
    else if (c === ',') {
      out.push(cur)
      cur = ''
    } else cur += c
  }
  out.push(cur)
  return out
}

/** split: train or dev (the test split is held back). */
export function stsPairs (lang: string, split: 'train' | 'dev'): Pair[] {
  return lines(`${STS_DIR}/stsb-${lang}-${split}.csv`).map(l => {
    const f = csvFields(l)
    if (f.length !== 3) throw new Error(`stsb-${lang}-${split}.csv: expected 3 fields in ${JSON.stringify(l)}`)
    return { a: f[0] as string, b: f[1] as string, score: Number(f[2]) }
  })
}

function ranks (xs: number[]): number[] {
  const order = xs.map((x, i) => [x, i] as const).sort((p, q) => p[0] - q[0])
  const r = new Array<number>(xs.length)
  for (let i = 0; i < order.length;) {
    let j = i
    while (j + 1 < order.length && order[j + 1]![0] === order[i]![0]) j++
    for (let k = i; k <= j; k++) r[order[k]![1]] = (i + j) / 2 + 1
    i = j + 1
  }
  return r
}

function pearson (x: number[], y: number[]): number {
  const n = x.length
  const mx = x.reduce((a, b) => a + b, 0) / n
  const my = y.reduce((a, b) => a + b, 0) / n
  let sxy = 0
  let sxx = 0
  let syy = 0
  for (let i = 0; i < n; i++) {
    const dx = x[i]! - mx
    const dy = y[i]! - my
    sxy += dx * dy
    sxx += dx * dx
    syy += dy * dy
  }
  return sxx === 0 || syy === 0 ? 0 : sxy / Math.sqrt(sxx * syy)
}

/** Spearman's rho with average ranks for ties. */
export function spearman (x: number[], y: number[]): number {
  return pearson(ranks(x), ranks(y))
}

/** how far below the network alone the combined dev Spearman may fall (chooseSifWeight) */
export const SIF_SLACK = 0.02

/**
 * The weight of the SIF cosine in the served noisy-OR (combineSif in lib/text/similarity.ts): the
 * largest on a 0.1 grid whose dev Spearman stays within SIF_SLACK of the network alone. STS
 * Benchmark rewards shared words (its pairs without one are seldom alike), so Spearman alone would
 * pick 0 and leave a paraphrase in other words ("a kitten sits on a rug") near 0; the slack buys
 * word meaning at a bounded cost in ranking.
 */
export function chooseSifWeight (
  net: number[],
  sif: number[],
  gold: number[],
  combine: (n: number, s: number, w: number) => number
): { weight: number; rho: number; netRho: number; sifRho: number } {
  const netRho = spearman(net, gold)
  let weight = 0
  let rho = netRho
  for (let k = 1; k <= 10; k++) {
    const w = k / 10
    const r = spearman(
      net.map((n, i) => combine(n, sif[i] as number, w)),
      gold
    )
    if (r >= netRho - SIF_SLACK) {
      weight = w
      rho = r
    }
  }
  return { weight, rho, netRho, sifRho: spearman(sif, gold) }
}
