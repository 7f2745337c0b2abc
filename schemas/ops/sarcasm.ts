import { Type } from '@sinclair/typebox'
import { scoresOf } from '../common.js'

export const SARCASM_LABELS = ['Sarcastic', 'Non-Sarcastic'] as const
export const SarcasmReply = scoresOf(SARCASM_LABELS)
/** the batch answer is a bare top-level array */
export const SarcasmBatchReply = Type.Array(SarcasmReply)
