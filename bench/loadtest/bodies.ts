// The load test's request bodies, as real clients send them: urlencoded and multipart forms, short
// texts and batches of them, a sentence for NER, an abstract for keywords, and a portrait at a width.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createRequire } from 'node:module'
import sharp from 'sharp'

export function form (fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString()
}
export function multipart (fields: Record<string, string>, file?: Buffer): { body: Buffer; type: string } {
  const b = 'loadtestboundary'
  const parts: Buffer[] = []
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`))
  }
  if (file !== undefined) {
    parts.push(
      Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="file"; filename="file"\r\n\r\n`),
      file,
      Buffer.from('\r\n')
    )
  }
  parts.push(Buffer.from(`--${b}--\r\n`))
  return { body: Buffer.concat(parts), type: `multipart/form-data; boundary=${b}` }
}

const require = createRequire(import.meta.url)
const portrait = readFileSync(join(require.resolve('paralleldots'), '..', 'image-file.jpg'))
export const img = async (w: number) => sharp(portrait).resize({ width: w }).jpeg({ quality: 85 }).toBuffer()
export const short = (i: number) =>
  ['great phone, love it', 'worst service ever', 'the meeting is at noon', 'what a lovely day', 'not sure about this'][
    i % 5
  ] as string
export const batch = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => short(i)))

export const NER_TEXT = 'Angela Merkel met Emmanuel Macron in Paris on Tuesday.'
export const nerBatch = (n: number) =>
  JSON.stringify(Array.from({ length: n }, (_, i) => (i % 2 === 0 ? NER_TEXT : `${short(i)} in London with Google`)))
export const ABSTRACT =
  'We present a neural network approach to image classification. Convolutional neural networks are trained on a ' +
  'large image dataset, and the classification accuracy is compared with support vector machines.'
