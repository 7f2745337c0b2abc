// One place decides which TensorFlow.js backend the process uses.
// tfjs-node is an optional dependency: used when it installed (it downloads libtensorflow, which
// fails on offline machines), otherwise the wasm backend, whose .wasm files ship in its npm package.
import * as tfjs from '@tensorflow/tfjs'
import { createRequire } from 'node:module'
import { dirname } from 'node:path'

export type TF = typeof tfjs
export interface TfRuntime {
  tf: TF
  backend: string
}
/** TF_BACKEND: auto is tfjs-node where it installed, else wasm */
export type TfBackend = 'auto' | 'wasm' | 'cpu'

let runtime: Promise<TfRuntime> | undefined

/** The process's backend, chosen by the first call (a thread is one process here). */
export function getTf (want: TfBackend = 'auto'): Promise<TfRuntime> {
  runtime ??= init(want)
  return runtime
}

async function init (want: TfBackend): Promise<TfRuntime> {
  if (want === 'auto') {
    try {
      // A variable specifier keeps TypeScript from requiring the optional package's types.
      const name = '@tensorflow/tfjs-node'
      const node = (await import(name)) as TF
      await node.setBackend('tensorflow')
      await node.ready()
      return { tf: node, backend: 'tensorflow' }
    } catch {
      // not installed or its native library is missing: fall through to wasm
    }
  }
  if (want !== 'cpu') {
    const wasm = await import('@tensorflow/tfjs-backend-wasm')
    const require = createRequire(import.meta.url)
    const dist = dirname(require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm'))
    wasm.setWasmPaths(dist + '/')
    if (await tfjs.setBackend('wasm')) {
      await tfjs.ready()
      return { tf: tfjs, backend: 'wasm' }
    }
  }
  await tfjs.setBackend('cpu')
  await tfjs.ready()
  return { tf: tfjs, backend: 'cpu' }
}
