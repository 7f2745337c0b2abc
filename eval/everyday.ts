// The everyday texts by kind: npm run eval writes eval/everyday.md, how often each English text
// classifier is right on the project's own everyday texts (eval/data/everyday.jsonl, never trained
// on), one row per kind of text (product reviews, support mails, news, posts, ...) and one for the
// sarcastic texts of every kind. eval/results.md has one figure per model for the whole set; this
// table shows where on it a model goes wrong, so that a user can see how it reads texts like theirs.
import type { Everyday } from '../training/mix.js'
import { TAGS } from '../training/ops-taxonomy.js'

/** What a model's answer on an everyday text is checked against (undefined: the text is not scored for it). */
export interface Judge { model: string, measure: string, gold: (r: Everyday) => string | undefined }

/** The models and the field of everyday.jsonl each is checked against, as eval/results.md scores them. */
export const JUDGES: Judge[] = [
  { model: 'sentiment', measure: 'negative, neutral or positive', gold: (r) => r.sentiment },
  { model: 'emotion', measure: 'the emotion, texts with one', gold: (r) => r.emotion ?? undefined },
  { model: 'sarcasm', measure: 'Sarcastic or not', gold: (r) => r.sarcastic ? 'Sarcastic' : 'Non-Sarcastic' },
  { model: 'intent', measure: 'news, query, spam, marketing or feedback', gold: (r) => r.intent },
  { model: 'new_intent', measure: 'complaint, suggestion or appreciation, feedback only', gold: (r) => r.feedback ?? undefined },
  { model: 'taxonomy', measure: 'top tag, texts whose topic is a tag', gold: (r) => TAGS.includes(r.topic) ? r.topic : undefined }
]

/** The row of the sarcastic texts, whatever their kind. */
export const SARCASTIC = 'sarcastic, every kind'

/** One cell: how many texts of a group a model answered right, of how many it was scored on. */
export interface Cell { right: number, scored: number }

/** Every group's cells (kinds of text in the order they first appear, then 'sarcastic, every kind'), by model. */
export function tally (rows: Everyday[], judges: Judge[], answers: Record<string, readonly string[]>): Map<string, Map<string, Cell>> {
  const groups = new Map<string, Map<string, Cell>>()
  const add = (group: string, model: string, right: boolean) => {
    const byModel = groups.get(group) ?? new Map<string, Cell>()
    groups.set(group, byModel)
    const cell = byModel.get(model) ?? { right: 0, scored: 0 }
    byModel.set(model, { right: cell.right + (right ? 1 : 0), scored: cell.scored + 1 })
  }
  for (const r of rows) groups.set(r.domain, groups.get(r.domain) ?? new Map())
  groups.set(SARCASTIC, new Map())
  for (const j of judges) {
    const answer = answers[j.model]
    if (answer === undefined) continue
    if (answer.length !== rows.length) throw new Error(`${j.model}: ${answer.length} answers for ${rows.length} texts`)
    rows.forEach((r, i) => {
      const gold = j.gold(r)
      if (gold === undefined) return
      add(r.domain, j.model, answer[i] === gold)
      if (r.sarcastic) add(SARCASTIC, j.model, answer[i] === gold)
    })
  }
  return groups
}

const cellText = (c: Cell | undefined) => c === undefined || c.scored === 0 ? '' : `${(c.right / c.scored).toFixed(2)} (${c.right}/${c.scored})`

/** The table as markdown: a row per group, a column per model that answered, and the whole set's line. */
export function everydayMarkdown (rows: Everyday[], judges: Judge[], answers: Record<string, readonly string[]>, date: string): string {
  const used = judges.filter((j) => answers[j.model] !== undefined)
  const groups = tally(rows, used, answers)
  const whole = (model: string) => [...groups.entries()].filter(([g]) => g !== SARCASTIC)
    .reduce((a, [, m]) => { const c = m.get(model); return c === undefined ? a : { right: a.right + c.right, scored: a.scored + c.scored } }, { right: 0, scored: 0 })
  const lines = [
    `Everyday texts by kind, ${date} (npm run eval): the share of texts each model answers right, with the counts.`,
    'The texts are the project\'s own (eval/data/everyday.jsonl, ' + `${rows.length} texts), never trained on; a blank cell: no text of that kind is scored for that model.`,
    '',
    'What each model is checked against: ' + used.map((j) => `${j.model}, ${j.measure}`).join('; ') + '.',
    '',
    `| kind of text | ${used.map((j) => j.model).join(' | ')} |`,
    `|---|${used.map(() => '---:').join('|')}|`,
    ...[...groups.entries()].map(([g, m]) => `| ${g.replace(/_/g, ' ')} | ${used.map((j) => cellText(m.get(j.model))).join(' | ')} |`),
    `| all | ${used.map((j) => cellText(whole(j.model))).join(' | ')} |`
  ]
  return lines.join('\n') + '\n'
}
