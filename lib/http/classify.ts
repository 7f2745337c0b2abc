// Turning a classifier's probability rows into the wire format's label objects.
import type { FastifyInstance } from 'fastify'
import type { LoadedModel } from '../serving/loaded-model.js'

/** Checks at start-up that a loaded model has every label the operation answers with. */
export function assertLabels (fastify: FastifyInstance, model: string, wanted: readonly string[]): void {
  const m = fastify.models.get(model)
  if (m === undefined) return
  const missing = wanted.filter(l => !m.manifest.labels.includes(l))
  if (missing.length > 0) throw new Error(`model ${model} lacks the labels ${missing.join(', ')}`)
}

export function byLabel<L extends string> (
  row: number[],
  labels: readonly string[],
  wanted: readonly L[]
): Record<L, number> {
  const out = {} as Record<L, number>
  for (const l of wanted) out[l] = row[labels.indexOf(l)] ?? 0
  return out
}

/** A classifier's probability rows as the wanted labels' scores, in their order. */
export function labelled<L extends string> (wanted: readonly L[]) {
  return (rows: number[][], model: LoadedModel<any, any>): Array<Record<L, number>> =>
    rows.map(r => byLabel(r, model.manifest.labels, wanted))
}

/** Runs a text classifier on a batch and keeps the wanted labels, in their order. */
export function classify<L extends string> (wanted: readonly L[]) {
  const answer = labelled(wanted)
  return async (texts: string[], _body: unknown, model: LoadedModel<any, any>): Promise<Array<Record<L, number>>> =>
    answer(await (model as LoadedModel<string, number[]>).predict(texts), model)
}
