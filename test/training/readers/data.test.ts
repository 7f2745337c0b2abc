// The pure helpers of the dataset readers (training/readers/data.ts): CSV lines, the text comparison
// without names and punctuation, the overlap filter and the fixed 1-in-5 split.
import t from 'tap'
import { csvFields, isHeldOut, norm, split, withoutOverlap } from '../../../training/readers/data.js'

t.test('csvFields: quoted fields keep commas and "" escapes', async t => {
  t.same(csvFields('1,"a, ""b""",c'), ['1', 'a, "b"', 'c'])
  t.same(csvFields('x,,'), ['x', '', ''])
})

t.test('norm drops user names, addresses, case, spacing and punctuation', async t => {
  t.equal(norm('@bob Hello, World! https://x.co/y'), 'helloworld')
  t.equal(norm('Ça  va ?'), 'çava')
})

t.test('withoutOverlap drops training rows whose text a held set also has', async t => {
  const train = [
    { text: 'Hi there!', label: 'a' },
    { text: 'other', label: 'b' }
  ]
  t.same(withoutOverlap(train, [{ text: '@u hi THERE', label: 'c' }]), [{ text: 'other', label: 'b' }])
  t.same(withoutOverlap(train), train)
})

t.test('split: about one row in five held, by a hash of the normalised text', async t => {
  const rows = Array.from({ length: 1000 }, (_, i) => ({ text: `text ${i}` }))
  const { train, val } = split(rows)
  t.equal(train.length + val.length, 1000)
  t.ok(val.length > 150 && val.length < 250, `${val.length} held`)
  t.ok(val.every(r => isHeldOut(r.text)))
  t.equal(isHeldOut('Text 7!'), isHeldOut('text 7'), 'case and punctuation do not move a row')
})
