// The loader of kind encoder-ner: named entities from the shared text encoder. A text is cut into
// the words of the tagger (lib/text/ner/features.ts tokenize, UTF-16 offsets) and into sentences; each
// sentence is read by the encoder word by word, and the states of its tokens (in the layer the manifest's
// encoderOutput names: a middle one tags better than the last) go to the head with the places of its words'
// first pieces (head.onnx, training/encoder/train_ner_head.py): the encoder's next layers, tuned with it, then
// a bidirectional LSTM that gives each word its log-probabilities over the tagger's BIOES labels.
// The tagger's Viterbi and marginals
// (lib/text/ner/tagger.ts decode, no learned transitions) turn them into spans with a confidence.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import * as ort from 'onnxruntime-node'
import type { LoadedModel, LoaderContext } from '../../serving/loaded-model.js'
import type { ModelManifest } from '../../../schemas/model-manifest.js'
import { tokenize, type Token } from '../ner/features.js'
import { NUM_LABELS } from '../ner/labels.js'
import { Scratch } from '../ner/decode.js'
import { MAX_CHARS, decode, type Decoding, type Entity, type NerInput } from '../ner/tagger.js'
import type { WordIds } from '../encoder/tokenizer.js'
import { int8Saturates } from '../encoder/encoder.js'
import { withUnsignedWeights } from '../encoder/graph.js'
import { encoderOf } from './classifier.js'

const SENTENCE_END = new Set(['.', '!', '?', '。', '！', '？'])

/** a sentence, or a part of one, as the encoder reads it: `from` its first word's place in the text */
interface Part extends WordIds {
  text: number
  from: number
}

/** The words of a text in sentences, as the head learnt them; a sentence too long for the encoder in parts. */
function sentences (text: number, words: readonly string[], read: (words: readonly string[]) => WordIds): Part[] {
  const out: Part[] = []
  let from = 0
  while (from < words.length) {
    let to = from
    while (to < words.length && !SENTENCE_END.has(words[to] as string)) to++
    const part = read(words.slice(from, Math.min(to + 1, words.length)))
    if (part.first.length > 0) out.push({ ...part, text, from })
    // at least one word a part, so that a word longer than the encoder reads moves on (and stays O)
    from += Math.max(1, part.first.length)
  }
  return out
}

/** label scores of `words` words, each O until a part's head scores it */
function outside (words: number): Float32Array {
  const E = new Float32Array(words * NUM_LABELS).fill(-1e4)
  for (let w = 0; w < words; w++) E[w * NUM_LABELS] = 0
  return E
}

export async function loadEncoderNer (
  dir: string,
  manifest: ModelManifest,
  _tf: unknown,
  ctx: LoaderContext
): Promise<LoadedModel<NerInput | string, Entity[]>> {
  const encoder = await encoderOf(dir, manifest, ctx)
  const bytes = await readFile(join(dir, 'head.onnx'))
  const graph = int8Saturates() ? withUnsignedWeights(bytes) : bytes
  const head = await ort.InferenceSession.create(graph, { intraOpNumThreads: 1, interOpNumThreads: 1 })
  const dims = encoder.dims
  const layer = (manifest as { encoderOutput?: string }).encoderOutput ?? 'token_states'
  // the head's scores are log-probabilities: no transitions to add, no temperature
  const decoding: Decoding = {
    transitions: new Float32Array((NUM_LABELS + 1) * NUM_LABELS),
    temperature: 1,
    minConfidence: [0, 0, 0]
  }
  const scratch = new Scratch()

  async function scores (states: Float32Array, first: readonly number[]): Promise<Float32Array> {
    const out = await head.run({
      states: new ort.Tensor('float32', states, [1, states.length / dims, dims]),
      first: new ort.Tensor('int64', BigInt64Array.from(first, BigInt), [first.length])
    })
    const s = out.scores
    if (s === undefined) throw new Error(`${manifest.name}: the head gave no scores`)
    return s.data as Float32Array
  }

  const predict = async (inputs: Array<NerInput | string>): Promise<Entity[][]> => {
    const items = inputs.map(x => (typeof x === 'string' ? { text: x, lang: 'en' } : x))
    const toks = items.map(x => tokenize(x.text, MAX_CHARS, x.lang ?? 'en'))
    const parts = toks.flatMap((t, i) =>
      sentences(
        i,
        t.map(k => k.text),
        w => encoder.tokenizer.wordIds(w)
      )
    )
    // every sentence of every text in the encoder's passes together
    const states = await encoder.wordStates(parts, layer, true)
    const E = toks.map(t => outside(t.length))
    for (const [k, part] of parts.entries()) {
      const rows = E[part.text] as Float32Array
      rows.set(await scores(states[k] as Float32Array, part.first), part.from * NUM_LABELS)
    }
    return items.map((x, i) => decode(x.text, toks[i] as Token[], E[i] as Float32Array, 0, decoding, scratch))
  }
  return {
    manifest,
    predict,
    async warm () {
      await predict(manifest.languages.map(lang => ({ text: 'Angela Merkel visited Paris.', lang })))
    },
    dispose () {
      void head.release()
    }
  }
}
