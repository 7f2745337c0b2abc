// npm run train -- sentiment: the next version of model-store/sentiment, negative / neutral / positive
// (training/specs/sentiment-emotion.ts) as a word-order classifier (kind text-cnn, a softmax over the labels)
// trained by training/trainers/text-cnn.ts.
import { sentiment } from '../specs/sentiment-emotion.js'
import { trainTextCnn } from '../trainers/text-cnn.js'
import { standardPlan } from '../trainers/text-cnn-plan.js'
import { readNotes } from '../readers/notes.js'

const PROBES = [
  'I love it!',
  'This is the worst phone I have ever owned.',
  'The meeting is at noon.',
  'not bad at all',
  'I do not like it',
  '😀😀😀',
  'x',
  '',
  'word '.repeat(3000)
]
const plan = standardPlan('sentiment', sentiment, 3, PROBES, readNotes('sentiment'))
// a long review is read in parts of at most 64 words (half the convolution's 128 tokens, room for punctuation), its
// first 2,000 characters (what the bag reads of a text whole; each part costs a forward pass)
plan.parts = { words: 64, maxChars: 2000 }
// the questions and requests (training/specs/sentiment-emotion.ts) are neutral rows on top of the class-balanced rest
plan.trainer.push('--balance-skip', 'requests')
await trainTextCnn(plan)
