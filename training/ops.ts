// What each operation's model is trained on and scored with.
import type { OpSpec } from './op-spec.js'
import { emotion, sentiment } from './ops-feelings.js'
import { intent, newIntent } from './ops-intent.js'
import { sarcasm } from './ops-sarcasm.js'
import { taxonomy } from './ops-taxonomy.js'

export type { OpSpec, Row, Validation } from './op-spec.js'

export const OPS: Record<string, OpSpec> = { sentiment, emotion, sarcasm, intent, new_intent: newIntent, taxonomy }
