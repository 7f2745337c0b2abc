// The encoder's tokenizer: the model's own tokenizer.json, read by @huggingface/tokenizers (no hub,
// no network), each text cut to the model's length, and a batch padded into the int64 tensors the
// forward pass takes.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Tokenizer } from '@huggingface/tokenizers'
import { Lru } from './lru.js'

export interface TokenBatch {
  ids: BigInt64Array
  mask: BigInt64Array
  rows: number
  width: number
}

export interface TokenizerSettings {
  /** the most tokens one text is read in, the special tokens included */
  maxTokens: number
  /** put before every text (e5 reads "query: ") */
  prefix: string
}

/** A text read as its words: its ids, and the place of each word's first piece (words cut off have none). */
export interface WordIds {
  ids: number[]
  first: number[]
}

export class EncoderTokenizer {
  private readonly pad: bigint
  private readonly specials: number[]
  private readonly prefixIds: number[]
  private readonly words = new Lru<string, number[]>(50_000)

  constructor (
    private readonly tok: Tokenizer,
    padToken: string,
    private readonly settings: TokenizerSettings
  ) {
    const pad = tok.token_to_id(padToken)
    if (pad === undefined) throw new Error(`the tokenizer has no pad token ${padToken}`)
    this.pad = BigInt(pad)
    this.specials = tok.encode('').ids
    this.prefixIds = settings.prefix.trim() === '' ? [] : this.pieces(settings.prefix.trim())
  }

  static async load (dir: string, settings: TokenizerSettings): Promise<EncoderTokenizer> {
    const json = JSON.parse(await readFile(join(dir, 'tokenizer.json'), 'utf8')) as object
    const config = JSON.parse(await readFile(join(dir, 'tokenizer_config.json'), 'utf8')) as { pad_token: string }
    return new EncoderTokenizer(new Tokenizer(json, config), config.pad_token, settings)
  }

  /** A text's ids with the model's special tokens; a long text keeps its start and its end token. */
  ids (text: string): number[] {
    const ids = this.tok.encode(this.settings.prefix + text).ids
    const max = this.settings.maxTokens
    if (ids.length <= max) return ids
    const cut = ids.slice(0, max - 1)
    cut.push(ids[ids.length - 1] as number)
    return cut
  }

  /** A word's ids as it reads after a space in a text, without special tokens (never empty). */
  pieces (word: string): number[] {
    const known = this.words.get(word)
    if (known !== undefined) return known
    const ids = this.encodeWord(word)
    this.words.set(word, ids)
    return ids
  }

  private encodeWord (word: string): number[] {
    const ids: number[] = this.tok.encode(word, { add_special_tokens: false }).ids
    // a word the normaliser takes away whole (a lone zero-width character) reads as the space before it
    return ids.length > 0 ? ids : this.tok.encode(' ' + word, { add_special_tokens: false }).ids
  }

  /**
   * Words as one text, each word's pieces in turn after the prefix, within the special tokens: the ids
   * of their words joined by spaces (the Unigram model splits at spaces), read word by word so that
   * each word's first piece is known. Words past the model's length are left out.
   */
  wordIds (words: readonly string[]): WordIds {
    const [bos, eos] = this.specials
    const ids = bos === undefined ? [...this.prefixIds] : [bos, ...this.prefixIds]
    const first: number[] = []
    for (const w of words) {
      const p = this.pieces(w)
      if (ids.length + p.length > this.settings.maxTokens - 1) break
      first.push(ids.length)
      ids.push(...p)
    }
    if (eos !== undefined) ids.push(eos)
    return { ids, first }
  }

  /** Texts' ids padded to the longest of them. */
  batch (rows: number[][]): TokenBatch {
    const width = Math.max(1, ...rows.map(r => r.length))
    const ids = new BigInt64Array(rows.length * width).fill(this.pad)
    const mask = new BigInt64Array(rows.length * width)
    rows.forEach((row, i) => {
      for (let j = 0; j < row.length; j++) {
        ids[i * width + j] = BigInt(row[j] as number)
        mask[i * width + j] = 1n
      }
    })
    return { ids, mask, rows: rows.length, width }
  }
}
