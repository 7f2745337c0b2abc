// npm run train -- new_intent: model-store/new_intent/1, complaint, suggestion and appreciation
// (training/specs/intent.ts) as a word-order classifier (kind text-cnn, a softmax over the labels) trained
// by training/trainers/text-cnn.ts.
import { newIntent } from '../specs/intent.js'
import { standardPlan, trainTextCnn } from '../trainers/text-cnn.js'

const PROBES = [
  'Please add a dark mode',
  'The app crashes every time I open it.',
  'Thank you so much, the support team was wonderful!',
  'x',
  '',
  'word '.repeat(3000)
]
const NOTES =
  'The embedding bag it replaces (the same rows, domain weights and features, the word-vector mean through 64 ReLU units, no convolution; served, after the calibration by input; 2026-11-27): complaint vs suggestion 0.952, appreciation recall 0.971, reviews 0.778, everyday feedback 0.558. ' +
  'This model, after its temperature and label biases, before the calibration by input (seed 19): complaint vs suggestion 0.969, appreciation recall 0.985, reviews 0.825, everyday feedback 0.581.'
await trainTextCnn(standardPlan('new_intent', newIntent, 5, PROBES, NOTES))
