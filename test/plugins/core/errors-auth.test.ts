// SPEC §3, §5, §6: a missing, unknown or mistyped api_key (401, 406) and a parameter of the wrong type (406)
// answer their status with a JSON body {code, error, message}.
import t from 'tap'
import { build, KEY, multipart } from '../../helper.js'
import { isError, post, postForm } from './error-shape.js'

t.test('401: missing, empty or unknown api_key', async t => {
  const app = await build(t)
  isError(t, await postForm(app, '/v4/sentiment', { text: 'hello there' }), 401, /Missing api_key/, 'missing')
  isError(
    t,
    await postForm(app, '/v4/sentiment', { text: 'hello there', api_key: '' }),
    401,
    /Missing api_key/,
    'empty'
  )
  isError(
    t,
    await postForm(app, '/v4/sentiment', { text: 'hello there', api_key: '   ' }),
    401,
    /Missing api_key/,
    'blank'
  )
  isError(
    t,
    await postForm(app, '/v4/sentiment', { text: 'hello there', api_key: 'nope' }),
    401,
    /Invalid api_key/,
    'unknown'
  )
  isError(
    t,
    await postForm(app, '/v4/facial_emotion', { url: 'https://example.com/a.jpg', api_key: 'nope' }),
    401,
    /Invalid api_key/,
    'unknown, image op'
  )
  isError(t, await postForm(app, '/usage', { api_key: 'nope' }), 401, /Invalid api_key/, 'unknown, usage')
})

t.test('406: api_key present but not a string', async t => {
  const app = await build(t)
  isError(
    t,
    await post(app, '/v4/sentiment', { api_key: 12345, text: 'hello there' }),
    406,
    /api_key must be a string/,
    'number'
  )
  isError(
    t,
    await post(app, '/v4/sentiment', { api_key: { k: KEY }, text: 'hello there' }),
    406,
    /api_key must be a string/,
    'object'
  )
  isError(
    t,
    await post(app, '/v4/sentiment', { api_key: [KEY], text: 'hello there' }),
    406,
    /api_key must be a string/,
    'array'
  )
  isError(
    t,
    await app.inject({
      method: 'POST',
      url: '/v4/sentiment',
      ...multipart([
        { name: 'api_key', value: KEY, filename: 'key.txt' },
        { name: 'text', value: 'hello there' }
      ])
    }),
    406,
    /api_key must be a string/,
    'file part'
  )
})

t.test('406: a parameter of the wrong type', async t => {
  const app = await build(t)
  isError(t, await post(app, '/v4/sentiment', { api_key: KEY, text: 42 }), 406, /text must be a string/, 'text number')
  isError(
    t,
    await post(app, '/v4/sentiment', { api_key: KEY, text: { a: 1 } }),
    406,
    /text must be a string/,
    'text object'
  )
  isError(
    t,
    await post(app, '/v4/sentiment_batch', { api_key: KEY, text: { a: 1 } }),
    406,
    /text must be an array/,
    'batch text object'
  )
  isError(t, await post(app, '/v4/facial_emotion', { api_key: KEY, url: 7 }), 406, /url must be a string/, 'url number')
  isError(
    t,
    await post(app, '/v4/facial_emotion', { api_key: KEY, file: 'not a file' }),
    406,
    /file must be an uploaded file/,
    'file as a string'
  )
  isError(
    t,
    await post(app, '/v4/similarity', { api_key: KEY, text_1: 'two words', text_2: 5 }),
    406,
    /text_2 must be a string/,
    'text_2 number'
  )
  isError(
    t,
    await post(app, '/v4/sentiment', { api_key: KEY, text: 'two words', lang_code: 3 }),
    406,
    /lang_code must be a string/,
    'lang_code number'
  )
})
