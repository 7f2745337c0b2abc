// A word -> row lookup held in three typed arrays (an open-addressing hash table over the words'
// UTF-16 code units), so that it can live in shared memory and every text worker reads one copy:
// a Map of the word-vector table's 100,000 words costs each thread about 6.5 MB of its own heap.
import { shared, type SharedArray } from '../pool/shared-memory.js'
/** the arrays of a WordIndex (in shared memory when made by the main thread for the workers) */
export interface WordIndexArrays {
  /** row + 1 per slot, 0 for an empty slot; a power of two long */
  slots: Int32Array
  /** every word's code units, one after another, in row order */
  chars: Uint16Array
  /** where row r's word starts in chars (and r + 1's ends); rows + 1 long */
  starts: Uint32Array
}

/** FNV-1a over a word's UTF-16 code units */
function hash (word: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 0x01000193)
  return h >>> 0
}

/**
 * The arrays of the index of `words` (row = position; a word listed twice keeps its first row),
 * in memory from `alloc` (a SharedArrayBuffer for the workers' shared copy).
 */
export function buildWordIndex (
  words: readonly string[],
  alloc: (bytes: number) => ArrayBufferLike = n => new ArrayBuffer(n)
): WordIndexArrays {
  let size = 1
  while (size < words.length * 2) size *= 2
  const total = words.reduce((n, w) => n + w.length, 0)
  const slots = new Int32Array(alloc(4 * size))
  const chars = new Uint16Array(alloc(2 * total))
  const starts = new Uint32Array(alloc(4 * (words.length + 1)))
  let at = 0
  words.forEach((w, r) => {
    starts[r] = at
    for (let i = 0; i < w.length; i++) chars[at++] = w.charCodeAt(i)
  })
  starts[words.length] = at
  const index = new WordIndex({ slots, chars, starts })
  words.forEach((w, r) => {
    if (index.get(w) !== undefined) return
    let s = hash(w) & (size - 1)
    while (slots[s] !== 0) s = (s + 1) & (size - 1)
    slots[s] = r + 1
  })
  return { slots, chars, starts }
}

/** The row of a word (Map.get's contract: undefined when absent), read from WordIndexArrays. */
export class WordIndex {
  readonly size: number
  private readonly mask: number
  constructor (private readonly a: WordIndexArrays) {
    if ((a.slots.length & (a.slots.length - 1)) !== 0 || a.slots.length === 0) {
      throw new Error('a word index needs a power-of-two slot table')
    }
    this.mask = a.slots.length - 1
    this.size = a.starts.length - 1
  }

  get (word: string): number | undefined {
    const { slots, chars, starts } = this.a
    for (let s = hash(word) & this.mask; ; s = (s + 1) & this.mask) {
      const r = (slots[s] as number) - 1
      if (r < 0) return undefined
      const from = starts[r] as number
      if ((starts[r + 1] as number) - from !== word.length) continue
      let i = 0
      while (i < word.length && chars[from + i] === word.charCodeAt(i)) i++
      if (i === word.length) return r
    }
  }
}

/** The index of a folder's word list for every text worker: its arrays as `<name>.slots`, `.chars`, `.starts`. */
export function shareWordIndex (name: string, words: readonly string[]): Record<string, SharedArray> {
  const a = buildWordIndex(words, n => new SharedArrayBuffer(n))
  return { [`${name}.slots`]: a.slots, [`${name}.chars`]: a.chars, [`${name}.starts`]: a.starts }
}

/** The folder's index `name`: the process's shared one (shareWordIndex), or one of this thread's own from `words()`. */
export async function folderWordIndex (
  dir: string,
  name: string,
  words: () => Promise<readonly string[]>
): Promise<WordIndex> {
  let own: WordIndexArrays | undefined
  const build = async () => (own ??= buildWordIndex(await words()))
  return new WordIndex({
    slots: await shared(dir, `${name}.slots`, Int32Array, async () => (await build()).slots),
    chars: await shared(dir, `${name}.chars`, Uint16Array, async () => (await build()).chars),
    starts: await shared(dir, `${name}.starts`, Uint32Array, async () => (await build()).starts)
  })
}
