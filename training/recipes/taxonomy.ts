// npm run train -- taxonomy: the next version of model-store/taxonomy, the IAB tier-1 topics of
// training/specs/taxonomy.ts as a word-order classifier (kind text-cnn, one sigmoid per tag) trained by
// training/trainers/text-cnn.ts.
import { taxonomy } from '../specs/taxonomy.js'
import { trainTextCnn } from '../trainers/text-cnn.js'
import { standardPlan } from '../trainers/text-cnn-plan.js'
import { readNotes } from '../readers/notes.js'

const PROBES = [
  'Apple shares rose after the company reported record iPhone sales.',
  'The striker scored twice in the final minutes.',
  'how do I change a flat tire',
  'lol see you tomorrow',
  '😀😀😀',
  'x',
  '',
  'word '.repeat(3000)
]
await trainTextCnn(standardPlan('taxonomy', taxonomy, 6, PROBES, readNotes('taxonomy')))
