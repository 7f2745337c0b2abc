// The usage chart's colours: one per operation, never repeated, each readable on white.
import t from 'tap'
import { opColour } from '../../dashboard/colours.js'

/** sRGB of a #rrggbb or hsl(h s% l%) colour, 0-255 */
function rgb (c: string): [number, number, number] {
  const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(c)
  if (hex !== null) return [1, 2, 3].map(i => parseInt(hex[i]!, 16)) as [number, number, number]
  const m = /^hsl\((\d+) (\d+)% (\d+)%\)$/.exec(c)
  if (m === null) throw new Error(`not a colour: ${c}`)
  const [h, s, l] = [Number(m[1]), Number(m[2]) / 100, Number(m[3]) / 100]
  const a = s * Math.min(l, 1 - l)
  const f = (n: number) => {
    const k = (n + h / 30) % 12
    return 255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1)))
  }
  return [f(0), f(8), f(4)]
}
const luminance = (c: string) => {
  const [r, g, b] = rgb(c).map(v => {
    const x = v / 255
    return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4
  })
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!
}

t.test('every operation has its own colour (the chart repeated after 6)', async t => {
  const colours = Array.from({ length: 32 }, (_, j) => opColour(j))
  t.equal(new Set(colours).size, colours.length, 'no two of 32 operations share a colour')
  for (const [j, c] of colours.entries()) {
    const contrast = 1.05 / (luminance(c) + 0.05)
    t.ok(contrast >= 3, `operation ${j} (${c}) on white: contrast ${contrast.toFixed(2)} >= 3`)
  }
})
