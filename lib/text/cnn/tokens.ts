// The word sequence a word-order model reads (lib/text/cnn/classifier.ts), shared by training and
// serving so that both see the same ids: the tokens of lib/text/bag/features.ts (lower case, addresses
// and user names replaced, digits as 0, elongations cut, punctuation and emoji as tokens of their
// own), English clitics split off as the word-vector table spells them ("don't" -> "do", "n't"),
// each token as its row in the shared word-vector table, or, when the table lacks it, as one of
// `oovBuckets` hashed rows the model learned itself (ids size .. size + oovBuckets - 1).
import { hash, tokens } from '../bag/features.js'

export interface SequenceConfig {
  /** texts are read up to this many characters */
  maxChars: number
  /** at most this many tokens of a text */
  maxTokens: number
  /** learned rows for the tokens the word-vector table lacks */
  oovBuckets: number
}

const CLITIC = /^(.+?)(n't|'s|'re|'ve|'ll|'d|'m)$/

/** the text's tokens as the word-vector table spells them (before the lookup) */
export function sequenceTokens (text: string, cfg: Pick<SequenceConfig, 'maxChars' | 'maxTokens'>): string[] {
  const out: string[] = []
  for (const raw of tokens(text, cfg.maxChars)) {
    if (out.length >= cfg.maxTokens) break
    const tok = raw.replace(/^'+|'+$/g, '')
    if (tok === '') continue
    const c = CLITIC.exec(tok)
    if (c !== null) {
      out.push(c[1] as string)
      if (out.length < cfg.maxTokens) out.push(c[2] as string)
    } else out.push(tok)
  }
  return out
}

/**
 * Writes the text's token ids into `out` (at least cfg.maxTokens long) and returns how many: a
 * token's row in the table (`row`, -1 when absent), else size + its hashed bucket.
 */
export function sequenceIds (
  text: string,
  cfg: SequenceConfig,
  row: (word: string) => number,
  size: number,
  out: Int32Array
): number {
  let n = 0
  for (const tok of sequenceTokens(text, cfg)) {
    const r = row(tok)
    // hash() gives 1 .. buckets - 1; bucket 0 is never used
    out[n++] = r >= 0 ? r : size + hash(tok, cfg.oovBuckets)
  }
  return n
}
