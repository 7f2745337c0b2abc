// A plain softmax of a row of logits, for the calibration tests' expected scores.
export const softmax = (z: number[]) => {
  const m = Math.max(...z)
  const e = z.map(v => Math.exp(v - m))
  const s = e.reduce((a, b) => a + b, 0)
  return e.map(v => v / s)
}
