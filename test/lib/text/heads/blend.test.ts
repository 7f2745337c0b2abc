// The blend: log-linear pooling of its members' scores, the members' labels put in its order, and the
// served English sentiment through the route (the members loaded as the service loads them).
import t from 'tap'
import { blendOf, loadBlend, pool } from '../../../../lib/text/heads/blend.js'
import type { LoadedModel } from '../../../../lib/serving/loaded-model.js'
import type { ModelManifest } from '../../../../schemas/model-manifest.js'
import { buildWithRealModels, KEY } from '../../../helper.js'

const close = (a: number[], b: number[]) => a.every((x, i) => Math.abs(x - (b[i] as number)) < 1e-9)

t.test('pooling: a weighted geometric mean, renormalised, sharpened by a temperature under 1', async t => {
  t.ok(
    close(
      pool(
        [
          [0.2, 0.8],
          [0.2, 0.8]
        ],
        [0.5, 0.5]
      ),
      [0.2, 0.8]
    ),
    'two members that agree'
  )
  const mean = pool(
    [
      [0.9, 0.1],
      [0.1, 0.9]
    ],
    [0.5, 0.5]
  )
  t.ok(close(mean, [0.5, 0.5]), 'two that disagree alike cancel')
  t.ok(
    close(
      pool(
        [
          [0.9, 0.1],
          [0.1, 0.9]
        ],
        [1, 0]
      ),
      [0.9, 0.1]
    ),
    'weight 1 is that member'
  )
  const sharp = pool([[0.3, 0.7]], [1], 0.5)
  t.ok(sharp[1]! > 0.7 && Math.abs(sharp[0]! + sharp[1]! - 1) < 1e-12, 'T 0.5 sharpens')
})

const member = (labels: string[], rows: number[]): LoadedModel<string, number[]> => ({
  manifest: { labels } as ModelManifest,
  predict: async (texts: string[]) => texts.map(() => rows),
  dispose () {}
})

t.test('the loader reads members by name and in its own label order', async t => {
  const manifest = {
    name: 'b',
    labels: ['neg', 'pos'],
    blend: {
      op: 'x',
      members: [
        { model: 'a', weight: 0.5 },
        { model: 'c', weight: 0.5 }
      ]
    }
  } as unknown as ModelManifest
  const models: Record<string, LoadedModel<string, number[]>> = {
    a: member(['neg', 'pos'], [0.2, 0.8]),
    c: member(['pos', 'neg'], [0.8, 0.2])
  }
  const blend = await loadBlend('', manifest, undefined, { imageMaxPixels: 0, model: n => models[n] })
  const [scores] = await blend.predict(['a text'])
  t.ok(close(scores!, [0.2, 0.8]), "c's labels were reordered")
  const none = loadBlend('', manifest, undefined, { imageMaxPixels: 0, model: () => undefined })
  await t.rejects(none, /member a is not loaded/)
})

t.test('/v4/sentiment answers English from the blend of the CNN and the encoder head', async t => {
  const app = await buildWithRealModels(t, ['sentiment', 'sentiment-multilingual', 'text-encoder', 'sentiment-blend'])
  const text = 'Not bad at all, I would buy it again.'
  const ask = (text: string, lang: string) =>
    app.inject({ method: 'POST', url: '/v4/sentiment', payload: { api_key: KEY, text, lang_code: lang } })
  const res = await ask(text, 'en')
  t.equal(res.statusCode, 200)
  const got = (res.json() as { sentiment: Record<string, number> }).sentiment
  const [cnn] = (await app.models.get('sentiment')!.predict([text])) as number[][]
  const [head] = (await app.models.get('sentiment-multilingual')!.predict([text])) as number[][]
  const blend = app.models.get('sentiment-blend')!
  const temperature = blendOf(blend.manifest)!.temperature
  const want = pool([cnn!, head!], [0.5, 0.5], temperature)
  const labels = ['negative', 'neutral', 'positive']
  t.ok(
    labels.every((l, i) => Math.abs((got[l] as number) - (want[i] as number)) < 1e-6),
    `${JSON.stringify(got)}`
  )
  t.ok(Math.abs((got.positive as number) - (cnn![2] as number)) > 1e-6, 'not the CNN alone')
  const de = await ask('Das Essen war kalt.', 'de')
  t.equal(de.statusCode, 200, 'other languages still go to the head')
})

