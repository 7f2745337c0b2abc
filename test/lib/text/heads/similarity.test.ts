// The similarity map: linear between knots, flat beyond them; and its fit (isotonic, then thinned).
import t from 'tap'
import { mapped } from '../../../../lib/text/heads/similarity.js'
import { isotonic, thin } from '../../../../training/heads/similarity.js'

t.test('the map is linear between knots and flat beyond them', async (t) => {
  const map = { cos: [0.5, 0.7, 0.9], score: [0, 0.2, 1] }
  t.equal(mapped(map, 0.1), 0)
  t.ok(Math.abs(mapped(map, 0.6) - 0.1) < 1e-12)
  t.ok(Math.abs(mapped(map, 0.8) - 0.6) < 1e-12)
  t.equal(mapped(map, 0.99), 1)
})

t.test('isotonic regression is non-decreasing and pools the violators', async (t) => {
  const fit = isotonic([0.1, 0.2, 0.3, 0.4], [0.0, 0.5, 0.3, 0.9])
  t.same(fit.score.map((v) => v.toFixed(2)), ['0.00', '0.40', '0.90'])
  t.same(fit.cos.map((v) => v.toFixed(2)), ['0.10', '0.25', '0.40'])
  const xs = Array.from({ length: 200 }, (_, i) => i / 200)
  const noisy = isotonic(xs, xs.map((x, i) => x + (i % 2 === 0 ? 0.1 : -0.1)))
  for (let i = 1; i < noisy.score.length; i++) t.ok(noisy.score[i]! > noisy.score[i - 1]!, `knot ${i} rises`)
  const kept = thin(noisy, xs, 8)
  t.ok(kept.cos.length <= 8)
  for (let i = 1; i < kept.score.length; i++) t.ok(kept.score[i]! >= kept.score[i - 1]!)
})
