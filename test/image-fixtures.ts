// Images made in the tests from the portrait that ships with the paralleldots package.
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { readFileSync } from 'node:fs'
import { crc32 } from 'node:zlib'
import sharp from 'sharp'

const require = createRequire(import.meta.url)
/** A photo of a puppy (1200x900 jpeg), from the paralleldots npm package. */
export const PORTRAIT = readFileSync(join(require.resolve('paralleldots'), '..', 'image-file.jpg'))

/** A group photo of four people (1920x1537 jpeg), a demo image of the @vladmandic/face-api package (MIT). */
export const FACES = readFileSync(join(require.resolve('@vladmandic/face-api'), '..', '..', 'demo', 'sample6.jpg'))

/** A 24-bit bottom-up BMP, written by hand (sharp cannot write bmp). */
export async function toBmp (img: Buffer, width: number): Promise<Buffer> {
  const { data, info } = await sharp(img).resize({ width }).removeAlpha().raw().toBuffer({ resolveWithObject: true })
  const row = Math.ceil((info.width * 3) / 4) * 4
  const out = Buffer.alloc(54 + row * info.height)
  out.write('BM', 0)
  out.writeUInt32LE(out.length, 2)
  out.writeUInt32LE(54, 10)
  out.writeUInt32LE(40, 14)
  out.writeInt32LE(info.width, 18)
  out.writeInt32LE(info.height, 22)
  out.writeUInt16LE(1, 26)
  out.writeUInt16LE(24, 28)
  out.writeUInt32LE(row * info.height, 34)
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      const s = ((info.height - 1 - y) * info.width + x) * 3
      const d = 54 + y * row + x * 3
      out[d] = data[s + 2]!
      out[d + 1] = data[s + 1]!
      out[d + 2] = data[s]!
    }
  }
  return out
}

/** A PNG whose header claims width x height and whose pixel data is missing: a decompression bomb's header. */
export function pngBombHeader (width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr[8] = 8
  ihdr[9] = 2
  const chunk = (type: string, body: Buffer) => {
    const len = Buffer.alloc(4)
    len.writeUInt32BE(body.length)
    const tb = Buffer.concat([Buffer.from(type), body])
    const crc = Buffer.alloc(4)
    crc.writeUInt32BE(crc32(tb))
    return Buffer.concat([len, tb, crc])
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', Buffer.alloc(64)),
    chunk('IEND', Buffer.alloc(0))
  ])
}

/** A self-signed certificate for localhost, made at test time in `dir` (never committed). */
export function selfSignedCert (dir: string): { key: Buffer; cert: Buffer; certFile: string } {
  const { execFileSync } = require('node:child_process') as typeof import('node:child_process')
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,DNS:evil.test,DNS:mixed.test,IP:127.0.0.1,IP:::1',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem')
    ],
    { stdio: 'ignore' }
  )
  return {
    key: readFileSync(join(dir, 'key.pem')),
    cert: readFileSync(join(dir, 'cert.pem')),
    certFile: join(dir, 'cert.pem')
  }
}
