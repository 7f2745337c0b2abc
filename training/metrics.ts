// Scores computed the same way by training (validation each epoch) and by npm run eval.
export function argmax (row: number[]): number {
  let best = 0
  for (let i = 1; i < row.length; i++) if ((row[i] as number) > (row[best] as number)) best = i
  return best
}

export function confusion (gold: number[], pred: number[], classes: number): number[][] {
  const m = Array.from({ length: classes }, () => new Array<number>(classes).fill(0))
  gold.forEach((g, i) => { m[g]![pred[i] as number]!++ })
  return m
}

export function recall (m: number[][], c: number): number {
  const row = m[c]!.reduce((a, b) => a + b, 0)
  return row === 0 ? 0 : (m[c]![c] as number) / row
}

export function precision (m: number[][], c: number): number {
  const col = m.reduce((a, r) => a + (r[c] as number), 0)
  return col === 0 ? 0 : (m[c]![c] as number) / col
}

export function f1 (m: number[][], c: number): number {
  const p = precision(m, c); const r = recall(m, c)
  return p + r === 0 ? 0 : 2 * p * r / (p + r)
}

export const macroRecall = (m: number[][], classes: number[]) => classes.reduce((a, c) => a + recall(m, c), 0) / classes.length
export const macroF1 = (m: number[][], classes: number[]) => classes.reduce((a, c) => a + f1(m, c), 0) / classes.length
export const accuracy = (m: number[][]) => m.reduce((a, r, i) => a + (r[i] as number), 0) / m.reduce((a, r) => a + r.reduce((x, y) => x + y, 0), 0)
