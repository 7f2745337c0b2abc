// Sentiment training data fetched from public GitHub repositories into training/data/ (not committed;
// training/DATA.md gives each repository, commit, licence and count, and how to fetch it again).
import { fetched, norm, type Labelled } from './data.js'

/** One node of a Stanford Sentiment Treebank tree: its grade 0-4 and its words. */
export interface TreeNode {
  grade: number
  words: string[]
}

/** Every node of one PTB-style SST tree ("(3 (2 The) (2 Rock))"), children before their parent, the root last. */
export function treeNodes (line: string): TreeNode[] {
  const toks = line.match(/\(|\)|[^\s()]+/g) ?? []
  const out: TreeNode[] = []
  let i = 0
  const node = (): string[] => {
    if (toks[i] !== '(') throw new Error(`SST tree: '(' expected at token ${i}`)
    const grade = Number(toks[i + 1])
    i += 2
    const words: string[] = []
    if (toks[i] === '(') {
      while (toks[i] === '(') words.push(...node())
    } else {
      while (i < toks.length && toks[i] !== ')') words.push(toks[i++] as string)
    }
    if (toks[i] !== ')') throw new Error(`SST tree: ')' expected at token ${i}`)
    i++
    out.push({ grade, words })
    return words
  }
  node()
  return out
}

export const gradeToPolarity = (grade: number) => (grade <= 1 ? 'negative' : grade === 2 ? 'neutral' : 'positive')

/** A phrase as the Kim 2014 sentence files write it (lower-cased, tokens joined by spaces). */
const phraseText = (words: string[]) => words.join(' ').toLowerCase()

/**
 * The labelled phrases of the SST training trees (training/data/sst-trees/train.txt, the 8,544 train
 * sentences), each distinct phrase once with its grade, sentences included (the root of each tree).
 * A tree whose sentence is also a dev sentence is left out whole, and so is every phrase of `minTokens`
 * or more tokens found inside a held sentence (a dev sentence): no dev sentence or long part of one is
 * trained on.
 */
export function sstPhrases (
  held: Labelled[],
  minTokens = 4
): Array<Labelled & { grade: number; tokens: number; root: boolean }> {
  const heldNorm = new Set(held.map(r => norm(r.text)))
  // every run of minTokens or more tokens of a held sentence
  const inside = new Set<string>()
  for (const r of held) {
    const t = r.text
      .toLowerCase()
      .split(/\s+/)
      .filter(w => w !== '')
    for (let a = 0; a < t.length; a++) {
      for (let b = a + minTokens; b <= t.length; b++) inside.add(t.slice(a, b).join(' '))
    }
  }
  const seen = new Map<string, Labelled & { grade: number; tokens: number; root: boolean }>()
  for (const line of fetched('sst-trees/train.txt').split('\n')) {
    if (line.trim() === '') continue
    const nodes = treeNodes(line)
    const root = nodes[nodes.length - 1]!
    if (heldNorm.has(norm(phraseText(root.words)))) continue
    for (const n of nodes) {
      const text = phraseText(n.words)
      const prev = seen.get(text)
      if (prev !== undefined) {
        if (n === root) prev.root = true
        continue
      }
      seen.set(text, {
        text,
        label: gradeToPolarity(n.grade),
        grade: n.grade,
        tokens: n.words.length,
        root: n === root
      })
    }
  }
  const out = [...seen.values()]
  return out.filter(p => p.tokens < minTokens || !inside.has(p.text))
}

export interface SentimentGroups {
  tweets: Labelled[]
  movies: Labelled[]
  reviews: Labelled[]
  extraReviews: Labelled[]
  held: Labelled[]
  /** questions and requests (as neutral), weighing `share` of a domain as a whole */
  requests?: { rows: Labelled[]; share: number }
}

/**
 * The sentiment mixture: tweets, movie sentences and reviews weigh alike (each a third of their rows'
 * count, as training/trainers/mix.ts weighDomains gives them), and the SST phrases (the parts of the train
 * sentences, sstPhrases) weigh as much again as the movie sentences, in the movies domain; the extra
 * review sentences (sets fetched or borrowed beyond the three review sets) weigh as the reviews' rows do;
 * questions and requests to an assistant, all neutral, weigh the share of a domain given with them.
 * Returns the rows and the number of phrases among them.
 */
export function sentimentMix (g: SentimentGroups): {
  rows: Array<Labelled & { domain: string; weight: number }>
  phrases: number
} {
  const unit = (g.tweets.length + g.movies.length + g.reviews.length) / 3
  const sentences = new Set(g.movies.map(r => norm(r.text)))
  const phrases = sstPhrases(g.held).filter(p => !p.root && !sentences.has(norm(p.text)))
  const rows: Array<Labelled & { domain: string; weight: number }> = []
  const add = (list: Labelled[], domain: string, mass: number) => {
    if (list.length === 0) return
    const weight = Number(Math.min(4, mass / list.length).toFixed(4))
    for (const r of list) rows.push({ text: r.text, label: r.label, domain, weight })
  }
  add(g.tweets, 'tweets', unit)
  add(g.movies, 'movies', unit)
  const reviews = [...g.reviews, ...g.extraReviews]
  add(reviews, 'reviews', (unit * reviews.length) / g.reviews.length)
  add(phrases, 'movies', unit)
  if (g.requests !== undefined) add(g.requests.rows, 'requests', unit * g.requests.share)
  return { rows, phrases: phrases.length }
}

/**
 * Sentences of the nine-product review set (Ding, Liu & Yu 2008; training/data/liu-9-products/*.txt),
 * labelled the way the Hu & Liu sentence set (custrev) was: by the sign of the sum of its opinion
 * strengths ("feature[+2]##sentence"); sentences without an opinion, or whose opinions cancel, are left out.
 */
export function liuNineProducts (): Labelled[] {
  const out: Labelled[] = []
  for (const file of [
    'Canon_PowerShot_SD500',
    'Canon_S100',
    'Diaper_Champ',
    'Hitachi_router',
    'Linksys_Router',
    'MicroMP3',
    'Nokia_6600',
    'ipod',
    'norton'
  ]) {
    for (const line of fetched(`liu-9-products/${file}.txt`).split('\n')) {
      const at = line.indexOf('##')
      if (at < 0 || line.startsWith('[t]')) continue
      const text = line
        .slice(at + 2)
        .replace(/\s+/g, ' ')
        .trim()
      let sum = 0
      for (const m of line.slice(0, at).matchAll(/\[([+-])(\d)\]/g)) sum += (m[1] === '+' ? 1 : -1) * Number(m[2])
      if (text === '' || sum === 0) continue
      out.push({ text, label: sum > 0 ? 'positive' : 'negative' })
    }
  }
  return out
}
