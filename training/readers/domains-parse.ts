// Parsing and clean-up helpers for training/readers/domains.ts and domains-taxonomy.ts (formats described in each
// dataset's PROVENANCE.txt under ../shared/datasets).
import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import { need, split, type Labelled } from './data.js'

export type Split = 'train' | 'val'

/** A labelled row from a named source domain (e.g. 'books', 'enron3', 'GEN'). */
export interface DomainLabelled extends Labelled {
  domain: string
}

/** The file as text (UTF-8; a byte-order mark is dropped). */
export function readText (path: string, encoding: BufferEncoding = 'utf8'): string {
  return readFileSync(need(path), encoding).replace(/^\uFEFF/, '')
}

export function readGzip (path: string): string {
  return gunzipSync(readFileSync(need(path))).toString('utf8')
}

/**
 * Records of a delimited file whose quoted fields may hold separators, newlines and "" escapes.
 * A quote opens a quoted field only at the start of a field (tweets carry stray quotes).
 */
export function records (text: string, sep = ','): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let cur = ''
  let q = false
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string
    if (q) {
      if (ch !== '"') cur += ch
      else if (text[i + 1] === '"') {
        cur += '"'
        i++
      } else q = false
    } else if (ch === '"' && cur === '') q = true
    else if (ch === sep) {
      row.push(cur)
      cur = ''
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++
      row.push(cur)
      rows.push(row)
      row = []
      cur = ''
    } else cur += ch
  }
  if (cur !== '' || row.length > 0) {
    row.push(cur)
    rows.push(row)
  }
  return rows.filter(r => !(r.length === 1 && r[0] === ''))
}

/** The rows of a set without a validation split that fall in `part` (data.ts's fixed 1-in-5 hash split). */
export function hashSplit<T extends { text: string }> (rows: T[], part: Split): T[] {
  const s = split(rows)
  return part === 'train' ? s.train : s.val
}

export const squash = (s: string) => s.replace(/\s+/g, ' ').trim()

/** Cuts at a word boundary at or before `max` characters. */
export function cut (s: string, max: number): string {
  if (s.length <= max) return s
  const head = s.slice(0, max)
  const sp = head.lastIndexOf(' ')
  return (sp > max * 0.6 ? head.slice(0, sp) : head).trim()
}

// Lines of forwarded/replied mail headers and separators inside Enron bodies.
const MAIL_HEADER = new RegExp(
  [
    String.raw`^(?:(?:-\s*){3,}|(?:to|cc|bcc|from|sent|date|subject|re|fw|fwd|importance)\s*:|`,
    String.raw`.*\b(?:forwarded by|original message)\b|`,
    String.raw`\d{1,2} \/ \d{1,2} \/ \d{2,4}(?: \d{1,2} : \d{2}(?: : \d{2})? ?(?:am|pm)?)?$)`
  ].join(''),
  'i'
)

// Pieces of forwarded/replied headers that the preprocessing wrapped into body lines: dash rules,
// "forwarded by ... on <date> <time>", Lotus Notes addresses (name / hou / ect @ ect), date-times, attachment
// notes.
const FORWARD_BITS = new RegExp(
  [
    String.raw`(?:- ){3,}-?|forwarded by .{0,80}? (?:am|pm)\b|`,
    String.raw`(?:[\w.-]+ ){0,3}\/ [\w.-]+(?: \/ [\w.-]+)? @ [\w.-]+|`,
    String.raw`\d{1,2} \/ \d{1,2} \/ \d{2,4}(?: \d{1,2} : \d{2}(?: : \d{2})? ?(?:am|pm)?)?|`,
    String.raw`\( see attached file : [^)]*\)`
  ].join(''),
  'gi'
)

/**
 * An Enron-Spam mail (first line "Subject: ...") as subject, newline, the first ~`max` characters of the body
 * without header lines.
 */
export function mailText (raw: string, max = 600): string {
  const [first = '', ...body] = raw.split(/\r?\n/)
  const subject = cut(squash(first.replace(/^subject\s*:/i, '')), 200)
  const kept = body.filter(l => !MAIL_HEADER.test(l.trim()))
  const b = cut(
    squash(
      kept
        .join(' ')
        .replace(FORWARD_BITS, ' ')
        .replace(/(?:^|\s)(?:to|cc|bcc|from|sent|subject) :(?=\s)/gi, ' ')
    ),
    max
  )
  return subject === '' ? b : b === '' ? subject : `${subject}\n${b}`
}

const ENTITIES: Record<string, string> = {
  36: '$',
  38: '&',
  39: "'",
  145: "'",
  146: "'",
  147: '"',
  148: '"',
  149: '*',
  150: '-',
  151: ' - ',
  160: ' '
}

/** AG News text: "\" line breaks, entities that lost their "&" (" #39;"), escaped HTML tags. */
export function agText (s: string): string {
  return squash(
    s
      .replace(/\\\$/g, '$')
      .replace(/\\/g, ' ')
      .replace(/\s?&?#(\d+);/g, (_m, n: string) => ENTITIES[Number(n)] ?? String.fromCodePoint(Number(n)))
      .replace(/&lt;.*?&gt;/g, ' ')
      .replace(/&amp;/g, '&')
      .replace(/&quot;/g, '"')
  )
}

/** ISEAR situation text: "á" line-wrap marks, "|" wraps and \" escapes. */
export function isearText (s: string): string {
  return squash(
    s
      .replace(/\s?á\s?/g, ' ')
      .replace(/\\"?/g, '"')
      .replace(/^"|"$/g, '')
  )
}

/** Counts of each label, most frequent first. */
export function labelCounts (rows: Array<{ label: string }>): Array<[string, number]> {
  const m = new Map<string, number>()
  for (const r of rows) m.set(r.label, (m.get(r.label) ?? 0) + 1)
  return [...m.entries()].sort((a, b) => b[1] - a[1])
}
