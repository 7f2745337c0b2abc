// SPEC §3, §5, §6: bad texts, batches, similarity pairs, lang_code and new/intent queries answer 400 with a
// JSON body {code, error, message}.
import t from 'tap'
import { build, KEY } from '../../helper.js'
import { isError, post, postForm } from './error-shape.js'

t.test('400: missing, empty or invalid text', async t => {
  const app = await build(t)
  isError(t, await postForm(app, '/v4/sentiment', { api_key: KEY }), 400, /Missing parameter: text/, 'missing text')
  isError(
    t,
    await postForm(app, '/v4/sentiment', { api_key: KEY, text: '' }),
    400,
    /text must be a non-empty string/,
    'empty text'
  )
  isError(
    t,
    await postForm(app, '/v4/sentiment', { api_key: KEY, text: ' \n\t ' }),
    400,
    /text must be a non-empty string/,
    'whitespace text'
  )
  isError(
    t,
    await postForm(app, '/v4/sentiment', { api_key: KEY, text: ['a b', 'c d'] }),
    400,
    /one string on this path.*sentiment_batch/,
    'array on a single path'
  )
  isError(
    t,
    await post(app, '/v4/ner', { api_key: KEY, text: ['a b'] }),
    400,
    /one string on this path/,
    'JSON array on a single path'
  )
  isError(
    t,
    await postForm(app, '/v4/keywords', { api_key: KEY, 'text[0]': 'a b' }),
    400,
    /one string on this path/,
    'indexed on a single path'
  )
})

t.test('400: bad batches', async t => {
  const app = await build(t)
  isError(
    t,
    await post(app, '/v4/sentiment_batch', { api_key: KEY, text: [] }),
    400,
    /at least one text/,
    'empty array'
  )
  isError(
    t,
    await postForm(app, '/v4/sentiment_batch', { api_key: KEY, text: '[]' }),
    400,
    /at least one text/,
    'empty JSON array string'
  )
  isError(
    t,
    await postForm(app, '/v4/sentiment_batch', { api_key: KEY, text: '["a", ' }),
    400,
    /JSON array of strings/,
    'broken JSON array'
  )
  isError(
    t,
    await post(app, '/v4/sentiment_batch', { api_key: KEY, text: ['fine', 3] }),
    400,
    /text\[1\] must be a non-empty string/,
    'number item'
  )
  isError(
    t,
    await post(app, '/v4/sentiment_batch', { api_key: KEY, text: ['fine', ''] }),
    400,
    /text\[1\] must be a non-empty string/,
    'empty item'
  )
  isError(
    t,
    await post(app, '/v4/sentiment_batch', { api_key: KEY, text: ['fine', '  '] }),
    400,
    /text\[1\] must be a non-empty string/,
    'blank item'
  )
  isError(
    t,
    await post(app, '/v4/sentiment_batch', { api_key: KEY, text: ['fine', null] }),
    400,
    /text\[1\] must be a non-empty string/,
    'null item'
  )
  isError(
    t,
    await post(app, '/v4/sentiment_batch', { api_key: KEY, text: ['fine', ['nested']] }),
    400,
    /text\[1\] must be a non-empty string/,
    'nested array item'
  )
  isError(
    t,
    await post(app, '/v4/sentiment_batch', { api_key: KEY, text: Array.from({ length: 1001 }, (_, i) => `text ${i}`) }),
    400,
    /at most 1000 texts; this one has 1001/,
    'over the batch limit'
  )
  const max = await post(app, '/v4/sentiment_batch', {
    api_key: KEY,
    text: Array.from({ length: 1000 }, (_, i) => `text ${i}`)
  })
  t.equal(max.statusCode, 200, 'exactly the batch limit is fine')
})

t.test('400: similarity texts need two words each', async t => {
  const app = await build(t)
  isError(
    t,
    await postForm(app, '/v4/similarity', { api_key: KEY, text_1: 'word', text_2: 'two words' }),
    400,
    /text_1 must contain at least two words/,
    'one word'
  )
  isError(
    t,
    await postForm(app, '/v4/similarity', { api_key: KEY, text_1: 'two words', text_2: '!!! ...' }),
    400,
    /text_2 must contain at least two words/,
    'no words'
  )
  isError(
    t,
    await postForm(app, '/v4/similarity', { api_key: KEY, text_1: 'two words' }),
    400,
    /Missing parameter: text_2/,
    'missing text_2'
  )
  isError(
    t,
    await postForm(app, '/v4/similarity', { api_key: KEY, text_1: 'two words', text_2: '  ' }),
    400,
    /text_2 must be a non-empty string/,
    'blank text_2'
  )
  const ok = await postForm(app, '/v4/similarity', { api_key: KEY, text_1: 'two words', text_2: 'deux mots' })
  t.equal(ok.statusCode, 200)
})

t.test('400: unsupported lang_code lists the supported ones', async t => {
  const app = await build(t)
  isError(
    t,
    await postForm(app, '/v4/sentiment', { api_key: KEY, text: 'hola amigo', lang_code: 'xx' }),
    400,
    /lang_code "xx" is not supported by sentiment; supported: en/,
    'sentiment xx'
  )
  isError(
    t,
    await postForm(app, '/v4/ner', { api_key: KEY, text: 'Hallo Anna', lang_code: 'fr' }),
    400,
    /supported: en, es, nl, de/,
    'ner fr'
  )
  isError(
    t,
    await postForm(app, '/v4/similarity', { api_key: KEY, text_1: 'two words', text_2: 'two more', lang_code: 'ja' }),
    400,
    /not supported by similarity/,
    'similarity ja'
  )
  for (const lang of ['en', 'es', 'nl', 'de', 'DE']) {
    const res = await postForm(app, '/v4/ner', { api_key: KEY, text: 'Anna Schmidt wohnt in Berlin', lang_code: lang })
    t.equal(res.statusCode, 200, `ner ${lang}`)
  }
  t.equal(
    (await postForm(app, '/v4/sentiment', { api_key: KEY, text: 'fine day', lang_code: 'en' })).statusCode,
    200,
    'sentiment en'
  )
})

t.test('400: new/intent query must be feedback', async t => {
  const app = await build(t)
  isError(
    t,
    await postForm(app, '/v4/new/intent', { api_key: KEY, text: 'please fix the app', query: 'other' }),
    400,
    /query must be one of|query must be "feedback"/,
    'query other'
  )
  const ok = await postForm(app, '/v4/new/intent', { api_key: KEY, text: 'please fix the app', query: 'feedback' })
  t.equal(ok.statusCode, 200)
  const body = ok.json() as { intent: Record<string, number>; feedback: Record<string, number> }
  t.same(Object.keys(body.feedback), ['complaint', 'suggestion', 'appreciation'])
  t.ok(Math.abs(Object.values(body.feedback).reduce((a, b) => a + b, 0) - 1) < 1e-5)
  const plain = (await postForm(app, '/v4/new/intent', { api_key: KEY, text: 'please fix the app' })).json() as Record<
    string,
    unknown
  >
  t.same(Object.keys(plain), ['intent'])
})
