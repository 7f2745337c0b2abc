// A long text read in parts (a text-cnn model's weights.json `parts`). A model that learnt mostly from
// sentences and short posts (sentiment), whose convolution reads only a text's first maxTokens tokens,
// judged a long review by its opening. Read in parts, every part of the text's first maxChars
// characters is within the model's reach, and the text's logits are the mean of its parts' (each
// weighing its words; meanOfParts, below). A text of at most `words` words is one part: itself,
// unchanged. Intent, new_intent and taxonomy, trained on whole articles, mails and reviews, lost when
// read in parts (training/recipes/sentiment.ts notes) and read texts whole, as the other models do.

export interface PartsConfig {
  /** a part has at most this many words (whitespace-separated) */
  words: number
  /** the parts cover the text's first maxChars characters */
  maxChars: number
}

const SPACE = /\s+/
// a sentence ends at . ! ? or an ellipsis (and any closing quotes or brackets after it) followed by
// space, or at a line break
const SENTENCE_END = /(?<=[.!?\u2026]['"\u2019\u201d)\]]*)\s+|\s*\n\s*/
const WORD = /\S+/g

/** Whether the text has more than n whitespace-separated words (counted until there are n + 1). */
function hasMoreWords (text: string, n: number): boolean {
  WORD.lastIndex = 0
  for (let found = 0; found <= n; found++) if (WORD.exec(text) === null) return false
  return true
}

/** The text's first maxChars characters, without a word the limit cuts (its start would read as another word). */
function head (text: string, maxChars: number): string {
  if (text.length <= maxChars) return text
  const s = text.slice(0, maxChars)
  return /\s/.test(text[maxChars] as string) ? s : s.replace(/\S+$/, '')
}

/**
 * The parts a text is read in: the text itself when it has at most cfg.words words; otherwise its
 * first cfg.maxChars characters (without a word cut at the limit) as consecutive sentences grouped
 * into parts of at most cfg.words words (a sentence longer than that is cut into pieces of cfg.words
 * words), in order; the text itself when those characters hold no word.
 */
export function textParts (text: string, cfg: PartsConfig): string[] {
  if (!hasMoreWords(text, cfg.words)) return [text]
  const parts: string[] = []
  let part: string[] = []
  const flush = () => {
    if (part.length > 0) {
      parts.push(part.join(' '))
      part = []
    }
  }
  for (const sentence of head(text, cfg.maxChars).split(SENTENCE_END)) {
    const words = sentence.split(SPACE).filter(w => w !== '')
    if (words.length === 0) continue
    if (part.length + words.length > cfg.words) flush()
    for (let i = 0; i < words.length; i += cfg.words) {
      const piece = words.slice(i, i + cfg.words)
      if (piece.length === cfg.words) {
        flush()
        parts.push(piece.join(' '))
      } else part.push(...piece)
    }
  }
  flush()
  // no word in the first maxChars characters (only spaces before the words): the text, read whole
  return parts.length > 0 ? parts : [text]
}

/** How many whitespace-separated words a part has. */
function wordsIn (part: string): number {
  WORD.lastIndex = 0
  let n = 0
  while (WORD.exec(part) !== null) n++
  return n
}

/**
 * A text's logits from its parts (textParts): the mean of the parts' logits by the forward pass, each
 * part weighing as many words as it has (a short last part does not outvote a full one); one part's
 * logits as they are.
 */
export function meanOfParts (forward: (text: string) => Float64Array, all: readonly string[]): Float64Array {
  if (all.length === 1) return forward(all[0] as string)
  let mean: Float64Array | undefined
  let total = 0
  for (const part of all) {
    const y = forward(part)
    const w = wordsIn(part)
    mean ??= new Float64Array(y.length)
    for (let c = 0; c < y.length; c++) mean[c] = (mean[c] as number) + w * (y[c] as number)
    total += w
  }
  const z = mean as Float64Array
  for (let c = 0; c < z.length; c++) z[c] = (z[c] as number) / total
  return z
}

/** How many parts a text is read in (textParts); 1 for a model that reads every text whole (no `parts`). */
export function partsCount (text: string, parts: PartsConfig | undefined): number {
  return parts === undefined ? 1 : textParts(text, parts).length
}

/** A forward pass that reads a long text in parts (meanOfParts of its textParts); the pass itself without `parts`. */
export function readInParts (
  forward: (text: string) => Float64Array,
  parts: PartsConfig | undefined
): (text: string) => Float64Array {
  if (parts === undefined) return forward
  return text => meanOfParts(forward, textParts(text, parts))
}
