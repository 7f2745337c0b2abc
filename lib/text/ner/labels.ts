// The NER tagger's labels: BIOES over PER, ORG, LOC and MISC, the rules of a well-formed label
// sequence that decoding enforces (allowed, canEnd), and the conversions from and to the corpora's
// IOB2 tags (withEnds, withoutEnds). Shared by training, evaluation and serving.

/**
 * BIOES labels (begin, inside, end, single): an entity is B I* E or S. The end and single labels let
 * the tagger learn how names end (a company's "GmbH", a surname) apart from how they go on. MISC is
 * learned (so that it does not pass for O) but never reported.
 */
export const LABELS = [
  'O',
  'B-PER',
  'I-PER',
  'E-PER',
  'S-PER',
  'B-ORG',
  'I-ORG',
  'E-ORG',
  'S-ORG',
  'B-LOC',
  'I-LOC',
  'E-LOC',
  'S-LOC',
  'B-MISC',
  'I-MISC',
  'E-MISC',
  'S-MISC'
] as const
export const TYPES = ['PER', 'ORG', 'LOC', 'MISC'] as const
export const CATEGORY: Record<string, string> = { PER: 'name', ORG: 'group', LOC: 'place' }
export const NUM_LABELS = LABELS.length

/** label index -> entity type index (-1 for O), its part (0 B, 1 I, 2 E, 3 S), and whether it begins an entity */
export const typeOf = (l: number): number => (l === 0 ? -1 : (l - 1) >> 2)
const partOf = (l: number): number => (l - 1) & 3
export const isBegin = (l: number): boolean => l > 0 && (partOf(l) === 0 || partOf(l) === 3)
/** the label of entity type `type` and part 0 B, 1 I, 2 E, 3 S */
export const labelOf = (type: number, part: number): number => 1 + 4 * type + part

/**
 * After O, E or S (or at the start) an entity may begin (B, S) or not (O); after B or I it must go
 * on (I) or end (E) with the same type. Decoding forbids the rest outright, so every output is a
 * well-formed span sequence whatever the learned transition scores say.
 */
export function allowed (prev: number, next: number): boolean {
  const open = prev > 0 && partOf(prev) < 2
  if (!open) return next === 0 || isBegin(next)
  return next > 0 && !isBegin(next) && typeOf(prev) === typeOf(next)
}

/** a sentence may end on O, E or S, not inside an entity */
export const canEnd = (l: number): boolean => l === 0 || partOf(l) >= 2

/**
 * Labels that use only B and I (as the corpora's IOB2 tags give them) with each entity's last token
 * made E, or S where it is alone. Returns a new array.
 */
export function withEnds (labels: ArrayLike<number>): Uint8Array {
  const out = Uint8Array.from(labels)
  for (let t = 0; t < out.length; t++) {
    const y = out[t] as number
    if (y === 0) continue
    const next = t + 1 < out.length ? (out[t + 1] as number) : 0
    const goesOn = next !== 0 && !isBegin(next) && typeOf(next) === typeOf(y)
    if (!goesOn) out[t] = labelOf(typeOf(y), isBegin(y) ? 3 : 2)
  }
  return out
}

/** withEnds undone: E becomes I and S becomes B. Returns a new array. */
export function withoutEnds (labels: ArrayLike<number>): Uint8Array {
  const out = Uint8Array.from(labels)
  for (let t = 0; t < out.length; t++) {
    const y = out[t] as number
    if (y !== 0) out[t] = labelOf(typeOf(y), partOf(y) === 3 ? 0 : partOf(y) === 2 ? 1 : partOf(y))
  }
  return out
}
