// npm run train -- intent: the next version folder of model-store/intent, the intents of
// training/specs/intent.ts as a word-order classifier (kind text-cnn, a softmax over the labels)
// trained by training/trainers/text-cnn.ts.
import { intent } from '../specs/intent.js'
import { standardPlan, trainTextCnn } from '../trainers/text-cnn.js'

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
const NOTES =
  'Version 2 adds ordinary e-mail: the Enron ham of enron1-5 (hash 4/5), a domain of its own, ' +
  'as a query when it holds a question mark and as news otherwise (weak labels). ' +
  'Version 1 (the same recipe without the ham; served, after the calibration by input) called 86.4% of ' +
  'the ham validation e-mails spam or marketing; macro F1 0.905, marketing F1 0.758, reviews 0.980, ' +
  'Enron spam 0.983, everyday 0.700. Version 2, served: ham called spam or marketing 0.061, macro F1 0.883, ' +
  'marketing F1 0.635, reviews 0.981, Enron spam 0.982, everyday 0.740. ' +
  'With the ham inside the spam domain (half the weight; before the calibration by input): ham 0.071, ' +
  'macro F1 0.888, marketing F1 0.677, everyday 0.744. ' +
  'The embedding bag version 1 replaced (2026-11-27, served): macro F1 0.861, marketing F1 0.622, ' +
  'reviews 0.973, Enron spam 0.975, everyday texts 0.672. '
await trainTextCnn(standardPlan('intent', intent, 5, PROBES, NOTES))
