// File-system IO handler for TensorFlow.js models. Only tfjs-node registers file:// URLs, so the
// service loads and saves model.json + weight shards itself, the same way on every backend.
import { readFile, writeFile, mkdir } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type * as tfjs from '@tensorflow/tfjs'

type IOHandler = tfjs.io.IOHandler
type ModelArtifacts = tfjs.io.ModelArtifacts
type WeightsManifestConfig = tfjs.io.WeightsManifestConfig

/**
 * The artifacts TensorFlow.js loads from a parsed model.json and the weights' stored bytes (in
 * the order of `weightSpecs`), one buffer of them all.
 */
export function artifactsOf (
  json: Record<string, any>,
  weightSpecs: tfjs.io.WeightsManifestEntry[],
  parts: Uint8Array[]
): ModelArtifacts {
  const all = Buffer.concat(parts)
  return {
    modelTopology: json.modelTopology,
    format: json.format,
    generatedBy: json.generatedBy,
    convertedBy: json.convertedBy,
    trainingConfig: json.trainingConfig,
    userDefinedMetadata: json.userDefinedMetadata,
    // graph models: their signature (inputs, outputs) and initializers
    signature: json.signature,
    modelInitializer: json.modelInitializer,
    initializerSignature: json.initializerSignature,
    weightSpecs,
    weightData: all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength)
  }
}

export function fileIO (modelJsonPath: string): IOHandler {
  const dir = dirname(modelJsonPath)
  return {
    async load (): Promise<ModelArtifacts> {
      const json = JSON.parse(await readFile(modelJsonPath, 'utf8'))
      const manifest: WeightsManifestConfig = json.weightsManifest ?? []
      const weightSpecs = []
      const buffers: Buffer[] = []
      for (const group of manifest) {
        weightSpecs.push(...group.weights)
        for (const p of group.paths) buffers.push(await readFile(join(dir, p)))
      }
      return artifactsOf(json, weightSpecs, buffers)
    },
    async save (artifacts: ModelArtifacts) {
      await mkdir(dir, { recursive: true })
      const weightsFile = 'weights.bin'
      const data = artifacts.weightData
      const bytes =
        data == null
          ? Buffer.alloc(0)
          : Array.isArray(data)
            ? Buffer.concat(data.map(b => Buffer.from(b)))
            : Buffer.from(data)
      await writeFile(join(dir, weightsFile), bytes)
      const json = {
        format: artifacts.format ?? 'layers-model',
        generatedBy: artifacts.generatedBy,
        convertedBy: artifacts.convertedBy ?? null,
        modelTopology: artifacts.modelTopology,
        userDefinedMetadata: artifacts.userDefinedMetadata,
        weightsManifest: [{ paths: [weightsFile], weights: artifacts.weightSpecs ?? [] }]
      }
      await writeFile(modelJsonPath, JSON.stringify(json))
      return {
        modelArtifactsInfo: { dateSaved: new Date(), modelTopologyType: 'JSON', weightDataBytes: bytes.byteLength }
      }
    }
  }
}
