// The messages between the text pool (lib/text/pool/pool.ts) and its workers (lib/text/pool/worker.ts).
import type { ModelManifest } from '../../../schemas/model-manifest.js'
import type { LoaderContext } from '../../serving/loaded-model.js'
import type { WorkerFailed, WorkerReady } from '../../runtime/worker-pool.js'

/** A model as a worker loads it: the loader is named by module address and export, not passed. */
export interface PoolModel {
  name: string
  version: number
  dir: string
  manifest: ModelManifest
  loader: { module: string; export: string }
}
/** detector: the language identifier, for jobs that detect each text's language and then run the
 * model serving it (`detect`) in one message */
export interface WorkerInit {
  models: PoolModel[]
  detector?: PoolModel
  ctx: LoaderContext
}
/** A predict job. With `detect` (the languages served, comma-separated), `model` names the models
 * of an operation, comma-separated, and the worker detects each text's language, routes it
 * (lib/text/langid/langid.ts routeLanguage) and runs the first of them that serves it: one output per
 * text, a Routed. */
export interface TextJob {
  id: number
  model: string
  inputs: unknown[]
  detect?: string
  /** sent while the worker ran another: it reads its messages (a TextCancel) before starting this one */
  behind?: true
}
/** A worker's error for a message it skipped (TextCancel) */
export const CANCELLED = 'cancelled: its requests were answered without it'
/** The pool no longer wants the answer to message `cancel`: a worker that has not started it skips it. */
export interface TextCancel {
  cancel: number
}
/** A detecting job's output per text: the language routed by, whether the detector was sure, and
 * the model's output (null when no model serves the language: the caller refuses the request). */
export type Routed = [code: string, sure: boolean, output: unknown]
export type TextReply =
  { id: number; outputs: unknown[]; tensors: number } | { id: number; error: string; tensors: number }
export type Ready = WorkerReady & { tensors: number }
export type WorkerStatus = Ready | WorkerFailed
