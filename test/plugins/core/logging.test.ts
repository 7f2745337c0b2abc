// Keys never reach the logs: the request log of real traffic is captured and searched.
import t from 'tap'
import { Writable } from 'node:stream'
import { build, form, FORM, KEY, multipart } from '../../helper.js'

t.test('api_key is redacted from request logs in every encoding', async t => {
  const lines: string[] = []
  const stream = new Writable({
    write (chunk, _enc, cb) {
      lines.push(String(chunk))
      cb()
    }
  })
  const { loadConfig } = await import('../../../lib/config.js')
  const { serverOptions } = await import('../../../options.js')
  const opts = serverOptions(loadConfig({ LOG_LEVEL: 'debug' }))
  const app = await build(t, { logger: { ...(opts.logger as object), stream } })
  const secret = 'sup3r-s3cret-key-value'
  await app.inject({ method: 'POST', url: `/v4/sentiment?api_key=${KEY}&text=hi+there` })
  await app.inject({ method: 'POST', url: `/v4/sentiment?text=hi&api_key=${secret}` })
  await app.inject({
    method: 'POST',
    url: '/v4/sentiment',
    headers: FORM,
    payload: form({ api_key: secret, text: 'hi there' })
  })
  await app.inject({ method: 'POST', url: '/v4/sentiment', payload: { api_key: secret, text: 'hi there' } })
  await app.inject({
    method: 'POST',
    url: '/v4/sentiment',
    ...multipart([
      { name: 'api_key', value: secret },
      { name: 'text', value: 'x y' }
    ])
  })
  await app.inject({ method: 'GET', url: '/admin/keys', headers: { authorization: `Bearer ${secret}` } })
  const m = app.models.get('sentiment')!
  const orig = m.predict.bind(m)
  m.predict = async () => {
    throw new Error('failure while scoring')
  }
  await app.inject({ method: 'POST', url: '/v4/sentiment', payload: { api_key: KEY, text: 'boom now' } })
  m.predict = orig
  const log = lines.join('')
  t.ok(lines.length > 10, 'requests were logged')
  t.match(log, /api_key=\[REDACTED\]/, 'the url is logged, redacted')
  t.match(log, /failure while scoring/, 'errors are logged')
  t.notMatch(log, secret, 'no key in the log')
  t.notMatch(log, KEY, 'no key in the log')
})
