// Time per facial_emotion image under each crop rule of lib/image/expression.ts (FACIAL_EMOTION_CROP), measured back to
// back in the same conditions: one one-worker pool per rule, all started before timing, and the
// rules taking turns image by image (this machine is shared and loaded, so conditions drift).
// Images: the README's three-friends photo at 640 px and as it is (800 px), the portrait of the
// paralleldots package, and 20 pictures of the FER sample (48 px; labels not read).
// Run: node --import tsx training/facecrop-speed.ts [rounds] [rules, comma-separated]
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import sharp from 'sharp'
import { ImagePool } from '../lib/image/pool.js'
import { FACE_CROPS, type FaceCrop } from '../lib/image/expression.js'

const root = join(import.meta.dirname, '..')
const rounds = Number(process.argv[2] ?? 5)
const rules = (process.argv[3]?.split(',') ?? FACE_CROPS) as FaceCrop[]
const friends = readFileSync(join(root, 'docs', 'examples', 'three-friends.jpg'))
const ferDir = join(root, '..', 'shared', 'datasets', 'images', 'fer2013-privatetest-sample')
const fer = readdirSync(ferDir, { withFileTypes: true }).filter((d) => d.isDirectory())
  .flatMap((d) => readdirSync(join(ferDir, d.name)).map((f) => join(ferDir, d.name, f))).sort().slice(0, 20).map((f) => readFileSync(f))
const sets: Record<string, Buffer[]> = {
  'three-friends 640 px': [await sharp(friends).resize(640).jpeg().toBuffer()],
  'three-friends 800 px': [friends],
  'paralleldots portrait 1200 px': [readFileSync(join(root, 'node_modules', 'paralleldots', 'image-file.jpg'))],
  'FER pictures (20)': fer
}
const pools = Object.fromEntries(rules.map((r) => [r, new ImagePool({ size: 1, maxPixels: 50_000_000, maxSide: 1024, objectTop: 5, maxQueue: 1000, faceCrop: r })]))
await Promise.all(Object.values(pools).map((p) => p.start()))
const ms: Record<string, Record<string, number[]>> = {}
for (const [name, images] of Object.entries(sets)) {
  ms[name] = Object.fromEntries(rules.map((r) => [r, []]))
  for (const r of rules) for (const img of images) await pools[r]!.run('facial_emotion', img) // unmeasured first pass
  for (let round = 0; round < rounds; round++) {
    for (const img of images) {
      for (let k = 0; k < rules.length; k++) {
        const r = rules[(round + k) % rules.length]!
        const t0 = performance.now()
        await pools[r]!.run('facial_emotion', img)
        ms[name]![r]!.push(performance.now() - t0)
      }
    }
  }
}
const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor((s.length - 1) / 2)]! }
console.log(`| ms per image (median of ${rounds} rounds; rules alternating) | ${rules.join(' | ')} |`)
console.log(`|---|${rules.map(() => '---:').join('|')}|`)
for (const [name, byRule] of Object.entries(ms)) {
  const base = median(byRule[rules[0]!]!)
  console.log(`| ${name} | ${rules.map((r) => { const m = median(byRule[r]!); return r === rules[0] ? m.toFixed(0) : `${m.toFixed(0)} (${m >= base ? '+' : ''}${(100 * (m / base - 1)).toFixed(0)}%)` }).join(' | ')} |`)
}
await Promise.all(Object.values(pools).map((p) => p.close()))
