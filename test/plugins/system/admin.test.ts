// The admin API refuses what it cannot honour: unknown plan fields and limits that are not whole
// numbers are 400s naming the field (never a key with other limits than asked), the token's scheme
// is read in any case, and wrong tokens are throttled per address.
import t from 'tap'
import { build, form, FORM } from '../../helper.js'
import { FAILURES } from '../../../lib/admin-guard.js'

const TOKEN = 'sesame-sesame'
const env = { ADMIN_TOKEN: TOKEN, MAX_EVENT_LOOP_DELAY_MS: '0' }
const auth = { authorization: `Bearer ${TOKEN}` }

t.test('bad plans are 400s that name the field; a good one is kept as asked, in JSON and in a form', async t => {
  const app = await build(t, { env })
  const create = (payload: unknown) =>
    app.inject({ method: 'POST', url: '/admin/keys', headers: auth, payload: payload as object })
  const createByForm = (fields: Record<string, string>) =>
    app.inject({ method: 'POST', url: '/admin/keys', headers: { ...auth, ...FORM }, payload: form(fields) })
  const keys = async () => (await app.inject({ method: 'GET', url: '/admin/keys', headers: auth })).json().keys
  const refused: Array<[unknown, string]> = [
    [{ name: 'a', plan: { bogus: 1 } }, 'plan[bogus] is not a field this path takes.'],
    [{ name: 'a', plan: { textDaily: '5' } }, 'plan[textDaily] must be an integer or null.'],
    [{ name: 'a', plan: { textDaily: 2.5 } }, 'plan[textDaily] must be an integer or null.'],
    [{ name: 'a', plan: { rate: 'fast' } }, 'plan[rate] must be a number or null.'],
    [{ name: 'a', plan: 'unlimited' }, 'plan must be of type object.'],
    [{ name: 'a', owner: 'me' }, 'owner is not a field this path takes.']
  ]
  for (const [payload, message] of refused) {
    const res = await create(payload)
    t.equal(res.statusCode, res.json().message.startsWith('plan must') ? 406 : 400, JSON.stringify(payload))
    t.equal(res.json().message, message)
  }
  const minus = await create({ name: 'a', plan: { imageDaily: -1 } })
  t.equal(minus.statusCode, 400)
  t.match(minus.json().message, /^plan\[imageDaily\] is invalid: must be >= 0/)
  const formBad = await createByForm({ name: 'f', 'plan[textDaily]': 'abc' })
  t.equal(formBad.statusCode, 400)
  t.equal(formBad.json().message, 'plan[textDaily] must be an integer or null.')
  t.equal((await keys()).length, 0, 'no key was made by any of them')

  const json = await create({ name: 'j', plan: { textDaily: 5, rate: null } })
  t.equal(json.statusCode, 201)
  t.match(json.json().record.plan, { textDaily: 5, rate: null })
  const viaForm = await createByForm({ name: 'f', 'plan[textDaily]': '7', 'plan[imageDaily]': 'null' })
  t.equal(viaForm.statusCode, 201)
  t.match(viaForm.json().record.plan, { textDaily: 7, imageDaily: null })
  const id = json.json().record.id as string
  const lots = { plan: { textMonthly: 'lots' } }
  const patch = await app.inject({ method: 'PATCH', url: `/admin/keys/${id}`, headers: auth, payload: lots })
  t.equal(patch.statusCode, 400)
  t.equal(patch.json().message, 'plan[textMonthly] must be an integer or null.')
})

t.test('the Bearer scheme in any case, or X-Admin-Token', async t => {
  const app = await build(t, { env })
  const list = async (headers: Record<string, string>) =>
    (await app.inject({ method: 'GET', url: '/admin/keys', headers })).statusCode
  for (const authorization of [`bearer ${TOKEN}`, `BEARER ${TOKEN}`, `Bearer  ${TOKEN}`]) {
    t.equal(await list({ authorization }), 200, authorization)
  }
  t.equal(await list({ 'x-admin-token': TOKEN }), 200)
  t.equal(await list({ authorization: `Basic ${TOKEN}` }), 401)
})

const throttled = 'wrong tokens are throttled per address: 429 JSON with Retry-After, the right token too, others not'
t.test(throttled, async t => {
  const app = await build(t, { env })
  const from = (remoteAddress: string, token: string) =>
    app.inject({ method: 'GET', url: '/admin/keys', remoteAddress, headers: { authorization: `Bearer ${token}` } })
  for (let i = 0; i < FAILURES; i++) t.equal((await from('203.0.113.9', `guess-${i}`)).statusCode, 401)
  const res = await from('203.0.113.9', 'one more')
  t.equal(res.statusCode, 429)
  t.same(Object.keys(res.json()), ['code', 'error', 'message'])
  t.match(res.json().message, /Too many wrong admin tokens from this address; retry in \d+ s/)
  t.ok(Number(res.headers['retry-after']) > 0)
  t.ok(res.headers['x-request-id'])
  t.equal((await from('203.0.113.9', TOKEN)).statusCode, 429, 'not even the right token gets through from there')
  t.equal((await from('198.51.100.7', TOKEN)).statusCode, 200, 'another address is not held up')
})
