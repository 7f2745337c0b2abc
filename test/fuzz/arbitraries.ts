// The fuzzer's generators (fast-check): the API's paths, field names (the known ones, odd ones and random
// strings) and values (random Unicode and binary, JSON-looking strings, long texts, the test key), and the
// fields of a request with its api_key first.
import fc from 'fast-check'
import { KEY } from '../helper.js'

export const PATHS = [
  'sentiment',
  'sentiment_batch',
  'ner',
  'ner_batch',
  'taxonomy',
  'taxonomy_batch',
  'keywords',
  'keywords_batch',
  'emotion',
  'emotion_batch',
  'sarcasm',
  'sarcasm_batch',
  'intent',
  'intent_batch',
  'new/intent',
  'new/intent_batch',
  'similarity',
  'facial_emotion',
  'object_recognizer'
]
  .map(p => `/v4/${p}`)
  .concat(['/v3/facial_emotion', '/usage', '/v4/usage', '/v4/nope'])
const NAMES = [
  'api_key',
  'text',
  'text_1',
  'text_2',
  'lang_code',
  'query',
  'file',
  'url',
  'text[0]',
  'text[1]',
  'text[]',
  'text[99999999]',
  '__proto__',
  'constructor',
  'filename'
]

export const path = fc.constantFrom(...PATHS)
export const name = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NAMES) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) }
)
export const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\n\t',
    '[]',
    '[',
    '["a"',
    '[1,2]',
    '["a", ""]',
    '{"a":1}',
    'null',
    'en',
    'EN',
    'feedback',
    'https://127.0.0.1/x.jpg',
    'http://x',
    KEY,
    `${KEY} `
  ),
  fc.array(fc.string({ maxLength: 10 }), { maxLength: 5 }).map(a => JSON.stringify(a)),
  fc.nat({ max: 3000 }).map(n => 'w '.repeat(n))
)
export const apiKey = fc.oneof({ weight: 5, arbitrary: fc.constant(KEY) }, { weight: 1, arbitrary: text })
export const fields = fc
  .tuple(apiKey, fc.array(fc.tuple(name, text), { maxLength: 8 }))
  .map(([k, rest]) => [['api_key', k] as [string, string], ...rest])
