// The model repository as training sees it: model-store/<model>/<version>/. A retrained model is written to a
// new version folder, never over the one it replaces (TRAIN_OUT and the like still name another place).
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

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
