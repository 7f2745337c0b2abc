// npm run train -- intent: the next version folder of model-store/intent, the intents of
// training/specs/intent.ts as a word-order classifier (kind text-cnn, a softmax over the labels)
// trained by training/trainers/text-cnn.ts.
import { intent } from '../specs/intent.js'
import { trainTextCnn } from '../trainers/text-cnn.js'
import { standardPlan } from '../trainers/text-cnn-plan.js'
import { readNotes } from '../readers/notes.js'

const PROBES = [
  'Stocks fell sharply after the report.',
  'how do I reset my password?',
  'WIN a FREE iPhone now, click here!!!',
  '50% off all shoes this weekend only',
  'The delivery was late and the box was damaged.',
  'x',
  '',
  'word '.repeat(3000)
]
// the notes end in a space, as they did in the code (the manifest's notes keep their spacing)
await trainTextCnn(standardPlan('intent', intent, 5, PROBES, readNotes('intent') + ' '))
