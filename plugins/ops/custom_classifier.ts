// Zero-shot classification into the caller's own labels. `category` is a JSON list of labels (2021
// clients; answered with {category, confidence_score}) or a JSON object of label to keywords (older
// clients; answered with {tag, confidence_score}). No training per request (lib/text/zero-shot.ts).
import type { FastifyInstance } from 'fastify'
import { textOperation, type TextFields } from '../../lib/http/text-operation.js'
import { Errors } from '../../lib/errors.js'
import type { LoadedModel } from '../../lib/serving/loaded-model.js'
import type { ZeroShotInput, ZeroShotLabel, ZeroShotOutput } from '../../lib/text/zero-shot.js'
import {
  CustomClassifierBody,
  CustomClassifierReply,
  MAX_KEYWORDS,
  MAX_LABEL_CHARS,
  MAX_LABELS
} from '../../schemas/ops/custom_classifier.js'

const SHAPE =
  'category must be a JSON list of labels, e.g. ["sports","politics"], or a JSON object of label to keywords, ' +
  'e.g. {"sports":["match","team"]}'

function parse (raw: unknown): { labels: ZeroShotLabel[]; keyed: boolean } {
  let v = raw
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v)
    } catch {
      throw new Errors.InvalidField(`${SHAPE}; it is not JSON.`)
    }
  }
  let labels: ZeroShotLabel[]
  const keyed = !Array.isArray(v)
  if (Array.isArray(v)) {
    if (!v.every(l => typeof l === 'string')) throw new Errors.InvalidField(`${SHAPE}; every label must be a string.`)
    labels = (v as string[]).map(name => ({ name: name.trim(), keywords: [] }))
  } else if (typeof v === 'object' && v !== null) {
    labels = Object.entries(v).map(([name, kw]) => {
      const list = typeof kw === 'string' ? [kw] : kw
      if (!Array.isArray(list) || !list.every(k => typeof k === 'string')) {
        throw new Errors.InvalidField(`${SHAPE}; the keywords of "${name}" must be a list of strings.`)
      }
      if (list.length > MAX_KEYWORDS) {
        throw new Errors.InvalidField(
          `The label "${name}" has ${list.length} keywords; at most ${MAX_KEYWORDS} are allowed.`
        )
      }
      const long = list.find(k => k.length > MAX_LABEL_CHARS)
      if (long !== undefined) {
        throw new Errors.InvalidField(`A keyword of "${name}" is longer than ${MAX_LABEL_CHARS} characters.`)
      }
      return { name: name.trim(), keywords: list.map(k => k.trim()).filter(k => k !== '') }
    })
  } else {
    throw new Errors.InvalidField(`${SHAPE}.`)
  }
  for (const l of labels) {
    if (l.name === '') throw new Errors.InvalidField('A label is empty.')
    if (l.name.length > MAX_LABEL_CHARS) {
      throw new Errors.InvalidField(
        `The label "${l.name.slice(0, 20)}..." is longer than ${MAX_LABEL_CHARS} characters.`
      )
    }
  }
  // a label given twice is answered once (the Node client's own example repeats one)
  const seen = new Set<string>()
  labels = labels.filter(l => !seen.has(l.name) && seen.add(l.name) !== undefined)
  if (labels.length < 2) {
    throw new Errors.InvalidField(`category must hold at least 2 different labels; it has ${labels.length}.`)
  }
  if (labels.length > MAX_LABELS) {
    throw new Errors.InvalidField(`category holds at most ${MAX_LABELS} labels; it has ${labels.length}.`)
  }
  return { labels, keyed }
}

async function run (
  texts: string[],
  body: TextFields<typeof CustomClassifierBody>,
  model: LoadedModel<any, any>
): Promise<CustomClassifierReply[]> {
  const { labels, keyed } = parse(body.category)
  const out = await (model as LoadedModel<ZeroShotInput, ZeroShotOutput>).predict(texts.map(text => ({ text, labels })))
  return out.map(r => {
    if (!Array.isArray(r)) {
      const names = r.unknown.map(i => `"${labels[i]!.name}"`).join(', ')
      throw new Errors.InvalidField(
        `No word of the label${r.unknown.length > 1 ? 's' : ''} ${names}${keyed ? ' (or of its keywords)' : ''} ` +
          'is known to the English word vectors; ' +
          `name it in common English words${keyed ? ' or add keywords' : ''}.`
      )
    }
    const ranked = labels.map((l, i) => ({ name: l.name, score: r[i] as number })).sort((a, b) => b.score - a.score)
    return {
      taxonomy: keyed
        ? ranked.map(x => ({ tag: x.name, confidence_score: x.score }))
        : ranked.map(x => ({ category: x.name, confidence_score: x.score }))
    }
  })
}

export default async function customClassifier (fastify: FastifyInstance) {
  textOperation(fastify, {
    op: 'custom_classifier',
    model: 'custom_classifier',
    summary:
      'Custom classifier: zero-shot scores of your own labels ' +
      '(a JSON list of labels, or an object of label to keywords) for a text',
    batch: false,
    body: { single: CustomClassifierBody, batch: CustomClassifierBody },
    reply: CustomClassifierReply,
    run,
    single: r => r
  })
}
