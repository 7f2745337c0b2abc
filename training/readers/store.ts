// The model repository as training sees it: model-store/<model>/<version>/. A retrained model is written to a
// new version folder, never over the one it replaces (TRAIN_OUT and the like still name another place).
import { existsSync, readdirSync } from 'node:fs'
import { basename, join } from 'node:path'

export const STORE = join(import.meta.dirname, '..', '..', 'model-store')

/** The highest version folder of a model-store folder (0 when none). */
export function latest (dir: string): number {
  if (!existsSync(dir)) return 0
  const versions = readdirSync(dir).filter(v => /^\d+$/.test(v))
  return Math.max(0, ...versions.map(Number))
}

/** The folder a retrained `model` is written to: the version after its highest. */
export function nextVersion (model: string, store = STORE): string {
  return join(store, model, String(latest(join(store, model)) + 1))
}

/** The version a model written to `dir` has: its folder's number, or 1 for a folder elsewhere (TRAIN_OUT). */
export function versionOf (dir: string): number {
  return /^\d+$/.test(basename(dir)) ? Number(basename(dir)) : 1
}
