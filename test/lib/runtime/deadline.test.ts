// Work in turns: mapInTurns maps in order, hands the event loop back after each budget of work,
// and stops at a deadline that has passed.
import t from 'tap'
import { Deadline, mapInTurns } from '../../../lib/runtime/deadline.js'

t.test('mapInTurns maps in order and lets other work run between turns', async t => {
  let ticks = 0
  const timer = setInterval(() => {
    ticks++
  }, 0)
  const started = ticks
  const out = await mapInTurns(
    [1, 2, 3, 4],
    x => x,
    3,
    x => {
      const until = Date.now() + 5
      while (Date.now() < until) {
        /* a synchronous item */
      }
      return x * 10
    }
  )
  clearInterval(timer)
  t.same(out, [10, 20, 30, 40])
  t.ok(ticks > started, 'a timer fired while the items were mapped')
})

t.test('mapInTurns stops at a passed deadline', async t => {
  const deadline = new Deadline(1)
  let mapped = 0
  const work = deadline.run(
    async () =>
      await mapInTurns(
        Array.from({ length: 1000 }, (_, i) => i),
        () => 1,
        1,
        x => {
          mapped++
          const until = Date.now() + 1
          while (Date.now() < until) {
            /* a synchronous item */
          }
          return x
        }
      )
  )
  await t.rejects(work)
  await new Promise(resolve => setTimeout(resolve, 50))
  t.ok(mapped < 1000, `stopped after ${mapped} of 1000`)
  deadline.clear()
})
