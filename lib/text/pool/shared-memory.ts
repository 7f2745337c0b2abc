// Arrays that every text worker reads alike (the classifiers' embedding tables, the word-vector
// table, the NER weights, the similarity model's vectors), made once per process in shared memory:
// the registry calls a model kind's `share` function on the main thread before the text workers
// start, hands the result to every worker in its start-up data, and the worker adopts it here. A
// loader asks `shared(dir, name, kind, make)`: the process's copy when there is one, else it makes
// its own (a model loaded on the main thread, in tests or with TEXT_WORKERS=0), so a loader reads
// the same values either way.
import { realpathSync } from 'node:fs'
import { open } from 'node:fs/promises'

export type SharedArray = Int8Array | Uint8Array | Uint16Array | Int32Array | Uint32Array | Float32Array

/** a model folder's shared arrays by name; folders by their real path (a store of symlinks finds the real folder's) */
export type SharedArrays = Record<string, Record<string, SharedArray>>

let adopted: SharedArrays = {}

/** The worker takes the process's arrays (from its start-up data) for its loaders to find. */
export function adoptShared (arrays: SharedArrays | undefined): void {
  adopted = arrays ?? {}
}

/** The folder's key: its real path, or the path itself when it cannot be resolved. */
export function folderKey (dir: string): string {
  try {
    return realpathSync(dir)
  } catch {
    return dir
  }
}

type Kind<T extends SharedArray> = abstract new (...args: never[]) => T

/**
 * The process's array `name` of the folder `dir` (checked to be a `kind`), or undefined when this thread was
 * given none.
 */
export function adoptedArray<T extends SharedArray> (dir: string, name: string, kind: Kind<T>): T | undefined {
  const given = adopted[folderKey(dir)]?.[name]
  if (given === undefined) return undefined
  if (!(given instanceof kind)) {
    throw new Error(`the shared ${name} of ${dir} is a ${given.constructor.name}, its loader reads a ${kind.name}`)
  }
  return given
}

/** The process's array `name` of the folder `dir` (checked to be a `kind`), or else `make()`'s own. */
export async function shared<T extends SharedArray> (
  dir: string,
  name: string,
  kind: Kind<T>,
  make: () => Promise<T> | T
): Promise<T> {
  return adoptedArray(dir, name, kind) ?? (await make())
}

/** A copy of `src` in a SharedArrayBuffer of its own, of the same kind. */
export function toShared<T extends SharedArray> (src: T): T {
  const Kind = src.constructor as new (buffer: SharedArrayBuffer) => T
  const out = new Kind(new SharedArrayBuffer(src.byteLength))
  out.set(src as never)
  return out
}

/** A file's bytes read straight into a SharedArrayBuffer (no second copy on the way). */
export async function readFileShared (path: string): Promise<Uint8Array> {
  const file = await open(path, 'r')
  try {
    const { size } = await file.stat()
    const out = new Uint8Array(new SharedArrayBuffer(size))
    let at = 0
    while (at < size) {
      const { bytesRead } = await file.read(out, at, size - at, at)
      if (bytesRead === 0) throw new Error(`${path} ended at byte ${at} of ${size}`)
      at += bytesRead
    }
    return out
  } finally {
    await file.close()
  }
}
