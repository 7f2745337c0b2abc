// One colour per operation in the usage chart, distinct for any number of operations: six hand-picked
// colours, then hues a golden angle apart (never a repeat), all dark enough to read on white (3:1).
const FIRST = ['#0b5cad', '#b35900', '#2e7d32', '#7b1fa2', '#a4262c', '#00696b']

/** The colour of the j-th operation (0-based), as a CSS colour. */
export function opColour (j) {
  if (j < FIRST.length) return FIRST[j]
  const hue = Math.round(((j - FIRST.length) * 137.508 + 20) % 360)
  return `hsl(${hue} 70% 30%)`
}
