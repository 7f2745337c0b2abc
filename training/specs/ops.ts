// What each operation's model is trained on and scored with.
import type { OpSpec } from './op-spec.js'
import { emotion, sentiment } from './sentiment-emotion.js'
import { intent, newIntent } from './intent.js'
import { sarcasm } from './sarcasm.js'
import { taxonomy } from './taxonomy.js'

export type { OpSpec, Row, Validation } from './op-spec.js'

export const OPS: Record<string, OpSpec> = { sentiment, emotion, sarcasm, intent, new_intent: newIntent, taxonomy }
