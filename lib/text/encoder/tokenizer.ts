// The encoder's tokenizer: the model's own tokenizer.json, read by @huggingface/tokenizers (no hub,
// no network), each text cut to the model's length, and a batch padded into the int64 tensors the
// forward pass takes.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Tokenizer } from '@huggingface/tokenizers'

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

export class EncoderTokenizer {
  private readonly pad: bigint

  constructor (private readonly tok: Tokenizer, padToken: string, private readonly settings: TokenizerSettings) {
    const pad = tok.token_to_id(padToken)
    if (pad === undefined) throw new Error(`the tokenizer has no pad token ${padToken}`)
    this.pad = BigInt(pad)
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

  /** Texts' ids padded to the longest of them. */
  batch (rows: number[][]): TokenBatch {
    const width = Math.max(1, ...rows.map((r) => r.length))
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
