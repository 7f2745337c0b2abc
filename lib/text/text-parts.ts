// A long text read in parts (a text-cnn model's weights.json `parts`). A model that learnt mostly from
// sentences and short posts (sentiment), whose convolution reads only a text's first maxTokens tokens,
// judged a long review by its opening. Read in parts, every part of the text is within the model's
// reach, and the text's logits are the mean of its parts' (readInParts, below). A text of at most
// `words` words is one part: itself, unchanged. Models trained on whole articles and mails (intent,
// taxonomy) read texts whole: in parts they lost (training/sentiment.ts notes).

export interface PartsConfig {
  /** a part has at most this many words (whitespace-separated) */
  words: number
  /** the parts cover the text's first maxChars characters */
  maxChars: number
}

const SPACE = /\s+/
// a sentence ends at . ! ? or an ellipsis followed by space, or at a line break
const SENTENCE_END = /(?<=[.!?\u2026])\s+|\s*\n\s*/

/** Whether the text has more than n whitespace-separated words (counted until there are n + 1). */
function hasMoreWords (text: string, n: number): boolean {
  const word = /\S+/g
  for (let found = 0; found <= n; found++) if (word.exec(text) === null) return false
  return true
}

/**
 * The parts a text is read in: the text itself when it has at most cfg.words words; otherwise its
 * first cfg.maxChars characters as consecutive sentences grouped into parts of at most cfg.words
 * words (a sentence longer than that is cut into pieces of cfg.words words), in order.
 */
export function textParts (text: string, cfg: PartsConfig): string[] {
  if (!hasMoreWords(text, cfg.words)) return [text]
  const parts: string[] = []
  let part: string[] = []
  const flush = () => { if (part.length > 0) { parts.push(part.join(' ')); part = [] } }
  for (const sentence of text.slice(0, cfg.maxChars).split(SENTENCE_END)) {
    const words = sentence.split(SPACE).filter((w) => w !== '')
    if (words.length === 0) continue
    if (part.length + words.length > cfg.words) flush()
    for (let i = 0; i < words.length; i += cfg.words) {
      const piece = words.slice(i, i + cfg.words)
      if (piece.length === cfg.words) { flush(); parts.push(piece.join(' ')) } else part.push(...piece)
    }
  }
  flush()
  return parts
}

/** A forward pass (a text's logits) that reads a long text in parts: the mean of its parts' logits (the pass itself without `parts`). */
export function readInParts (forward: (text: string) => Float64Array, parts: PartsConfig | undefined): (text: string) => Float64Array {
  if (parts === undefined) return forward
  return (text) => {
    const all = textParts(text, parts)
    if (all.length === 1) return forward(all[0] as string)
    let z: Float64Array | undefined
    for (const part of all) {
      const y = forward(part)
      if (z === undefined) z = y
      else for (let c = 0; c < z.length; c++) z[c] = (z[c] as number) + (y[c] as number)
    }
    const mean = z as Float64Array
    for (let c = 0; c < mean.length; c++) mean[c] = (mean[c] as number) / all.length
    return mean
  }
}
