// Fetching an image by address without becoming a way into the operator's network (SSRF):
// https only; every address a name resolves to, and the address the socket really connects to, must
// be public unicast (no loopback, private, link-local, CGNAT, multicast, reserved ..., in IPv4, IPv6
// and IPv4-mapped IPv6 forms); literal IPs are checked before connecting (Node skips the lookup hook
// for them); at most 3 redirects, each checked again; 10 MB and 10 s caps. An allow-list lets named
// hosts through for tests and trusted deployments (empty by default).
import https from 'node:https'
import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { isIP, type Socket } from 'node:net'
import ipaddr from 'ipaddr.js'
import { readFileSync } from 'node:fs'
import { Errors } from '../errors.js'
import { currentDeadline } from '../runtime/deadline.js'

export interface FetchImageOptions {
  maxBytes: number
  timeoutMs: number
  maxRedirects?: number
  /** hostnames or IP literals fetched even though private (tests, trusted deployments) */
  allowHosts?: string[]
  /** an extra trusted CA (tests) */
  ca?: string | Buffer
  lookup?: typeof dnsLookup
}

/** The service's fetcher, from its configuration. */
export function fetcherFor (config: {
  imageMaxBytes: number
  imageFetchTimeoutMs: number
  imageFetchAllowHosts: string[]
  imageFetchCaFile: string | null
}): (url: string) => Promise<Buffer> {
  return createImageFetcher({
    maxBytes: config.imageMaxBytes,
    timeoutMs: config.imageFetchTimeoutMs,
    allowHosts: config.imageFetchAllowHosts,
    ...(config.imageFetchCaFile !== null ? { ca: readFileSync(config.imageFetchCaFile) } : {})
  })
}

/** Public unicast only; IPv4-mapped IPv6 is judged as the IPv4 it carries. */
export function isPublicAddress (address: string): boolean {
  if (!ipaddr.isValid(address)) return false
  const ip = ipaddr.process(address)
  return ip.range() === 'unicast'
}

const REFUSED = 'the address resolves to a private, loopback or reserved network address'

class Refused extends Error {}

function bareHost (hostname: string): string {
  return hostname.replace(/^\[|\]$/g, '').toLowerCase()
}

/** Aborted after `ms` (the fetch's cap) or when the running request's deadline passes first. */
function stopping (ms: number): { signal: AbortSignal; clear: () => void } {
  const capped = new AbortController()
  const timedOut = () => capped.abort(new Errors.UrlFetch(`timed out after ${Math.round(ms / 1000)} s`))
  const cap = setTimeout(timedOut, ms).unref()
  const off = currentDeadline()?.onEnd(why => capped.abort(why))
  const clear = () => {
    clearTimeout(cap)
    off?.()
  }
  return { signal: capped.signal, clear }
}

/** One hop's answer: a redirect to follow, or the image's bytes. */
type Fetched = { redirect: string } | { body: Buffer }

/** What a user is told of a fetch that failed. */
function fetchError (err: unknown): Error {
  if (err instanceof Refused) return new Errors.UrlFetch(REFUSED)
  const e = err as { code?: string; statusCode?: number; message?: string }
  if (typeof e.code === 'string' && e.code.startsWith('SVC_')) return err as Error
  if (e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN') return new Errors.UrlFetch('the host name does not resolve')
  if (e.code === 'ECONNREFUSED') return new Errors.UrlFetch('the server refused the connection')
  const code = typeof e.code === 'string' ? e.code : ''
  const tls = code.includes('CERT') || code.includes('SSL') || code.startsWith('ERR_TLS')
  if (tls) return new Errors.UrlFetch("the server's TLS certificate is not valid")
  return new Errors.UrlFetch('could not connect')
}

/** What a fetcher checks each hop against: the hosts and addresses it lets through, its name lookup, its options. */
interface Guard {
  allowed: (host: string, address: string) => boolean
  resolve: typeof dnsLookup
  opts: FetchImageOptions
}

// every address of a name must be allowed, not just the first one
function guardedLookup (guard: Guard, host: string): typeof dnsLookup {
  const { allowed, resolve } = guard
  return ((
    hostname: string,
    options: object,
    cb: (err: Error | null, address: string | LookupAddress[], family?: number) => void
  ) => {
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err !== null) {
        cb(err, '')
        return
      }
      const list = addresses as LookupAddress[]
      if (list.length === 0 || !list.every(a => allowed(host, a.address))) {
        cb(new Refused(REFUSED), '')
        return
      }
      if ((options as { all?: boolean }).all === true) cb(null, list)
      else cb(null, list[0]!.address, list[0]!.family)
    })
  }) as unknown as typeof dnsLookup
}

