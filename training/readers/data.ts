// Readers for ../shared/datasets (never copied into the repository).
import { readFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'

export const DATASETS = join(import.meta.dirname, '..', '..', '..', 'shared', 'datasets')

export function need (path: string): string {
  const full = join(DATASETS, path)
  if (!existsSync(full)) throw new Error(`dataset missing: ../shared/datasets/${path}`)
  return full
}

/** training/data/: sets fetched from public repositories (not committed; training/DATA.md says how to fetch each) */
export const FETCHED = join(import.meta.dirname, '..', 'data')

/** a file under training/data/, or an error naming what to fetch */
export function fetched (path: string): string {
  const full = join(FETCHED, path)
  if (!existsSync(full)) throw new Error(`training/data/${path} is missing: training/DATA.md says how to fetch it`)
  return readFileSync(full, 'utf8')
}

export function lines (path: string): string[] {
  return readFileSync(need(path), 'utf8')
    .split(/\r?\n/)
    .filter(l => l.length > 0)
}

export interface Labelled {
  text: string
  label: string
}

/** SemEval-2017 task 4A files: id TAB label TAB text */
export function semevalSentiment (): Labelled[] {
  const files = [
    'twitter-2013train-A.tsv',
    'twitter-2013dev-A.tsv',
    'twitter-2013test-A.tsv',
    'twitter-2014sarcasm-A.tsv',
    'twitter-2014test-A.tsv',
    'twitter-2015train-A.tsv',
    'twitter-2015test-A.tsv',
    'twitter-2016train-A.tsv',
    'twitter-2016dev-A.tsv',
    'twitter-2016devtest-A.tsv',
    'twitter-2016test-A.tsv'
  ]
  const out: Labelled[] = []
  for (const f of files) {
    for (const l of lines(`sentiment/semeval2017-task4a/${f}`)) {
      const [, label, ...rest] = l.split('\t')
      if (label === undefined || rest.length === 0) continue
      out.push({ label: label.trim(), text: rest.join('\t') })
    }
  }
  return out
}

/** TweetEval style: <split>_text.txt, <split>_labels.txt, mapping.txt (id TAB name) */
export function tweeteval (dir: string, split: string): Labelled[] {
  const names = new Map(lines(`${dir}/mapping.txt`).map(l => l.split('\t') as [string, string]))
  // line i of the labels is the label of line i of the texts, so the files are read whole: an empty
  // text line (HatEval has 8) is dropped with its label, not skipped (which shifted every later label)
  const whole = (path: string) => readFileSync(need(path), 'utf8').split(/\r?\n/)
  const texts = whole(`${dir}/${split}_text.txt`)
  const labels = whole(`${dir}/${split}_labels.txt`)
  if (texts.at(-1) === '') texts.pop()
  if (labels.at(-1) === '') labels.pop()
  if (texts.length !== labels.length) throw new Error(`${dir}/${split}: ${texts.length} texts, ${labels.length} labels`)
  return texts.flatMap((text, i) =>
    text.trim() === '' ? [] : [{ text, label: names.get((labels[i] as string).trim()) ?? (labels[i] as string).trim() }]
  )
}

/** Compares texts without user names, addresses, case, spacing or punctuation (TweetEval rewrites @names). */
export const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/https?:\/\/\S+/g, '')
    .replace(/@\w+/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, '')

/** Drops training rows whose text is also in a validation set (the sets share sources). */
export function withoutOverlap (train: Labelled[], ...held: Labelled[][]): Labelled[] {
  const seen = new Set(held.flat().map(x => norm(x.text)))
  return train.filter(x => !seen.has(norm(x.text)))
}

/** A fixed 1-in-5 validation split for sets without one: by a hash of the text. */
export function isHeldOut (text: string): boolean {
  let h = 2166136261
  const s = norm(text)
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619)
  return (h >>> 0) % 5 === 0
}

export function split<T extends { text: string }> (rows: T[]): { train: T[]; val: T[] } {
  return { train: rows.filter(r => !isHeldOut(r.text)), val: rows.filter(r => isHeldOut(r.text)) }
}

/** GoEmotions (original 28 labels, 0-based ids): text TAB ids TAB comment id */
export function goemotions (split: 'train' | 'dev'): Array<{ text: string; ids: number[] }> {
  return lines(`emotion/goemotions/original/${split}.tsv`).map(l => {
    const [text, ids] = l.split('\t')
    return { text: text as string, ids: (ids ?? '').split(',').map(Number) }
  })
}

export function bbc (): Array<{ id: string; label: string; text: string }> {
  return lines('taxonomy/bbc-news/bbc.jsonl').map(l => JSON.parse(l) as { id: string; label: string; text: string })
}

/** A CSV line with quoted fields ("" escapes a quote). */
export function csvFields (line: string): string[] {
  const out: string[] = []
  let cur = ''
  let q = false
  for (let i = 0; i < line.length; i++) {
    const ch = line[i] as string
    if (q) {
      if (ch === '"' && line[i + 1] === '"') {
        cur += '"'
        i++
      } else if (ch === '"') q = false
      else cur += ch
    } else if (ch === '"') q = true
    else if (ch === ',') {
      out.push(cur)
      cur = ''
    } else cur += ch
  }
  out.push(cur)
  return out
}

export function agNews (): Labelled[] {
  const names = ['World', 'Sports', 'Business', 'Sci/Tech']
  return lines('taxonomy/ag-news-test/test.csv').map(l => {
    const [c, title, desc] = csvFields(l)
    return { label: names[Number(c) - 1] as string, text: `${title}. ${(desc ?? '').replace(/\\/g, ' ')}` }
  })
}

export function clinc (part: 'train' | 'val'): Labelled[] {
  const d = JSON.parse(readFileSync(need('intent/clinc150/data_full.json'), 'utf8')) as Record<
    string,
    Array<[string, string]>
  >
  return (d[part] ?? []).map(([text, label]) => ({ text, label }))
}

export function trec (): Labelled[] {
  return readFileSync(need('intent/trec-question-classification/TREC.train'), 'latin1')
    .split(/\r?\n/)
    .filter(Boolean)
    .map(l => {
      const i = l.indexOf(' ')
      return { label: l.slice(0, i).split(':')[0] as string, text: l.slice(i + 1) }
    })
}

export function smsSpam (): Labelled[] {
  return lines('intent/sms-spam-collection/SMSSpamCollection').map(l => {
    const [label, ...rest] = l.split('\t')
    return { label: label as string, text: rest.join('\t') }
  })
}

export function complaints (): Labelled[] {
  return lines('intent/complaints-twitter/complaints-data.csv').map(l => {
    const f = csvFields(l)
    return { text: f.slice(1, f.length - 2).join(','), label: f[f.length - 2] === '1' ? 'complaint' : 'not' }
  })
}

export function suggestions (file: 'V1.4_Training.csv' | 'SubtaskA_Trial_Test_Labeled.csv'): Labelled[] {
  return lines(`intent/semeval2019-task9-suggestions/${file}`)
    .filter(l => !l.startsWith('id,'))
    .map(l => {
      const f = csvFields(l)
      return { text: f.slice(1, f.length - 1).join(','), label: f[f.length - 1]?.trim() === '1' ? 'suggestion' : 'not' }
    })
    .filter(r => r.text.trim() !== '')
}

export function headlines (file: 'headline_train.txt' | 'headline_val.txt'): Labelled[] {
  return lines(`sarcasm/news-headlines-sarcasm/${file}`).map(l => {
    const f = l.split('\t')
    return { label: f[2] === '1' ? 'Sarcastic' : 'Non-Sarcastic', text: f.slice(3).join(' ') }
  })
}