t.test('MODELS_OFF=sentiment-blend: English from the CNN alone', async t => {
  const names = ['sentiment', 'sentiment-multilingual', 'text-encoder', 'sentiment-blend']
  const app = await buildWithRealModels(t, names, { env: { MODELS_OFF: 'sentiment-blend' } })
  t.equal(app.models.get('sentiment-blend'), undefined, 'not loaded')
  const text = 'The delivery was late again.'
  const payload = { api_key: KEY, text, lang_code: 'en' }
  const res = await app.inject({ method: 'POST', url: '/v4/sentiment', payload })
  const got = res.json() as { sentiment: Record<string, number> }
  const [cnn] = (await app.models.get('sentiment')!.predict([text])) as number[][]
  t.same([got.sentiment.negative, got.sentiment.neutral, got.sentiment.positive], cnn)
})

// intent runs its texts (no language routing): the blend, when installed, runs them in place of the CNN
const INTENT = ['intent', 'intent-head', 'text-encoder', 'intent-blend']
const INTENT_LABELS = ['news', 'query', 'spam', 'marketing', 'feedback']
t.test('/v4/intent and intent_batch answer from the blend of the CNN and the encoder head', async t => {
  const app = await buildWithRealModels(t, INTENT)
  const texts = ['Hi Jim, the budget review moved to Thursday at 3pm, see you there.', 'Where is my parcel?']
  const res = await app.inject({ method: 'POST', url: '/v4/intent_batch', payload: { api_key: KEY, text: texts } })
  t.equal(res.statusCode, 200)
  const got = (res.json() as { intent: Array<{ intent: Record<string, number> }> }).intent.map(r => r.intent)
  const cnn = (await app.models.get('intent')!.predict(texts)) as number[][]
  const head = (await app.models.get('intent-head')!.predict(texts)) as number[][]
  const blend = app.models.get('intent-blend')!
  const temperature = blendOf(blend.manifest)!.temperature
  texts.forEach((_, k) => {
    const want = pool([cnn[k]!, head[k]!], [0.5, 0.5], temperature)
    const row = got[k]!
    t.ok(INTENT_LABELS.every((l, i) => Math.abs(row[l]! - want[i]!) < 1e-6), JSON.stringify(row))
    t.ok(Math.abs(row.news! - cnn[k]![0]!) > 1e-6, 'not the CNN alone')
  })
  // alone, a text's scores move a little from those it has in a batch (the int8 encoder scales each pass's
  // activations by the pass: lib/text/heads/tuned.ts), its label not
  const near = (a: Record<string, number>, b: Record<string, number>) =>
    INTENT_LABELS.every(l => Math.abs(a[l]! - b[l]!) < 0.01) && argmax(a) === argmax(b)
  const one = await app.inject({ method: 'POST', url: '/v4/intent', payload: { api_key: KEY, text: texts[1] } })
  t.ok(near((one.json() as { intent: Record<string, number> }).intent, got[1]!), 'the single path answers alike')
  const alike = await app.inject({ method: 'POST', url: '/v4/new/intent', payload: { api_key: KEY, text: texts[1] } })
  t.ok(near((alike.json() as { intent: Record<string, number> }).intent, got[1]!), '/v4/new/intent: alike scores')
})
const argmax = (r: Record<string, number>) => INTENT_LABELS.reduce((a, b) => (r[b]! > r[a]! ? b : a))

t.test('MODELS_OFF=intent-blend: intent from the CNN alone', async t => {
  const app = await buildWithRealModels(t, INTENT, { env: { MODELS_OFF: 'intent-blend' } })
  t.equal(app.models.get('intent-blend'), undefined, 'not loaded')
  const text = 'Please find the signed contract attached.'
  const res = await app.inject({ method: 'POST', url: '/v4/intent', payload: { api_key: KEY, text } })
  const got = (res.json() as { intent: Record<string, number> }).intent
  const [cnn] = (await app.models.get('intent')!.predict([text])) as number[][]
  t.same(INTENT_LABELS.map(l => got[l]), cnn)
})