/**
 * One hop: GET `url`, answering the redirect it gives or the image's bytes within the size cap. `stop`: aborted at
 * the fetch's time cap or the request's deadline, and the request is destroyed.
 */
function fetchOnce (guard: Guard, url: URL, deadline: number, stop: AbortSignal): Promise<Fetched> {
  const { allowed, opts } = guard
  return new Promise<Fetched>((resolvePromise, reject) => {
    const host = bareHost(url.hostname)
    if (isIP(host) !== 0 && !allowed(host, host)) {
      reject(new Refused(REFUSED))
      return
    }
    const agent = new https.Agent({
      lookup: guardedLookup(guard, host),
      keepAlive: false,
      ...(opts.ca ? { ca: opts.ca } : {})
    })
    const headers = { 'user-agent': 'open-text-image-api/1 (image fetch)', accept: 'image/*' }
    const timeout = Math.max(1, deadline - Date.now())
    const req = https.request(url, { method: 'GET', agent, headers, timeout }, res => {
      const status = res.statusCode ?? 0
      if (status >= 300 && status < 400 && res.headers.location !== undefined) {
        res.resume()
        resolvePromise({ redirect: new URL(res.headers.location, url).toString() })
        return
      }
      if (status < 200 || status >= 300) {
        res.resume()
        reject(new Errors.UrlFetch(`the server answered ${status}`))
        return
      }
      const announced = Number(res.headers['content-length'])
      if (announced > opts.maxBytes) {
        req.destroy()
        reject(new Errors.ImageTooLarge(`${opts.maxBytes} bytes`))
        return
      }
      const chunks: Buffer[] = []
      let size = 0
      res.on('data', (c: Buffer) => {
        size += c.length
        if (size > opts.maxBytes) {
          req.destroy()
          reject(new Errors.ImageTooLarge(`${opts.maxBytes} bytes`))
          return
        }
        chunks.push(c)
      })
      res.on('end', () => resolvePromise({ body: Buffer.concat(chunks) }))
      res.on('error', reject)
    })
    // the address really connected to must be allowed too (no DNS rebinding between check and use)
    req.on('socket', (socket: Socket) => {
      socket.once('connect', () => {
        const remote = socket.remoteAddress ?? ''
        if (!allowed(host, remote)) req.destroy(new Refused(REFUSED))
      })
    })
    req.on('timeout', () =>
      req.destroy(new Errors.UrlFetch(`timed out after ${Math.round(opts.timeoutMs / 1000)} s`))
    )
    req.on('error', err => reject(err))
    const abort = () => req.destroy(stop.reason as Error)
    if (stop.aborted) abort()
    stop.addEventListener('abort', abort, { once: true })
    req.on('close', () => stop.removeEventListener('abort', abort))
    req.end()
  })
}

/** The image at `address`, following at most maxRedirects redirects, each checked again. */
async function fetchFrom (
  guard: Guard,
  maxRedirects: number,
  address: string,
  deadline: number,
  stop: AbortSignal
): Promise<Buffer> {
  let url: URL
  try {
    url = new URL(address)
  } catch {
    throw new Errors.UrlNotHttps()
  }
  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'https:') throw new Errors.UrlNotHttps()
    if (url.username !== '' || url.password !== '') {
      throw new Errors.UrlFetch('addresses with credentials are not fetched')
    }
    let res: { redirect: string } | { body: Buffer }
    try {
      res = await fetchOnce(guard, url, deadline, stop)
    } catch (err) {
      throw stop.aborted ? (stop.reason as Error) : fetchError(err)
    }
    if ('body' in res) return res.body
    if (hop >= maxRedirects) throw new Errors.UrlFetch(`too many redirects (more than ${maxRedirects})`)
    url = new URL(res.redirect)
  }
}

export function createImageFetcher (opts: FetchImageOptions): (url: string) => Promise<Buffer> {
  const allow = new Set((opts.allowHosts ?? []).map(h => bareHost(h)))
  const maxRedirects = opts.maxRedirects ?? 3
  const resolve = opts.lookup ?? dnsLookup

  const allowed = (host: string, address: string) => allow.has(host) || allow.has(address) || isPublicAddress(address)
  const guard: Guard = { allowed, resolve, opts }

  return async (address: string) => {
    const stop = stopping(opts.timeoutMs)
    try {
      return await fetchFrom(guard, maxRedirects, address, Date.now() + opts.timeoutMs, stop.signal)
    } finally {
      stop.clear()
    }
  }
}
