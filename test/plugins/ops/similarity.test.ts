import t from 'tap'
import { build, buildWithRealModels, FORM, form, hasRealModel, KEY, MODEL_STORE } from '../../helper.js'
import { wordCount } from '../../../plugins/ops/similarity.js'
import { scanStore } from '../../../lib/serving/registry.js'

t.test('two-word rule counts words in any script', async t => {
  t.equal(wordCount('hello'), 1)
  t.equal(wordCount('hello world'), 2)
  t.equal(wordCount('Grüße aus Köln'), 3)
  t.equal(wordCount('  ...  !!  '), 0)
  t.equal(wordCount('über-morgen'), 2)
})

t.test('scores: similarity_score = actual_score in [0, 1], normalized_score = 5x', async t => {
  const app = await build(t)
  const same = (
    await app.inject({
      method: 'POST',
      url: '/v4/similarity',
      headers: FORM,
      payload: form({ api_key: KEY, text_1: 'the same words', text_2: 'the same words' })
    })
  ).json() as Record<string, number>
  t.equal(same.similarity_score, 1)
  t.equal(same.normalized_score, 5)
  const diff = (
    await app.inject({
      method: 'POST',
      url: '/v4/similarity',
      headers: FORM,
      payload: form({ api_key: KEY, text_1: 'cats purr', text_2: 'stocks fell' })
    })
  ).json() as Record<string, number>
  t.equal(diff.similarity_score, 0)
  t.equal(diff.actual_score, 0)
})

t.test('fewer than two words in either text: 400 JSON naming the field', async t => {
  const app = await build(t)
  for (const [text1, text2, field] of [
    ['hello', 'two words', 'text_1'],
    ['two words', 'hello', 'text_2']
  ]) {
    const res = await app.inject({
      method: 'POST',
      url: '/v4/similarity',
      headers: FORM,
      payload: form({ api_key: KEY, text_1: text1!, text_2: text2! })
    })
    t.equal(res.statusCode, 400)
    t.match(res.headers['content-type'], /application\/json/)
    t.match(res.json(), { code: 400, message: new RegExp(`${field} must contain at least two words`) })
  }
})

const realSkip = hasRealModel('similarity')
  ? false
  : 'model-store/similarity not trained yet (npm run train -- similarity)'

// a paraphrase and an unrelated sentence for every language the model may serve
const CASES: Record<string, { a: string; para: string; other: string }> = {
  en: {
    a: 'A man is playing the guitar on stage.',
    para: 'A man plays a guitar on the stage.',
    other: 'The stock market fell sharply on Tuesday.'
  },
  de: {
    a: 'Ein Mann spielt auf der Bühne Gitarre.',
    para: 'Ein Mann spielt Gitarre auf der Bühne.',
    other: 'Der Aktienmarkt ist am Dienstag stark gefallen.'
  },
  es: {
    a: 'Un hombre está tocando la guitarra en el escenario.',
    para: 'Un hombre toca la guitarra en el escenario.',
    other: 'La bolsa cayó bruscamente el martes.'
  },
  nl: {
    a: 'Een man speelt gitaar op het podium.',
    para: 'Een man speelt op het podium gitaar.',
    other: 'De aandelenmarkt daalde dinsdag sterk.'
  }
}

t.test('the trained model', { skip: realSkip }, async t => {
  const app = await buildWithRealModels(t, ['similarity'])
  const served = (await scanStore(MODEL_STORE)).find(i => i.name === 'similarity')!.manifest.languages
  t.ok(served.includes('en'), 'English is served')
  const score = async (text1: string, text2: string, lang?: string) => {
    const res = await app.inject({
      method: 'POST',
      url: '/v4/similarity',
      headers: FORM,
      payload: form({ api_key: KEY, text_1: text1, text_2: text2, ...(lang ? { lang_code: lang } : {}) })
    })
    t.equal(res.statusCode, 200, res.body)
    const body = res.json() as { similarity_score: number; actual_score: number; normalized_score: number }
    t.ok(body.similarity_score >= 0 && body.similarity_score <= 1, `in [0, 1]: ${body.similarity_score}`)
    t.equal(body.actual_score, body.similarity_score)
    t.ok(Math.abs(body.normalized_score - 5 * body.similarity_score) < 1e-9)
    return body.similarity_score
  }

  for (const lang of served) {
    t.test(
      `${lang}: a paraphrase scores clearly above an unrelated sentence; symmetric; identical texts high`,
      async t => {
        const c = CASES[lang]
        if (c === undefined) return t.fail(`no test sentences for served language ${lang}`)
        const para = await score(c.a, c.para, lang)
        const other = await score(c.a, c.other, lang)
        t.ok(para > 0.6, `paraphrase ${para}`)
        t.ok(other < 0.3, `unrelated ${other}`)
        t.ok(para - other > 0.4, `paraphrase ${para} vs unrelated ${other}`)
        const swapped = await score(c.para, c.a, lang)
        t.ok(Math.abs(swapped - para) < 0.05, `symmetric-ish: ${para} / ${swapped}`)
        t.ok((await score(c.a, c.a, lang)) > 0.85, 'identical texts')
      }
    )
  }

  t.test('lang_code omitted means English', async t => {
    t.equal(await score(CASES.en!.a, CASES.en!.para), await score(CASES.en!.a, CASES.en!.para, 'en'))
  })

  t.test('an unsupported lang_code answers 400 JSON listing the served languages', async t => {
    for (const lang of ['fr', 'xx', ...['de', 'es', 'nl'].filter(l => !served.includes(l))]) {
      const res = await app.inject({
        method: 'POST',
        url: '/v4/similarity',
        headers: FORM,
        payload: form({ api_key: KEY, text_1: 'a dog runs', text_2: 'a dog is running', lang_code: lang })
      })
      t.equal(res.statusCode, 400, lang)
      t.match(res.headers['content-type'], /application\/json/)
      t.match(res.json(), {
        code: 400,
        message: new RegExp(`"${lang}" is not supported by similarity; supported: ${served.join(', ')}`)
      })
    }
  })

  t.test('a 100,000-character text is answered, without hanging', async t => {
    const long = 'the quick brown fox jumps over the lazy dog '.repeat(2300).slice(0, 100_000)
    t.equal(long.length, 100_000)
    const t0 = performance.now()
    const s = await score(long, 'a quick brown fox jumped over a dog')
    // a guard against a hang or a quadratic path, not a speed target (the load test prints those)
    t.ok(performance.now() - t0 < 60_000, `${Math.round(performance.now() - t0)} ms`)
    t.ok(s >= 0 && s <= 1)
    t.ok((await score(long, long)) > 0.85, 'the same long text')
  })
})
