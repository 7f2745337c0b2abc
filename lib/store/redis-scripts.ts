// The Redis store's Lua scripts. Every key one of them touches is in the slot of one key id.
// Below them, the signatures of the commands the client defines for them (redis-client.ts).
import type { ChainableCommander } from 'ioredis'

// A rate window: fixed, started by its first request. One found without an expiry would never
// end, so it is given one.
const RATE = `
local function count (key, ms)
  local c = redis.call('INCR', key)
  local ttl = -1
  if c > 1 then ttl = redis.call('PTTL', key) end
  if ttl < 0 then
    redis.call('PEXPIRE', key, ms)
    ttl = ms
  end
  return c, ttl
end
`

export const HIT =
  RATE +
  `
local c, ttl = count(KEYS[1], tonumber(ARGV[1]))
return {c, ttl}
`

// The whole cost of a metered request: its rate count, then (unless that is over the rate) the
// quota check and charge. Returns {charged, daily used, monthly used, why, rate count, rate ttl ms};
// why: 0 charged, 1 refused by the daily quota, 2 by the monthly one, 3 cancelled by an undo,
// 4 over the rate (nothing charged).
export const METER =
  RATE +
  `
-- an undo got here first (this charge was re-sent after a reconnect): do nothing
if redis.call('EXISTS', KEYS[5]) == 1 then return {0, 0, 0, 3, 0, 0} end
local rc, rttl = 0, 0
local window = tonumber(ARGV[1])
if window >= 0 then
  rc, rttl = count(KEYS[1], window)
  if rc > tonumber(ARGV[2]) then return {0, 0, 0, 4, rc, rttl} end
end
local units = tonumber(ARGV[3])
local dl = tonumber(ARGV[4])
local ml = tonumber(ARGV[5])
local d = tonumber(redis.call('GET', KEYS[2]) or '0')
local m = tonumber(redis.call('GET', KEYS[3]) or '0')
if dl >= 0 and d + units > dl then return {0, d, m, 1, rc, rttl} end
if ml >= 0 and m + units > ml then return {0, d, m, 2, rc, rttl} end
d = redis.call('INCRBY', KEYS[2], units)
m = redis.call('INCRBY', KEYS[3], units)
redis.call('EXPIRE', KEYS[2], ARGV[6])
redis.call('EXPIRE', KEYS[3], ARGV[7])
redis.call('HINCRBY', KEYS[4], ARGV[8], units)
redis.call('EXPIRE', KEYS[4], 2764800)
-- a marker naming what was charged, so a charge whose reply was lost can be undone exactly once
redis.call('SET', KEYS[5], KEYS[2] .. '|' .. KEYS[3] .. '|' .. KEYS[4] .. '|' .. ARGV[8] .. '|' .. units, 'EX', 120)
return {1, d, m, 0, rc, rttl}
`

// Takes units back off a day's and a month's counter (never below 0) and off the day's history of
// an operation (the field goes when it reaches 0): an undo and a refund.
const TAKE_BACK = `
local function takeBack (day, month, hist, op, units)
  for _, k in ipairs({day, month}) do
    local c = redis.call('DECRBY', k, units)
    if c < 0 then redis.call('SET', k, 0, 'KEEPTTL') end
  end
  local h = redis.call('HINCRBY', hist, op, -units)
  if h <= 0 then redis.call('HDEL', hist, op) end
end
`

export const UNDO =
  TAKE_BACK +
  `
local v = redis.call('GET', KEYS[1])
-- leave a tombstone either way, so that a late copy of the charge is refused
redis.call('SET', KEYS[1], 'undone', 'EX', 120)
if (not v) or v == 'undone' then return 0 end
local parts = {}
for p in string.gmatch(v, '[^|]+') do table.insert(parts, p) end
takeBack(parts[1], parts[2], parts[3], parts[4], tonumber(parts[5]))
return 1
`

export const REFUND =
  TAKE_BACK +
  `
takeBack(KEYS[1], KEYS[2], KEYS[3], ARGV[2], tonumber(ARGV[1]))
return 1
`

// the client's commands for the scripts: otiaHit, otiaMeter, otiaUndo, otiaRefund
export type HitFn = (key: string, windowMs: number) => Promise<[number, number]>
export type MeterFn = (
  rate: string,
  d: string,
  m: string,
  h: string,
  marker: string,
  windowMs: number,
  max: number,
  units: number,
  dl: number,
  ml: number,
  dttl: number,
  mttl: number,
  op: string
) => ChainableCommander
export type UndoFn = (marker: string) => ChainableCommander
export type RefundFn = (d: string, m: string, h: string, units: number, op: string) => ChainableCommander
