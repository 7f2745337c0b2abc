// Image bytes to RGB pixels: the format by magic bytes, the pixel count checked from the header
// before any pixel is decoded (a decompression bomb never gets decoded), EXIF orientation honoured,
// and the picture scaled down to at most `maxSide` for the detectors (boxes are scaled back).
import sharp, { type Metadata, type Sharp } from 'sharp'
import { createRequire } from 'node:module'
import { sniffImage } from './sniff.js'

const require = createRequire(import.meta.url)
const bmp = require('bmp-js') as { decode(b: Buffer): { width: number; height: number; data: Buffer } }

export class ImageError extends Error {
  constructor (
    readonly kind: 'unsupported' | 'too-large',
    message: string
  ) {
    super(message)
  }
}

export interface Decoded {
  data: Uint8Array
  width: number
  height: number
  /** size of the (oriented) original; boxes are reported in its coordinates */
  originalWidth: number
  originalHeight: number
}

function bmpSize (b: Buffer): { width: number; height: number } {
  if (b.length < 26) throw new ImageError('unsupported', 'the bmp header is truncated')
  return { width: Math.abs(b.readInt32LE(18)), height: Math.abs(b.readInt32LE(22)) }
}

export async function decodeImage (bytes: Buffer, maxPixels: number, maxSide: number): Promise<Decoded> {
  const format = sniffImage(bytes)
  if (format === null) throw new ImageError('unsupported', 'the file is not a jpeg, png, bmp or tiff image')
  let input: Sharp
  let originalWidth: number
  let originalHeight: number
  if (format === 'bmp') {
    const { width, height } = bmpSize(bytes)
    if (width * height > maxPixels) {
      throw new ImageError('too-large', `the image has ${width * height} pixels; the limit is ${maxPixels}`)
    }
    let img: { width: number; height: number; data: Buffer }
    try {
      img = bmp.decode(bytes)
    } catch {
      throw new ImageError('unsupported', 'the bmp image does not decode')
    }
    // bmp-js gives ABGR; sharp wants RGB
    const rgb = Buffer.alloc(img.width * img.height * 3)
    for (let i = 0, j = 0; j < rgb.length; i += 4, j += 3) {
      rgb[j] = img.data[i + 3]!
      rgb[j + 1] = img.data[i + 2]!
      rgb[j + 2] = img.data[i + 1]!
    }
    input = sharp(rgb, { raw: { width: img.width, height: img.height, channels: 3 } })
    originalWidth = img.width
    originalHeight = img.height
  } else {
    let meta: Metadata
    try {
      meta = await sharp(bytes, { limitInputPixels: false }).metadata()
    } catch {
      throw new ImageError('unsupported', `the ${format} image does not decode`)
    }
    const pixels = (meta.width ?? 0) * (meta.height ?? 0)
    if (pixels > maxPixels) {
      throw new ImageError('too-large', `the image has ${pixels} pixels; the limit is ${maxPixels}`)
    }
    if (pixels === 0) throw new ImageError('unsupported', `the ${format} image has no pixels`)
    input = sharp(bytes, { limitInputPixels: maxPixels, failOn: 'error' }).rotate()
    const swap = (meta.orientation ?? 1) >= 5
    originalWidth = (swap ? meta.height : meta.width) as number
    originalHeight = (swap ? meta.width : meta.height) as number
  }
  try {
    const { data, info } = await input
      .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
      .removeAlpha()
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true })
    return {
      data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
      width: info.width,
      height: info.height,
      originalWidth,
      originalHeight
    }
  } catch (err) {
    if (err instanceof ImageError) throw err
    throw new ImageError('unsupported', `the ${format} image does not decode`)
  }
}
