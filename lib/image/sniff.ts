// Image formats are recognised by their first bytes, never by file name or part type.
export type ImageFormat = 'jpeg' | 'png' | 'bmp' | 'tiff'

/** An image as an operation reads it: its bytes, their format, and whether it was uploaded or fetched. */
export interface ImageInput {
  data: Buffer
  format: ImageFormat
  source: 'file' | 'url'
}

export function sniffImage (b: Buffer): ImageFormat | null {
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg'
  if (b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return 'png'
  }
  if (b.length >= 26 && b[0] === 0x42 && b[1] === 0x4d) return 'bmp'
  if (
    b.length >= 8 &&
    ((b[0] === 0x49 && b[1] === 0x49 && b[2] === 0x2a && b[3] === 0x00) ||
      (b[0] === 0x4d && b[1] === 0x4d && b[2] === 0x00 && b[3] === 0x2a))
  ) {
    return 'tiff'
  }
  return null
}
