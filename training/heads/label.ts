// npm run train -- label <model> <texts file> [out file]: the served scores of a classifier (any text
// classifier kind, its highest version, as the service loads it) for unlabelled texts, one JSON line
// each, so that a later step can train a faster student on them. The texts file holds one text a
// line, or JSON lines with a "text" field; the answer goes to the out file or to standard output.
// The scores are the model's own, without a calibration by language (a text's language is not known).
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { LoadedModel } from '../../lib/serving/loaded-model.js'
import { loaderOfClassifier } from '../../lib/text/classifier-kinds.js'
import { getTf } from '../../lib/runtime/tf.js'
import type { ModelManifest } from '../../schemas/model-manifest.js'
import { latest, STORE } from '../readers/store.js'

export interface Labelled {
  text: string
  scores: Record<string, number>
  top: string
}

const BATCH = 256

/** The texts of a file: one a line, or the "text" of each JSON line. */
export function readTexts (raw: string): string[] {
  return raw
    .split('\n')
    .filter(l => l.trim() !== '')
    .map(l => {
      if (!l.trimStart().startsWith('{')) return l
      const text = (JSON.parse(l) as { text?: unknown }).text
      if (typeof text !== 'string') throw new Error(`a JSON line without a "text" string: ${l.slice(0, 80)}`)
      return text
    })
}

/** Each text with the model's scores by label and its top label, in order. */
export async function label (model: string, texts: string[], store = STORE): Promise<Labelled[]> {
  const dir = join(store, model, String(latest(join(store, model))))
  const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as ModelManifest
  const { tf } = await getTf()
  const ctx = { imageMaxPixels: 0 }
  const loaded = (await loaderOfClassifier(manifest.kind)(dir, manifest, tf, ctx)) as LoadedModel<string, number[]>
  const out: Labelled[] = []
  for (let at = 0; at < texts.length; at += BATCH) {
    const part = texts.slice(at, at + BATCH)
    const rows = await loaded.predict(part)
    rows.forEach((p, i) => {
      const scores = Object.fromEntries(manifest.labels.map((l, k) => [l, p[k] as number]))
      const top = manifest.labels[p.indexOf(Math.max(...p))] as string
      out.push({ text: part[i] as string, scores, top })
    })
  }
  loaded.dispose()
  return out
}

export async function main (args: string[]): Promise<void> {
  const [model, input, output] = args
  if (model === undefined || input === undefined) {
    process.stderr.write('usage: npm run train -- label <model> <texts file> [out file]\n')
    process.exit(2)
  }
  const lines = (await label(model, readTexts(await readFile(input, 'utf8')))).map(r => JSON.stringify(r))
  const text = lines.join('\n') + '\n'
  // written whole before the process exits
  if (output === undefined) await new Promise(resolve => process.stdout.write(text, resolve))
  else await writeFile(output, text)
}
