// npm run train -- emotion: the next version of model-store/emotion, the six emotions of
// training/specs/sentiment-emotion.ts as a word-order classifier (kind text-cnn, a softmax over the labels) trained
// by training/trainers/text-cnn.ts.
import { emotion } from '../specs/sentiment-emotion.js'
import { trainTextCnn } from '../trainers/text-cnn.js'
import { standardPlan } from '../trainers/text-cnn-plan.js'
import { readNotes } from '../readers/notes.js'

const PROBES = [
  'I am so happy today!',
  'This is terrifying, I cannot sleep.',
  'I am furious with the delay.',
  'nothing to do, so bored',
  '😀😀😀',
  'x',
  '',
  'word '.repeat(3000)
]
await trainTextCnn(standardPlan('emotion', emotion, 5, PROBES, readNotes('emotion')))
