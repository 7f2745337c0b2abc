// The messages between the text pool (lib/text/pool/pool.ts) and its workers (lib/text/pool/worker.ts).
import type { ModelManifest } from '../../../schemas/model-manifest.js'
import type { LoaderContext } from '../../serving/loaded-model.js'
import type { WorkerFailed, WorkerReady } from '../../runtime/worker-pool.js'
import type { RouteAsk } from '../routing.js'

/** A model as a worker loads it: the loader is named by module address and export, not passed. */
export interface PoolModel {
  name: string
  version: number
  dir: string
  manifest: ModelManifest
  loader: { module: string; export: string }
}
/** detector: the language identifier, for routed jobs whose texts' languages are to be detected */
export interface WorkerInit {
  models: PoolModel[]
  detector?: PoolModel
  ctx: LoaderContext
}
/** A predict job: `model`'s outputs for the inputs; with `route`, the texts routed by language through the
 * models it names (lib/text/routing.ts route), `model` then naming them, comma-separated: a Routed per text. */
export interface TextJob {
  id: number
  model: string
  inputs: unknown[]
  route?: RouteAsk
  /** sent while the worker ran another: it reads its messages (a TextCancel) before starting this one */
  behind?: true
}
/** A worker's error for a message it skipped (TextCancel) */
export const CANCELLED = 'cancelled: its requests were answered without it'
/** The pool no longer wants the answer to message `cancel`: a worker that has not started it skips it. */
export interface TextCancel {
  cancel: number
}
export type TextReply =
  { id: number; outputs: unknown[]; tensors: number } | { id: number; error: string; tensors: number }
export type Ready = WorkerReady & { tensors: number }
export type WorkerStatus = Ready | WorkerFailed