t.test('/v4/sarcasm answers English from the blend (CNN 0.7, encoder head 0.3)', async t => {
  const app = await buildWithRealModels(t, ['sarcasm', 'sarcasm-head', 'text-encoder', 'sarcasm-blend'])
  const text = 'Oh great, another Monday. Just what I needed.'
  const res = await app.inject({ method: 'POST', url: '/v4/sarcasm', payload: { api_key: KEY, text, lang_code: 'en' } })
  t.equal(res.statusCode, 200)
  const got = res.json() as Record<string, number>
  const [cnn] = (await app.models.get('sarcasm')!.predict([text])) as number[][]
  const [head] = (await app.models.get('sarcasm-head')!.predict([text])) as number[][]
  const blend = app.models.get('sarcasm-blend')!
  const temperature = blendOf(blend.manifest)!.temperature
  const want = pool([cnn!, head!], [0.7, 0.3], temperature)
  const labels = blend.manifest.labels
  t.ok(labels.every((l, i) => Math.abs(got[l]! - want[i]!) < 1e-6), JSON.stringify(got))
  t.ok(Math.abs(got[labels[0]!]! - cnn![0]!) > 1e-6, 'not the CNN alone')
})

// the feedback split of /new/intent: the blend of the word-order model and its encoder head, when installed
const FEEDBACK = ['intent', 'new_intent', 'new_intent-head', 'text-encoder', 'new_intent-blend']
t.test('/v4/new/intent with query=feedback answers the feedback split from the blend', async t => {
  const app = await buildWithRealModels(t, FEEDBACK)
  const text = 'The app keeps crashing when I open the camera, please fix it.'
  const payload = { api_key: KEY, text, query: 'feedback' }
  const res = await app.inject({ method: 'POST', url: '/v4/new/intent', payload })
  t.equal(res.statusCode, 200)
  const got = (res.json() as { feedback: Record<string, number> }).feedback
  const [cnn] = (await app.models.get('new_intent')!.predict([text])) as number[][]
  const [head] = (await app.models.get('new_intent-head')!.predict([text])) as number[][]
  const temperature = blendOf(app.models.get('new_intent-blend')!.manifest)!.temperature
  const want = pool([cnn!, head!], [0.5, 0.5], temperature)
  const labels = ['complaint', 'suggestion', 'appreciation']
  t.ok(labels.every((l, i) => Math.abs(got[l]! - want[i]!) < 1e-6), JSON.stringify(got))
  t.ok(Math.abs(got.complaint! - cnn![0]!) > 1e-6, 'not the word-order model alone')
  const off = await buildWithRealModels(t, FEEDBACK, { env: { MODELS_OFF: 'new_intent-blend' } })
  const plain = await off.inject({ method: 'POST', url: '/v4/new/intent', payload })
  const alone = (plain.json() as { feedback: Record<string, number> }).feedback
  t.same(labels.map(l => alone[l]), cnn, 'MODELS_OFF=new_intent-blend: the word-order model alone')
})

t.test('/v4/emotion answers English from the blend (CNN 0.6, tuned head 0.4); German as without it', async t => {
  const names = ['emotion', 'emotion-head', 'emotion-multilingual', 'text-encoder', 'emotion-blend']
  const app = await buildWithRealModels(t, names)
  const off = await buildWithRealModels(t, names, { env: { MODELS_OFF: 'emotion-blend' } })
  const ask = async (on: typeof app, text: string, lang: string) => {
    const payload = { api_key: KEY, text, lang_code: lang }
    const res = await on.inject({ method: 'POST', url: '/v4/emotion', payload })
    t.equal(res.statusCode, 200)
    return (res.json() as { emotion: Record<string, number> }).emotion
  }
  const text = 'I cannot believe they cancelled my flight again, I am furious.'
  const got = await ask(app, text, 'en')
  const [cnn] = (await app.models.get('emotion')!.predict([text])) as number[][]
  const [head] = (await app.models.get('emotion-head')!.predict([text])) as number[][]
  const blend = app.models.get('emotion-blend')!
  const want = pool([cnn!, head!], [0.6, 0.4], blendOf(blend.manifest)!.temperature)
  const labels = blend.manifest.labels
  t.ok(labels.every((l, i) => Math.abs(got[l]! - want[i]!) < 1e-6), JSON.stringify(got))
  t.ok(Math.abs(got[labels[0]!]! - cnn![0]!) > 1e-6, 'not the CNN alone')
  t.same(await ask(off, text, 'en'), Object.fromEntries(labels.map((l, i) => [l, cnn![i]])), 'off: the CNN')
  const german = 'Ich habe solche Angst vor der Prüfung morgen.'
  t.same(await ask(app, german, 'de'), await ask(off, german, 'de'), 'German: emotion-multilingual either way')
})
