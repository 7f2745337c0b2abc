// A model's experiment notes (docs/models/notes/<model>.md), written by hand: what was tried and
// measured on the way to the committed model. A recipe copies them into its manifest's training
// notes, which the model card (npm run cards) shows.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

const DIR = join(import.meta.dirname, '..', '..', 'docs', 'models', 'notes')

/** The notes of `name` as one paragraph: the file's lines trimmed and joined by spaces, its headings and
 * blank lines left out. */
export function readNotes (name: string): string {
  const lines = readFileSync(join(DIR, `${name}.md`), 'utf8')
    .split('\n')
    .map(l => l.trim())
  return lines.filter(l => l !== '' && !l.startsWith('#')).join(' ')
}
