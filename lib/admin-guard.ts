// The admin API's two gates: its token, read from `Authorization: Bearer <token>` (the scheme in
// any case) or X-Admin-Token, and a count of wrong tokens per client address, so that guessing
// one is slow: past FAILURES in a WINDOW_MS window an address is answered 429 until it ends.
import { createHash, timingSafeEqual } from 'node:crypto'

export const FAILURES = 10
export const WINDOW_MS = 60_000
// addresses remembered at most (the oldest window is forgotten first)
const MAX_ADDRESSES = 10_000

const digest = (s: string) => createHash('sha256').update(s).digest()

/** The token a request carries, '' when none. */
export function givenToken (authorization: string | undefined, header: string | string[] | undefined): string {
  const bearer = /^bearer\s+(\S+)\s*$/i.exec(authorization ?? '')
  if (bearer !== null) return bearer[1] as string
  return typeof header === 'string' ? header : ''
}

export class AdminGuard {
  private readonly token: Buffer
  private readonly failed = new Map<string, { count: number; until: number }>()

  constructor (
    token: string,
    private readonly now: () => number = Date.now
  ) {
    this.token = digest(token)
  }

  /** Seconds the address must wait before its next try, or 0 when it may try now. */
  waitOf (address: string): number {
    const f = this.failed.get(address)
    if (f === undefined) return 0
    const left = f.until - this.now()
    if (left <= 0) {
      this.failed.delete(address)
      return 0
    }
    return f.count >= FAILURES ? Math.ceil(left / 1000) : 0
  }

  /** Whether `given` is the token; a wrong one is counted against the address. */
  check (address: string, given: string): boolean {
    if (timingSafeEqual(digest(given), this.token)) return true
    const f = this.failed.get(address) ?? { count: 0, until: this.now() + WINDOW_MS }
    f.count++
    this.failed.delete(address)
    this.failed.set(address, f)
    if (this.failed.size > MAX_ADDRESSES) this.failed.delete(this.failed.keys().next().value as string)
    return false
  }
}
