// npm run train -- intent: model-store/intent/1, the intents of training/ops-intent.ts as a word-order
// classifier (kind text-cnn, a softmax over the labels) trained by training/text-cnn.ts.
import { intent } from './ops-intent.js'
import { standardPlan, trainTextCnn } from './text-cnn.js'

const PROBES = ['Stocks fell sharply after the report.', 'how do I reset my password?', 'WIN a FREE iPhone now, click here!!!', '50% off all shoes this weekend only', 'The delivery was late and the box was damaged.', 'x', '', 'word '.repeat(3000)]
const NOTES = 'The embedding bag it replaces (the same rows, domain weights and features, the word-vector mean through 64 ReLU units, no convolution; served, after the calibration by input; 2026-11-27): macro F1 0.861, marketing F1 0.622, reviews classed feedback 0.973, Enron spam classed spam or marketing 0.975, everyday texts 0.672. ' +
  'This model, after its temperature and label biases, before the calibration by input (seed 17): macro F1 0.910, marketing F1 0.754, reviews 0.979, Enron 0.983, everyday 0.648 (6 texts fewer of 250 than the bag). Tried and not kept (2026-11-28, seed 17, served after the calibration by input): ISEAR\'s accounts of what happened to the writer (hash 4/5, 5,963 rows) as news, half a domain, for the everyday posts that share such news (22 of 31 were read as feedback): macro F1 0.903, marketing F1 0.727 (this model 0.758), reviews 0.978, Enron 0.984, everyday 0.688 (0.700); the posts stayed feedback (9 of 31 right, as before): ISEAR\'s situations are not how people post.'
await trainTextCnn(standardPlan('intent', intent, 5, PROBES, NOTES))
