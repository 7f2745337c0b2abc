// The text encoder: a tokenizer, a forward pass (ONNX, run by onnxruntime-node on its own threads,
// so the event loop stays free) and a pooling. Loaded once per process and read by every head.
// Texts asked for while a forward pass runs wait and go in the next one together (dynamic
// batching: no added wait when the encoder is idle); a batch is sorted by length so that little
// padding is computed; recent texts are kept in an LRU cache, so a text is encoded once however many
// heads read it.
import { readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import * as ort from 'onnxruntime-node'
import { withOutputs, withUnsignedWeights } from './graph.js'
import { Lru } from './lru.js'
import { meanPool } from './pooling.js'
import { EncoderTokenizer, type TokenBatch, type WordIds } from './tokenizer.js'
import { currentDeadline, type Deadline } from '../../runtime/deadline.js'

/** The `encoder` part of the encoder's manifest. */
export interface EncoderSpec {
  dims: number
  maxTokens: number
  prefix: string
  /** more outputs: an inner tensor of the graph by the name a head asks for (graph.ts withOutputs) */
  inner?: Record<string, string>
}

export interface EncoderOptions {
  /** threads of one forward pass */
  threads: number
  /** texts in one forward pass at most */
  maxBatch: number
  /** texts whose vectors are kept */
  cacheSize: number
}

interface Waiting {
  text: string
  resolve: (v: Float32Array) => void
  reject: (e: Error) => void
  /** the deadlines of the requests waiting for it (lib/runtime/deadline.ts); null: one has none */
  wanted: Deadline[] | null
}

/** a forward pass of tokenStates: its texts' indexes, their ids and mask, and [rows, width, dims] states */
export interface TokenPass {
  texts: number[]
  batch: TokenBatch
  states: Float32Array
}

export class TextEncoder {
  private readonly cache: Lru<string, Float32Array>
  private readonly inFlight = new Map<string, { vector: Promise<Float32Array>; waiting: Waiting }>()
  private queue: Waiting[] = []
  private running = false
  /** forward passes run, texts they read (for the benchmark and the tests) */
  readonly stats = { passes: 0, texts: 0, hits: 0 }

  constructor (
    private readonly session: ort.InferenceSession,
    readonly tokenizer: EncoderTokenizer,
    readonly spec: EncoderSpec,
    private readonly options: EncoderOptions
  ) {
    this.cache = new Lru(options.cacheSize)
  }

  get dims (): number {
    return this.spec.dims
  }

  /** One unit vector per text, in order. */
  async embed (texts: readonly string[]): Promise<Float32Array[]> {
    return await Promise.all(texts.map(t => this.one(t)))
  }

  private async one (text: string): Promise<Float32Array> {
    const hit = this.cache.get(text)
    if (hit !== undefined) {
      this.stats.hits++
      return hit
    }
    const deadline = currentDeadline()
    const pending = this.inFlight.get(text)
    if (pending !== undefined) {
      const { waiting } = pending
      if (waiting.wanted !== null) waiting.wanted = deadline === undefined ? null : [...waiting.wanted, deadline]
      return await pending.vector
    }
    let waiting: Waiting | undefined
    const vector = new Promise<Float32Array>((resolve, reject) => {
      waiting = { text, resolve, reject, wanted: deadline === undefined ? null : [deadline] }
    })
    this.queue.push(waiting as Waiting)
    this.inFlight.set(text, { vector, waiting: waiting as Waiting })
    if (!this.running) this.drain()
    return await vector
  }

  /** Runs forward passes until nobody waits; started by the first text, one drain at a time. */
  private drain (): void {
    this.running = true
    // the texts of the same tick (a batch request, concurrent single requests) go together
    setImmediate(() => {
      this.pass()
        .catch(() => {})
        .finally(() => {
          if (this.queue.length > 0) this.drain()
          else this.running = false
        })
    })
  }

  private async pass (): Promise<void> {
    // a text that only requests past their deadline still want is not encoded
    const wanted: Waiting[] = []
    for (const w of this.queue) {
      const gone = w.wanted !== null && w.wanted.every(d => d.ended !== null)
      if (!gone) {
        wanted.push(w)
        continue
      }
      this.inFlight.delete(w.text)
      w.reject((w.wanted as Deadline[])[0]?.ended as Error)
    }
    this.queue = wanted
    const taken = this.queue.splice(0, this.options.maxBatch)
    if (taken.length === 0) return
    const ids = taken.map(w => this.tokenizer.ids(w.text))
    const order = ids.map((_, i) => i).sort((a, b) => (ids[a] as number[]).length - (ids[b] as number[]).length)
    try {
      const vectors = await this.forward(order.map(i => ids[i] as number[]))
      order.forEach((i, k) => {
        const w = taken[i] as Waiting
        const v = vectors[k] as Float32Array
        this.cache.set(w.text, v)
        w.resolve(v)
      })
    } catch (err) {
      for (const w of taken) w.reject(err as Error)
    } finally {
      for (const w of taken) this.inFlight.delete(w.text)
    }
  }

  /** Vectors of rows sorted by length, in passes of alike lengths (lengthGroups). */
  private async forward (rows: number[][]): Promise<Float32Array[]> {
    const out: Float32Array[] = []
    for (const [from, to] of lengthGroups(rows.map(r => r.length))) {
      const batch = this.tokenizer.batch(rows.slice(from, to))
      out.push(...meanPool(await this.states(batch), batch, this.spec.dims))
    }
    return out
  }

  /** the states of a batch's tokens: the last layer's, or those of the output named in spec.inner */
  private async states (batch: TokenBatch, output = 'token_states'): Promise<Float32Array> {
    const shape = [batch.rows, batch.width]
    const tensor = output === 'token_states' ? output : this.spec.inner?.[output]
    if (tensor === undefined) throw new Error(`the encoder has no output ${output}`)
    const feeds = {
      input_ids: new ort.Tensor('int64', batch.ids, shape),
      attention_mask: new ort.Tensor('int64', batch.mask, shape)
    }
    const out = await this.session.run(feeds, [tensor])
    const states = out[tensor]
    if (states === undefined) throw new Error(`the encoder gave no ${output}`)
    this.stats.passes++
    this.stats.texts += batch.rows
    return states.data as Float32Array
  }

  /**
   * The state of each word's first piece, for texts read word by word (EncoderTokenizer.wordIds):
   * [words, dims] a text, in one forward pass of up to maxBatch texts (no cache: token heads read
   * each text once). `output`: the last layer's states, or an inner one's (spec.inner). `every`: the
   * states of all its tokens instead, [ids, dims] a text, for a head that reads the words' places itself.
   */
  async wordStates (texts: readonly WordIds[], output = 'token_states', every = false): Promise<Float32Array[]> {
    const dims = this.spec.dims
    const out = new Array<Float32Array>(texts.length)
    // by length, so that a pass pads little
    const length = (i: number): number => (texts[i] as WordIds).ids.length
    const order = texts.map((_, i) => i).sort((a, b) => length(a) - length(b))
    for (let at = 0; at < order.length; at += this.options.maxBatch) {
      const part = order.slice(at, at + this.options.maxBatch)
      const batch = this.tokenizer.batch(part.map(i => (texts[i] as WordIds).ids))
      const states = await this.states(batch, output)
      part.forEach((i, row) => {
        const { ids, first } = texts[i] as WordIds
        const places = every ? ids.map((_, j) => j) : first
        const words = new Float32Array(places.length * dims)
        places.forEach((j, w) => {
          const from = (row * batch.width + j) * dims
          words.set(states.subarray(from, from + dims), w * dims)
        })
        out[i] = words
      })
    }
    return out
  }

  /**
   * The states of every token of texts in an output (the last layer's, or spec.inner's), for heads that
   * read more than the pooled vector: passes of up to maxBatch texts of alike length, each with the
   * indexes of its texts (no cache: such a head reads each text once).
   */
  async tokenStates (texts: readonly string[], output: string): Promise<TokenPass[]> {
    const ids = texts.map(t => this.tokenizer.ids(t))
    const order = ids.map((_, i) => i).sort((a, b) => (ids[a] as number[]).length - (ids[b] as number[]).length)
    const passes: TokenPass[] = []
    for (let at = 0; at < order.length; at += this.options.maxBatch) {
      const part = order.slice(at, at + this.options.maxBatch)
      const batch = this.tokenizer.batch(part.map(i => ids[i] as number[]))
      passes.push({ texts: part, batch, states: await this.states(batch, output) })
    }
    return passes
  }

  async close (): Promise<void> {
    await this.session.release()
  }
}

// A pass costs about this many tokens of work besides its rows (the run call, the output copy)
const PASS_TOKENS = 32

/**
 * Cuts rows sorted by length into passes, [from, to) each, so that the tokens computed (each pass's
 * rows times its longest row, plus PASS_TOKENS a pass) are fewest: a long text in a pass of short
 * ones would pad all of them to its length. Optimal by dynamic programming over the cut points.
 */
export function lengthGroups (lengths: readonly number[]): Array<[number, number]> {
  const n = lengths.length
  const cost = new Float64Array(n + 1)
  const from = new Int32Array(n + 1)
  for (let j = 1; j <= n; j++) {
    cost[j] = Infinity
    for (let i = 0; i < j; i++) {
      const c = (cost[i] as number) + PASS_TOKENS + (j - i) * (lengths[j - 1] as number)
      if (c < (cost[j] as number)) {
        cost[j] = c
        from[j] = i
      }
    }
  }
  const groups: Array<[number, number]> = []
  for (let j = n; j > 0; j = from[j] as number) groups.unshift([from[j] as number, j])
  return groups
}

/**
 * Whether onnxruntime's int8 kernels (u8s8) saturate on this CPU: on x64 without VNNI they sum pairs of
 * products in 16 bits. Such CPUs load the weights as uint8 (graph.ts withUnsignedWeights), about 15% slower
 * and then exact; x64 CPUs with VNNI and other architectures compute u8s8 exactly.
 */
export function int8Saturates (cpuinfo = readCpuinfo()): boolean {
  if (process.arch !== 'x64') return false
  return cpuinfo === undefined || !/\b(avx512_vnni|avx_vnni)\b/.test(cpuinfo)
}

function readCpuinfo (): string | undefined {
  try {
    return readFileSync('/proc/cpuinfo', 'utf8')
  } catch {
    return undefined
  }
}

const loaded = new Map<string, Promise<TextEncoder>>()

/** The encoder of a model-store folder, loaded once per process whoever asks. */
export async function loadEncoder (dir: string, options: EncoderOptions): Promise<TextEncoder> {
  let p = loaded.get(dir)
  if (p === undefined) {
    p = open(dir, options)
    loaded.set(dir, p)
    p.catch(() => loaded.delete(dir))
  }
  return await p
}

async function open (dir: string, options: EncoderOptions): Promise<TextEncoder> {
  const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as { encoder: EncoderSpec }
  const spec = manifest.encoder
  const tokenizer = await EncoderTokenizer.load(dir, spec)
  const sessionOptions: ort.InferenceSession.SessionOptions = {
    intraOpNumThreads: options.threads,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all'
  }
  const bytes = await readFile(join(dir, 'model.onnx'))
  const weights = int8Saturates() ? withUnsignedWeights(bytes) : bytes
  const model = withOutputs(weights, Object.values(spec.inner ?? {}))
  const session = await ort.InferenceSession.create(model, sessionOptions)
  return new TextEncoder(session, tokenizer, spec, options)
}
