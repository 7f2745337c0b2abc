// The fuzzer's requests and their check: a urlencoded or multipart body (cut short, or with a wrong or
// missing boundary), and what every answer must be: never a 5xx, and every error a JSON body
// {code, error, message}.
import type { build } from '../helper.js'

export type Req = {
  method: 'POST' | 'GET' | 'HEAD'
  url: string
  headers: Record<string, string>
  payload?: string | Buffer
}

export function urlencoded (url: string, pairs: Array<[string, string]>, cut: number | null): Req {
  const body = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')
  return {
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: cut === null ? body : body.slice(0, cut)
  }
}

export function multipart (
  url: string,
  parts: Array<{ name: string; value: string | Uint8Array; filename: string | null; type: string | null }>,
  boundary: string,
  broken: 'none' | 'cut' | 'wrong-boundary' | 'no-end',
  cut: number
): Req {
  const chunks: Buffer[] = []
  for (const p of parts) {
    let head =
      `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"` +
      `${p.filename === null ? '' : `; filename="${p.filename}"`}\r\n`
    if (p.type !== null) head += `Content-Type: ${p.type}\r\n`
    chunks.push(Buffer.from(head + '\r\n'), Buffer.from(p.value), Buffer.from('\r\n'))
  }
  if (broken !== 'no-end') chunks.push(Buffer.from(`--${boundary}--\r\n`))
  let body = Buffer.concat(chunks)
  if (broken === 'cut') body = body.subarray(0, Math.min(cut, body.length))
  const header =
    broken === 'wrong-boundary'
      ? `multipart/form-data; boundary=${boundary}x`
      : `multipart/form-data; boundary=${boundary}`
  return { method: 'POST', url, headers: { 'content-type': header }, payload: body }
}

export async function check (app: Awaited<ReturnType<typeof build>>, req: Req): Promise<boolean> {
  const res = await app.inject(req)
  if (req.method === 'HEAD' && res.statusCode < 500) return true
  if (res.statusCode >= 500) {
    throw new Error(
      `${res.statusCode} for ${req.url} ${String(req.headers['content-type'])}: ${res.body.slice(0, 300)}`
    )
  }
  // the pages and files of /docs, /dashboard and /metrics are not JSON; every error is
  if (res.statusCode < 300 && !String(res.headers['content-type']).includes('json')) return true
  if (res.statusCode >= 300 && res.statusCode < 400) return true
  let body: unknown
  try {
    body = res.json()
  } catch {
    throw new Error(`not JSON (${res.statusCode}) for ${req.url}: ${res.body.slice(0, 200)}`)
  }
  if (res.statusCode >= 400) {
    const b = body as Record<string, unknown>
    if (b.code !== res.statusCode || typeof b.error !== 'string' || typeof b.message !== 'string') {
      throw new Error(`bad error body ${res.body.slice(0, 200)}`)
    }
  }
  return true
}
