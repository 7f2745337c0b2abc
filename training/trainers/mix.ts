// Helpers for the cross-domain mixtures the classifiers train on, and the metrics that need scores.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Labelled } from '../readers/data.js'
import type { Row } from '../specs/op-spec.js'

export interface DomainRows {
  domain: string
  rows: Labelled[]
  /** relative weight of the domain as a whole (default 1) */ share?: number
}

/**
 * The rows of every domain, each weighted so that a domain's total weight is its share of an equal
 * split (a domain of 2,000 rows counts about as much as one of 50,000); weights are kept within
 * [1/4, 4] so that no small domain is repeated into memorisation.
 */
export function weighDomains (groups: DomainRows[]): Row[] {
  const total = groups.reduce((a, g) => a + g.rows.length, 0)
  const out: Row[] = []
  for (const g of groups) {
    if (g.rows.length === 0) continue
    const target = (total / groups.length) * (g.share ?? 1)
    const weight = Math.min(4, Math.max(0.25, target / g.rows.length))
    for (const r of g.rows) {
      out.push({ text: r.text, label: r.label, domain: g.domain, weight: Number(weight.toFixed(4)) })
    }
  }
  return out
}

/** Rows with the same normalised text once (the first label wins). */
export function dedupe<T extends { text: string }> (rows: T[]): T[] {
  const seen = new Set<string>()
  return rows.filter(r => {
    const k = r.text.toLowerCase().replace(/\s+/g, ' ').trim()
    if (seen.has(k)) return false
    seen.add(k)
    return true
  })
}

/** Accuracy of positive vs negative (rows of other labels skipped) by which of the two scores higher. */
export const binaryAccuracy = (neg: number, pos: number) => (_m: number[][], probs: number[][], gold: number[]) => {
  let n = 0
  let right = 0
  gold.forEach((g, i) => {
    if (g !== neg && g !== pos) return
    n++
    const p = probs[i]!
    if ((p[pos]! > p[neg]!) === (g === pos)) right++
  })
  return n === 0 ? 0 : right / n
}

/** The share of rows whose top label is `label`. */
export const shareCalled = (label: number) => (_m: number[][], probs: number[][]) =>
  probs.length === 0 ? 0 : probs.filter(p => p.indexOf(Math.max(...p)) === label).length / probs.length

/** The share of rows whose highest independent score is under 0.5 (nothing fits). */
export const shareUnder = (threshold: number) => (_m: number[][], probs: number[][]) =>
  probs.length === 0 ? 0 : probs.filter(p => Math.max(...p) < threshold).length / probs.length

/** Top-1 accuracy over the rows whose label is known (gold >= 0). */
export const top1 = (_m: number[][], probs: number[][], gold: number[]) => {
  let n = 0
  let right = 0
  gold.forEach((g, i) => {
    if (g < 0) return
    n++
    const p = probs[i]!
    if (p.indexOf(Math.max(...p)) === g) right++
  })
  return n === 0 ? 0 : right / n
}

export interface Everyday {
  text: string
  domain: string
  sentiment: string
  intent: string
  feedback: string | null
  topic: string
  sarcastic: boolean
  emotion: string | null
}

/** The project's own everyday texts (eval/data/everyday.jsonl): for measurement only, never training. */
/** The project's negated sentences (eval/data/negation.jsonl): text and polarity. */
export function negation (): Array<{ text: string; label: string }> {
  const file = join(import.meta.dirname, '..', '..', 'eval', 'data', 'negation.jsonl')
  const rows = readFileSync(file, 'utf8')
    .split('\n')
    .filter(l => l.trim() !== '')
  const parsed = rows.map(l => JSON.parse(l) as { text: string; sentiment: string })
  return parsed.map(r => ({ text: r.text, label: r.sentiment }))
}

export function everyday (): Everyday[] {
  const file = join(import.meta.dirname, '..', '..', 'eval', 'data', 'everyday.jsonl')
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(l => l.trim() !== '')
    .map(l => JSON.parse(l) as Everyday)
}
