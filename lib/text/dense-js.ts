// The layers after a classifier's sums in plain JS, for small batches: TF.js costs several
// microseconds of bookkeeping per kernel call (tensor creation, the engine, the wasm call), which
// for one short text is most of the model's time, while the arithmetic of a few small Dense layers
// is a few thousand multiply-adds. Large batches stay on TF.js, whose kernels are faster per
// multiply-add. Supported: Dense (linear, relu, sigmoid, tanh, softmax), Concatenate on the last
// axis, Flatten of rank-2 values, Multiply, Add; anything else and the caller keeps TF.js.

type Layer = import('@tensorflow/tfjs').LayersModel['layers'][number]

/** a row-major [rows x cols] matrix */
export interface Mat { data: Float32Array, rows: number, cols: number }
export type JsStep = (inputs: Mat[]) => Mat

const ACTIVATIONS = new Set(['linear', 'relu', 'sigmoid', 'tanh', 'softmax'])

/** The layer as a plain-JS step, or null if it is not one of the supported kinds. */
export function jsStep (layer: Layer): JsStep | null {
  const cls = layer.getClassName()
  if (cls === 'Flatten') return (inputs) => inputs[0]!
  if (cls === 'Multiply' || cls === 'Add') return (inputs) => elementwise(inputs, cls === 'Multiply')
  if (cls === 'Concatenate') {
    const axis = (layer.getConfig() as { axis?: number }).axis ?? -1
    return axis === -1 || axis === 1 ? concat : null
  }
  if (cls !== 'Dense') return null
  const cfg = layer.getConfig() as { activation?: string, useBias?: boolean }
  const activation = cfg.activation ?? 'linear'
  const [kernel, bias] = layer.getWeights()
  if (!ACTIVATIONS.has(activation) || kernel === undefined || kernel.rank !== 2) return null
  const k = kernel.dataSync() as Float32Array
  const [inputs, units] = kernel.shape as [number, number]
  const b = cfg.useBias === false || bias === undefined ? new Float32Array(units) : bias.dataSync() as Float32Array
  // the kernel transposed, [units x inputs]: each output is a dot product over contiguous memory,
  // summed in a local variable (a store per multiply-add, into a Float32Array, costs twice as much)
  const kt = new Float32Array(k.length)
  for (let i = 0; i < inputs; i++) for (let j = 0; j < units; j++) kt[j * inputs + i] = k[i * units + j] as number
  return (xs) => {
    const x = xs[0]!
    const out = new Float32Array(x.rows * units)
    for (let r = 0; r < x.rows; r++) {
      const at = r * inputs
      for (let j = 0; j < units; j++) {
        let sum = b[j] as number
        for (let i = 0, w = j * inputs; i < inputs; i++, w++) sum += (x.data[at + i] as number) * (kt[w] as number)
        out[r * units + j] = sum
      }
      activate(out, r * units, units, activation)
    }
    return { data: out, rows: x.rows, cols: units }
  }
}

function activate (a: Float32Array, from: number, n: number, activation: string): void {
  const end = from + n
  if (activation === 'relu') for (let j = from; j < end; j++) a[j] = Math.max(0, a[j] as number)
  else if (activation === 'sigmoid') for (let j = from; j < end; j++) a[j] = 1 / (1 + Math.exp(-(a[j] as number)))
  else if (activation === 'tanh') for (let j = from; j < end; j++) a[j] = Math.tanh(a[j] as number)
  else if (activation === 'softmax') {
    let max = -Infinity
    for (let j = from; j < end; j++) max = Math.max(max, a[j] as number)
    let sum = 0
    for (let j = from; j < end; j++) { a[j] = Math.exp((a[j] as number) - max); sum += a[j] as number }
    for (let j = from; j < end; j++) a[j] = (a[j] as number) / sum
  }
}

function concat (inputs: Mat[]): Mat {
  const rows = inputs[0]!.rows
  const cols = inputs.reduce((s, m) => s + m.cols, 0)
  const data = new Float32Array(rows * cols)
  for (let r = 0; r < rows; r++) {
    let at = r * cols
    for (const m of inputs) { data.set(m.data.subarray(r * m.cols, (r + 1) * m.cols), at); at += m.cols }
  }
  return { data, rows, cols }
}

function elementwise (inputs: Mat[], multiply: boolean): Mat {
  const data = Float32Array.from(inputs[0]!.data)
  for (const m of inputs.slice(1)) for (let i = 0; i < data.length; i++) data[i] = multiply ? (data[i] as number) * (m.data[i] as number) : (data[i] as number) + (m.data[i] as number)
  return { ...inputs[0]!, data }
}

/** A matrix's rows as arrays (the shape predict answers in). */
export function rowsOf (m: Mat): number[][] {
  const out: number[][] = []
  for (let r = 0; r < m.rows; r++) out.push(Array.from(m.data.subarray(r * m.cols, (r + 1) * m.cols)))
  return out
}
