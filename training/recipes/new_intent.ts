// npm run train -- new_intent: the next version of model-store/new_intent, complaint, suggestion and appreciation
// (training/specs/intent.ts) as a word-order classifier (kind text-cnn, a softmax over the labels) trained
// by training/trainers/text-cnn.ts.
import { newIntent } from '../specs/intent.js'
import { trainTextCnn } from '../trainers/text-cnn.js'
import { standardPlan } from '../trainers/text-cnn-plan.js'
import { readNotes } from '../readers/notes.js'

const PROBES = [
  'Please add a dark mode',
  'The app crashes every time I open it.',
  'Thank you so much, the support team was wonderful!',
  'x',
  '',
  'word '.repeat(3000)
]
await trainTextCnn(standardPlan('new_intent', newIntent, 5, PROBES, readNotes('new_intent')))
