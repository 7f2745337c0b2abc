// Readers for ../shared/datasets (never copied into the repository).
import { readFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'

export const DATASETS = join(import.meta.dirname, '..', '..', 'shared', 'datasets')

export function need (path: string): string {
  const full = join(DATASETS, path)
  if (!existsSync(full)) throw new Error(`dataset missing: ../shared/datasets/${path}`)
  return full
}

export function lines (path: string): string[] {
  return readFileSync(need(path), 'utf8').split(/\r?\n/).filter((l) => l.length > 0)
}

export interface Labelled { text: string, label: string }

/** SemEval-2017 task 4A files: id TAB label TAB text */
export function semevalSentiment (): Labelled[] {
  const files = ['twitter-2013train-A.tsv', 'twitter-2013dev-A.tsv', 'twitter-2013test-A.tsv', 'twitter-2014sarcasm-A.tsv', 'twitter-2014test-A.tsv', 'twitter-2015train-A.tsv', 'twitter-2015test-A.tsv', 'twitter-2016train-A.tsv', 'twitter-2016dev-A.tsv', 'twitter-2016devtest-A.tsv', 'twitter-2016test-A.tsv']
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
  const names = new Map(lines(`${dir}/mapping.txt`).map((l) => l.split('\t') as [string, string]))
  const texts = lines(`${dir}/${split}_text.txt`)
  const labels = lines(`${dir}/${split}_labels.txt`)
  return texts.map((text, i) => ({ text, label: names.get((labels[i] as string).trim()) ?? (labels[i] as string).trim() }))
}

/** Compares texts without user names, addresses, case, spacing or punctuation (TweetEval rewrites @names). */
export const norm = (s: string) => s.toLowerCase().replace(/https?:\/\/\S+/g, '').replace(/@\w+/g, '').replace(/[^\p{L}\p{N}]+/gu, '')

/** Drops training rows whose text is also in a validation set (the sets share sources). */
export function withoutOverlap (train: Labelled[], ...held: Labelled[][]): Labelled[] {
  const seen = new Set(held.flat().map((x) => norm(x.text)))
  return train.filter((x) => !seen.has(norm(x.text)))
}
