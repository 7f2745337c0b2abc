// What the three metering plugins (auth, rate-limit, quota) share: the narrow part of the store
// each one uses, how a plan's rate becomes a fixed window, and the 503 of an unreachable store.
import { Errors, withHeaders } from './errors.js'
import type { Store } from './store/types.js'

/** authentication reads keys */
export type KeyStore = Pick<Store, 'getKeyByHash' | 'listKeys'>
/** the rate limit counts requests in fixed windows */
export type RateStore = Pick<Store, 'hit'>
/** the quota counts a request in its window and charges it in one step, and takes charges back */
export type QuotaStore = Pick<Store, 'meter' | 'charge' | 'refund' | 'undo'>

/** The window of a rate of r requests per second: r per second when r >= 1, else one per 1/r seconds. */
export function windowOf (rate: number): number {
  return rate >= 1 ? 1000 : Math.round(1000 / rate)
}
/** The requests a window of that rate allows. */
export function maxOf (rate: number): number {
  return Math.max(1, Math.floor(rate))
}
/** Whole seconds until a window with `ttl` ms left allows again (at least 1). */
export function retryIn (ttl: number): number {
  return Math.max(1, Math.ceil(ttl / 1000))
}

/** The answer while the quota store does not answer: 503, retry in a second. */
export function storeUnavailable (): Error {
  return withHeaders(new Errors.StoreUnavailable(), { 'retry-after': 1 })
}
