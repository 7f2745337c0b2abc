// A model's experiment notes as its manifest carries them (training/readers/notes.ts): one paragraph,
// read from the real notes files of docs/models/notes/.
import t from 'tap'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { readNotes } from '../../../training/readers/notes.js'

const DIR = join(import.meta.dirname, '..', '..', '..', 'docs', 'models', 'notes')
const names = readdirSync(DIR, { withFileTypes: true })
  .filter(e => e.isFile() && e.name.endsWith('.md'))
  .map(e => e.name.slice(0, -3))

const skip = names.length === 0 ? 'no notes file' : false
t.test('the notes of each model: one paragraph without headings, every line of text in order', { skip }, async t => {
  for (const name of names) {
    const notes = readNotes(name)
    const file = readFileSync(join(DIR, `${name}.md`), 'utf8').split('\n')
    t.notOk(notes.includes('\n'), `${name}: one line`)
    t.equal(notes, notes.trim(), `${name}: no outer spaces`)
    let from = 0
    for (const line of file.map(l => l.trim()).filter(l => l !== '' && !l.startsWith('#'))) {
      const at = notes.indexOf(line, from)
      t.ok(at >= from, `${name}: "${line.slice(0, 40)}" in order`)
      from = at + line.length
    }
    for (const heading of file.filter(l => l.trim().startsWith('#'))) {
      t.notOk(notes.includes(heading.trim()), `${name}: heading "${heading.trim()}" left out`)
    }
  }
})

t.test('a model without notes is an error', async t => {
  t.throws(() => readNotes('no-such-model'), { code: 'ENOENT' })
})
