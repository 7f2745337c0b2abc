// Every encoding a client may use (urlencoded, multipart, query string, JSON) is turned into one
// plain object of fields here, so validation and the operations see one shape.

/** A multipart file part, read into memory (bounded by the upload limit). */
export interface UploadedFile {
  kind: 'file'
  fieldname: string
  filename: string
  mimetype: string
  data: Buffer
}

export type Fields = Record<string, unknown>

const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype'])

export function isUploadedFile (v: unknown): v is UploadedFile {
  return (
    typeof v === 'object' &&
    v !== null &&
    (v as UploadedFile).kind === 'file' &&
    Buffer.isBuffer((v as UploadedFile).data)
  )
}

/** Adds a value under a name; a name seen twice becomes an array (repeated fields). */
export function addField (fields: Fields, name: string, value: unknown): void {
  if (FORBIDDEN.has(name)) return
  if (!Object.hasOwn(fields, name)) fields[name] = value
  else if (Array.isArray(fields[name])) (fields[name] as unknown[]).push(value)
  else fields[name] = [fields[name], value]
}

/** application/x-www-form-urlencoded and query strings: repeated names become arrays. */
export function parseUrlEncoded (s: string): Fields {
  const fields: Fields = {}
  for (const [k, v] of new URLSearchParams(s)) addField(fields, k, v)
  return foldIndexed(fields)
}

/**
 * PHP/Ruby style `text[0]=a&text[1]=b` and `text[]=a&text[]=b` become `text: ['a', 'b']`,
 * ordered by index; plain `text` values, if also present, come first.
 */
export function foldIndexed (fields: Fields): Fields {
  const out: Fields = {}
  const indexed = new Map<string, Array<{ i: number; seq: number; v: unknown }>>()
  let seq = 0
  for (const [k, v] of Object.entries(fields)) {
    const m = /^([^[\]]+)\[(\d{0,7})\]$/.exec(k)
    if (m === null) {
      out[k] = v
      continue
    }
    const name = m[1] as string
    if (FORBIDDEN.has(name)) continue
    const list = indexed.get(name) ?? []
    for (const item of Array.isArray(v) ? v : [v]) {
      list.push({ i: m[2] === '' ? Number.MAX_SAFE_INTEGER : Number(m[2]), seq: seq++, v: item })
    }
    indexed.set(name, list)
  }
  for (const [name, list] of indexed) {
    list.sort((a, b) => a.i - b.i || a.seq - b.seq)
    const prior = out[name] === undefined ? [] : Array.isArray(out[name]) ? (out[name] as unknown[]) : [out[name]]
    out[name] = [...prior, ...list.map(x => x.v)]
  }
  return out
}

/**
 * The `text` of a batch path as an array: a JSON-array string (compact, `", "` separated or
 * pretty-printed), an array already (repeated or indexed fields, JSON body), or one plain
 * string (a batch of one). Returns undefined when a string looks like JSON but is not an array.
 */
export function batchTexts (v: unknown): unknown {
  if (typeof v !== 'string') return v
  const s = v.trim()
  if (s.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(s)
      if (Array.isArray(parsed)) return parsed
    } catch {
      /* fall through */
    }
    return undefined
  }
  return [v]
}
