// npm run train -- emotion: model-store/emotion/1, the six emotions of training/specs/sentiment-emotion.ts as a
// word-order classifier (kind text-cnn, a softmax over the labels) trained by training/trainers/text-cnn.ts.
import { emotion } from '../specs/sentiment-emotion.js'
import { standardPlan, trainTextCnn } from '../trainers/text-cnn.js'

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
const NOTES =
  'The embedding bag it replaces (the same rows, domain weights and features, the word-vector mean through 64 ReLU units, no convolution; served, after the calibration by input; 2026-11-27): GoEmotions 0.767, TweetEval 0.708, CARER 0.730, ISEAR 0.706, Bored recall 0.714, everyday texts 0.459. ' +
  'This model, after its temperature and label biases, before the calibration by input (seed 11): GoEmotions 0.765, TweetEval 0.764, CARER 0.819, ISEAR 0.723, Bored recall 0.619 (42 weakly labelled rows), everyday 0.459.'
await trainTextCnn(standardPlan('emotion', emotion, 5, PROBES, NOTES))
