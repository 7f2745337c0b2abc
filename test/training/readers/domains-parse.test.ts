// The parsing and clean-up helpers of the cross-domain readers (training/readers/domains-parse.ts):
// delimited records, word-boundary cuts, Enron mail bodies, AG News and ISEAR texts, label counts and
// the fixed hash split.
import t from 'tap'
import {
  agText,
  cut,
  hashSplit,
  isearText,
  labelCounts,
  mailText,
  records,
  squash
} from '../../../training/readers/domains-parse.js'

t.test('records: quoted fields keep separators, newlines and "" escapes; CRLF ends a row', async t => {
  t.same(records('a,"b,c",d\r\n"x ""y""\nz",2\n'), [
    ['a', 'b,c', 'd'],
    ['x "y"\nz', '2']
  ])
})

t.test('records: a quote inside a field is kept as it is, empty lines are dropped', async t => {
  t.same(records('e,f"g\n\n\nh,i'), [
    ['e', 'f"g'],
    ['h', 'i']
  ])
})

t.test('records: another separator, and a last row without a newline', async t => {
  t.same(records('id\tname\n1\t"A\tB"', '\t'), [
    ['id', 'name'],
    ['1', 'A\tB']
  ])
  t.same(records(''), [])
})

t.test('squash and cut: one space between words, a cut at a word boundary when one is near', async t => {
  t.equal(squash('  a \n\t b  c '), 'a b c')
  t.equal(cut('short', 12), 'short')
  t.equal(cut('the quick brown fox jumps', 12), 'the quick')
  // the last space is too early (at or before 60% of max): a cut inside the word
  t.equal(cut('ab cdefghijklmnop', 10), 'ab cdefghi')
})

t.test('mailText: subject, newline, the body without forwarded headers', async t => {
  const raw = [
    'Subject: meeting  moved',
    '- - - - - forwarded by jeff / hou / ect on 01 / 02 / 2001 10 : 30 am',
    'to : bob',
    'please come at  noon .',
    'see you'
  ].join('\n')
  t.equal(mailText(raw), 'meeting moved\nplease come at noon . see you')
})

t.test('mailText: no subject gives the body alone, no body the subject alone; max cuts the body', async t => {
  t.equal(mailText('Subject: \nhello there friend', 8), 'hello')
  t.equal(mailText('Subject: only subject\n'), 'only subject')
  t.equal(mailText('Subject: hi\r\noriginal message\r\nthe body'), 'hi\nthe body')
})

t.test('agText: escapes, entities without "&", HTML tags and entities', async t => {
  t.equal(agText('it #39;s up\\ to \\$50'), "it's up to $50")
  t.equal(agText('a &lt;b&gt;tag&lt;/b&gt; AT&amp;T &quot;q&quot;'), 'a tag AT&T "q"')
  t.equal(agText('caf#233; ok'), 'café ok')
})

t.test('isearText: line-wrap marks, escaped quotes and the outer quotes go', async t => {
  t.equal(isearText('"When I was á  told \\"no\\" "'), 'When I was told "no"')
})

t.test('labelCounts: each label counted, most frequent first', async t => {
  const rows = ['a', 'b', 'b', 'c', 'b', 'a'].map(label => ({ label }))
  t.same(labelCounts(rows), [
    ['b', 3],
    ['a', 2],
    ['c', 1]
  ])
})

t.test('hashSplit: train and val part the rows, by text, the same way every time', async t => {
  const rows = Array.from({ length: 500 }, (_, i) => ({ text: `row number ${i}` }))
  const train = hashSplit(rows, 'train')
  const val = hashSplit(rows, 'val')
  t.equal(train.length + val.length, rows.length)
  t.notOk(
    val.some(r => train.includes(r)),
    'no row on both sides'
  )
  t.ok(val.length > 60 && val.length < 140, `about 1 in 5 held (${val.length})`)
  t.same(hashSplit([...rows].reverse(), 'val'), [...val].reverse(), 'a row falls by its text, not its place')
})
