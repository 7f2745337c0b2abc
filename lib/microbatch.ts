// Micro-batching: predict() calls that arrive within `waitMs` of each other (concurrent single-text
// requests, mostly) are merged into one model call, so one tensor batch serves them all; each caller
// gets its own rows back. A call that already holds `maxBatch` inputs runs at once.
import type { LoadedModel } from './models.js'

export function microBatched<In, Out> (model: LoadedModel<In, Out>, waitMs: number, maxBatch: number): LoadedModel<In, Out> {
  if (waitMs <= 0) return model
  let queue: Array<{ inputs: In[], resolve: (r: Out[]) => void, reject: (e: unknown) => void }> = []
  let size = 0
  let timer: NodeJS.Timeout | null = null

  const flush = () => {
    if (timer !== null) { clearTimeout(timer); timer = null }
    const jobs = queue
    queue = []
    size = 0
    if (jobs.length === 0) return
    model.predict(jobs.flatMap((j) => j.inputs)).then((rows) => {
      let at = 0
      for (const j of jobs) { j.resolve(rows.slice(at, at + j.inputs.length)); at += j.inputs.length }
    }, (err: unknown) => { for (const j of jobs) j.reject(err) })
  }

  return {
    ...model,
    predict (inputs: In[]): Promise<Out[]> {
      if (inputs.length >= maxBatch) return model.predict(inputs)
      return new Promise((resolve, reject) => {
        queue.push({ inputs, resolve, reject })
        size += inputs.length
        if (size >= maxBatch) flush()
        else timer ??= setTimeout(flush, waitMs)
      })
    },
    warm: model.warm,
    dispose: model.dispose
  }
}
