// The everyday texts by kind: npm run eval writes eval/everyday.md, how often each English text
// classifier is right on the project's own everyday texts (eval/data/everyday.jsonl, never trained
// on), one row per kind of text (product reviews, support mails, news, posts, ...) and one for the
// sarcastic texts of every kind. eval/results.md has one figure per model for the whole set; this
// table shows where on it a model goes wrong, so that a user can see how it reads texts like theirs.
// The answers are those eval.ts already has: each model's everyday validation sets (training/ops-*.ts,
// those whose name starts with 'everyday '), with their labels as the specs give them.
import type { Everyday } from '../training/trainers/mix.js'

/** Whether a validation set is one of the everyday texts (its rows are texts of eval/data/everyday.jsonl). */
export const isEveryday = (setName: string) => setName.startsWith('everyday ')

/** One everyday text as a model's validation set scores it: its gold label and the model's top label. */
export interface Answer {
  text: string
  gold: string
  answer: string
}

/** The row of the sarcastic texts, whatever their kind. */
export const SARCASTIC = 'sarcastic, every kind'

/** One cell: how many texts of a group a model answered right, of how many it was scored on. */
export interface Cell {
  right: number
  scored: number
}

/** Every group's cells (kinds of text in the order they first appear, then SARCASTIC), by model. */
export function tally (days: Everyday[], answers: Record<string, readonly Answer[]>): Map<string, Map<string, Cell>> {
  const byText = new Map(days.map(r => [r.text, r]))
  const groups = new Map<string, Map<string, Cell>>()
  for (const r of days) groups.set(r.domain, new Map())
  groups.set(SARCASTIC, new Map())
  const add = (group: string, model: string, right: boolean) => {
    const byModel = groups.get(group) as Map<string, Cell>
    const cell = byModel.get(model) ?? { right: 0, scored: 0 }
    byModel.set(model, { right: cell.right + (right ? 1 : 0), scored: cell.scored + 1 })
  }
  for (const [model, list] of Object.entries(answers)) {
    for (const a of list) {
      const day = byText.get(a.text)
      if (day === undefined) throw new Error(`${model}: "${a.text.slice(0, 40)}" is not an everyday text`)
      add(day.domain, model, a.answer === a.gold)
      if (day.sarcastic) add(SARCASTIC, model, a.answer === a.gold)
    }
  }
  return groups
}

const cellText = (c: Cell | undefined) =>
  c === undefined || c.scored === 0 ? '' : `${(c.right / c.scored).toFixed(2)} (${c.right}/${c.scored})`

/** The table as markdown: a row per group, a column per model that answered, and the whole set's line. */
export function everydayMarkdown (days: Everyday[], answers: Record<string, readonly Answer[]>, date: string): string {
  const models = Object.keys(answers)
  const groups = tally(days, answers)
  const whole = (model: string) =>
    [...groups.entries()]
      .filter(([g]) => g !== SARCASTIC)
      .reduce(
        (a, [, m]) => {
          const c = m.get(model)
          return c === undefined ? a : { right: a.right + c.right, scored: a.scored + c.scored }
        },
        { right: 0, scored: 0 }
      )
  const lines = [
    `Everyday texts by kind, ${date} (npm run eval): the share of texts each model answers right, with the counts.`,
    "The texts are the project's own (eval/data/everyday.jsonl, " +
      `${days.length} texts), never trained on; a blank cell: no text of that kind is scored for that model.`,
    '',
    'Each model is scored on the texts, and against the labels, of its everyday rows in eval/results.md ' +
      '(emotion: the texts with an emotion; new_intent: the feedback; taxonomy: the texts whose topic is a tag).',
    '',
    `| kind of text | ${models.join(' | ')} |`,
    `|---|${models.map(() => '---:').join('|')}|`,
    ...[...groups.entries()].map(
      ([g, m]) => `| ${g.replace(/_/g, ' ')} | ${models.map(model => cellText(m.get(model))).join(' | ')} |`
    ),
    `| all | ${models.map(model => cellText(whole(model))).join(' | ')} |`
  ]
  return lines.join('\n') + '\n'
}
