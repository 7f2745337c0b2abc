// npm run train -- similarity: the similarity map over the text encoder's cosine
// (lib/text/heads/similarity.ts), fitted by isotonic regression of STS scores / 5 on the cosine of
// the stsb-multi-mt training pairs of every language (the pool-adjacent-violators algorithm), then
// kept as 32 knots; scored by Spearman's rho on each language's dev pairs.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { cosine, mapped, type SimilarityMap } from '../../lib/text/heads/similarity.js'
import { spearman, stsPairs, STS_DIR, STS_LICENCE } from '../readers/similarity.js'
import { trainingEncoder } from './embed.js'
import { latest, STORE } from '../readers/store.js'
import { options } from '../readers/options.js'

const LANGS = ['en', 'de', 'es', 'nl']
const log = (s: string): void => {
  process.stderr.write(s + '\n')
}

/** Isotonic regression: the non-decreasing fit of y on sorted x, as blocks of (x mean, y mean). */
export function isotonic (x: number[], y: number[]): SimilarityMap {
  const order = x.map((_, i) => i).sort((a, b) => (x[a] as number) - (x[b] as number))
  const blocks: Array<{ x: number; y: number; n: number }> = []
  for (const i of order) {
    blocks.push({ x: x[i] as number, y: y[i] as number, n: 1 })
    while (blocks.length > 1 && blocks.at(-2)!.y >= blocks.at(-1)!.y) {
      const b = blocks.pop()!
      const a = blocks.pop()!
      const n = a.n + b.n
      blocks.push({ x: (a.x * a.n + b.x * b.n) / n, y: (a.y * a.n + b.y * b.n) / n, n })
    }
  }
  return { cos: blocks.map(b => b.x), score: blocks.map(b => b.y) }
}

/** The map kept at `knots` points spread over the training pairs' quantiles of cosine. */
export function thin (map: SimilarityMap, xs: number[], knots: number): SimilarityMap {
  const sorted = [...xs].sort((a, b) => a - b)
  const quantile = (k: number): number => sorted[Math.round((k * (sorted.length - 1)) / (knots - 1))] as number
  const at = Array.from({ length: knots }, (_, k) => quantile(k))
  const cos = [...new Set(at.map(v => Number(v.toFixed(4))))]
  return { cos, score: cos.map(c => Number(mapped(map, c).toFixed(4))) }
}

export async function main (): Promise<void> {
  const { dir: encoderDir, encoder, cache } = await trainingEncoder()
  const cosOf = async (pairs: Array<{ a: string; b: string }>): Promise<number[]> => {
    const a = await cache.vectors(
      pairs.map(p => p.a),
      log
    )
    const b = await cache.vectors(
      pairs.map(p => p.b),
      log
    )
    return pairs.map((_, i) => cosine(a[i] as Float32Array, b[i] as Float32Array))
  }
  const train = LANGS.flatMap(lang => stsPairs(lang, 'train'))
  const x = await cosOf(train)
  const map = thin(
    isotonic(
      x,
      train.map(p => p.score / 5)
    ),
    x,
    32
  )
  const metrics = []
  for (const lang of LANGS) {
    const dev = stsPairs(lang, 'dev')
    const rho = spearman(
      (await cosOf(dev)).map(c => mapped(map, c)),
      dev.map(p => p.score)
    )
    log(`similarity ${lang}: Spearman ${rho.toFixed(3)} (dev, ${dev.length})`)
    metrics.push({ dataset: `stsb-multi-mt ${lang}`, split: 'dev', metric: 'spearman', value: Number(rho.toFixed(4)) })
  }
  const out = options.headOut ?? join(STORE, 'similarity', String(latest(join(STORE, 'similarity')) + 1))
  mkdirSync(out, { recursive: true })
  writeFileSync(join(out, 'map.json'), JSON.stringify(map) + '\n')
  const manifest = {
    name: 'similarity',
    version: Number(out.split('/').at(-1)),
    kind: 'encoder-similarity',
    description:
      'Semantic similarity of two texts: the cosine of their text-encoder vectors ' +
      '(model-store/text-encoder), mapped to [0, 1] by an isotonic fit to STS scores / 5.',
    languages: LANGS,
    labels: ['similarity'],
    inputs: [{ name: 'pair', dtype: 'string', shape: [null, 2], description: 'two texts, each read by the encoder' }],
    outputs: [{ name: 'similarity', dtype: 'float32', shape: [null], description: 'in [0, 1]' }],
    files: [relative(out, encoderDir), 'map.json'],
    training: {
      command: 'npm run train -- similarity',
      data: [
        {
          name: 'STS Benchmark multilingual (stsb-multi-mt)',
          path: STS_DIR,
          licence: STS_LICENCE,
          split: `train (${LANGS.join(', ')})`,
          rows: train.length
        }
      ]
    },
    metrics,
    created: new Date().toISOString()
  }
  writeFileSync(join(out, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n')
  await encoder.close()
  log(`wrote ${out}`)
}

if (import.meta.filename === process.argv[1]) await main()
