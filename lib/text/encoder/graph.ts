// Two edits of an ONNX model's bytes (a protobuf ModelProto) as it loads:
// - withOutputs: inner tensors made outputs, so that one forward pass can give a middle layer's states too
//   (a token head may read a layer below the last: docs/models/ner-multilingual.md). The graph (field 7)
//   gets one more output (GraphProto field 12, a ValueInfoProto) a tensor, appended: protobuf reads
//   repeated fields in any order, so nothing else moves.
// - withUnsignedWeights: int8 weights stored as uint8, for CPUs whose int8 kernels saturate (docs/models/
//   text-encoder.md).

const MODEL_GRAPH = 7
const GRAPH_INITIALIZER = 5
const GRAPH_OUTPUT = 12
const TENSOR_DATA_TYPE = 2
const TENSOR_INT32_DATA = 5
const TENSOR_RAW_DATA = 9
const FLOAT = 1
const UINT8 = 2
const INT8 = 3

function varint (n: number): number[] {
  const out: number[] = []
  while (n > 0x7f) {
    out.push((n % 0x80) | 0x80)
    n = Math.floor(n / 0x80)
  }
  out.push(n)
  return out
}

/** a length-delimited field: its tag and length, then the contents as they are (not copied) */
function delimited (num: number, contents: readonly Buffer[]): Buffer[] {
  const length = contents.reduce((n, b) => n + b.length, 0)
  return [Buffer.from(varint(num * 8 + 2).concat(varint(length))), ...contents]
}

/** the ValueInfoProto of a float tensor: name (1) and type (2: TypeProto, tensor_type 1, elem_type 1) */
function floatOutput (name: string): Buffer[] {
  const type = delimited(2, delimited(1, [Buffer.from([0x08, FLOAT])]))
  return delimited(GRAPH_OUTPUT, [...delimited(1, [Buffer.from(name, 'utf8')]), ...type])
}

function readVarint (buf: Uint8Array, at: number): [number, number] {
  let n = 0
  let scale = 1
  for (;;) {
    const b = buf[at++]
    if (b === undefined) throw new Error('the ONNX model ends inside a varint')
    n += (b & 0x7f) * scale
    if (b < 0x80) return [n, at]
    scale *= 0x80
  }
}

interface Field {
  num: number
  wire: number
  /** the tag's first byte */
  start: number
  /** the value: a varint's bytes, or a length-delimited field's contents */
  from: number
  to: number
}

/** the fields of the message in buf[from, to) */
function * fields (buf: Uint8Array, from = 0, to = buf.length): Generator<Field> {
  let at = from
  while (at < to) {
    const start = at
    const [tag, next] = readVarint(buf, at)
    const wire = tag % 8
    let value = next
    if (wire === 0) at = readVarint(buf, next)[1]
    else if (wire === 1) at = next + 8
    else if (wire === 5) at = next + 4
    else if (wire === 2) {
      const [length, contents] = readVarint(buf, next)
      value = contents
      at = contents + length
    } else throw new Error(`the ONNX model has a field of wire type ${wire}`)
    if (at > to) throw new Error('the ONNX model ends inside a field')
    yield { num: Math.floor(tag / 8), wire, start, from: value, to: at }
  }
}

/** where the top-level field `num` lies */
function findField (buf: Uint8Array, num: number): Field {
  for (const f of fields(buf)) if (f.num === num) return f
  throw new Error(`the ONNX model has no field ${num}`)
}

/** The model's bytes with the float tensors `names` among its graph's outputs. */
export function withOutputs (model: Buffer, names: readonly string[]): Buffer {
  if (names.length === 0) return model
  const { start, from, to } = findField(model, MODEL_GRAPH)
  const graph = delimited(MODEL_GRAPH, [model.subarray(from, to), ...names.flatMap(floatOutput)])
  return Buffer.concat([model.subarray(0, start), ...graph, model.subarray(to)])
}

/** an int8 varint's low byte (a negative one is ten bytes long: only its first two matter) */
function lowByte (buf: Uint8Array, at: number): number {
  const b0 = buf[at] as number
  return b0 < 0x80 ? b0 : (b0 & 0x7f) | (((buf[at + 1] as number) & 1) << 7)
}

/** an int8 tensor's bytes, from raw_data or int32_data (packed or not) */
function int8Values (model: Buffer, parts: readonly Field[]): Uint8Array {
  const raw = parts.find(f => f.num === TENSOR_RAW_DATA)
  if (raw !== undefined) return model.subarray(raw.from, raw.to)
  const out: number[] = []
  for (const f of parts.filter(p => p.num === TENSOR_INT32_DATA)) {
    if (f.wire === 0) out.push(lowByte(model, f.from))
    else for (let at = f.from; at < f.to; at = readVarint(model, at)[1]) out.push(lowByte(model, at))
  }
  return Uint8Array.from(out)
}

/** an int8 TensorProto as uint8: its other fields as they were, each value plus 128 as raw_data */
function unsignedTensor (model: Buffer, parts: readonly Field[]): Buffer | undefined {
  const type = parts.find(f => f.num === TENSOR_DATA_TYPE)
  if (type === undefined || readVarint(model, type.from)[0] !== INT8) return undefined
  const kept = parts.filter(f => ![TENSOR_DATA_TYPE, TENSOR_INT32_DATA, TENSOR_RAW_DATA].includes(f.num))
  const values = Buffer.from(int8Values(model, parts).map(b => b ^ 0x80))
  const type8 = Buffer.from([TENSOR_DATA_TYPE * 8, UINT8])
  const others = kept.map(f => model.subarray(f.start, f.to))
  return Buffer.concat([...others, type8, ...delimited(TENSOR_RAW_DATA, [values])])
}

/**
 * The model with its int8 initializers (the weights and zero points of MatMulInteger, as quantize_dynamic
 * writes them) stored as uint8, each value plus 128: (b - zp) is unchanged, so the products are the same.
 * onnxruntime then runs its u8u8 kernels, which do not saturate where its u8s8 ones do (x64 CPUs without
 * VNNI sum pairs of products in 16 bits), so every CPU computes what a VNNI one does.
 */
export function withUnsignedWeights (model: Buffer): Buffer {
  const graph = findField(model, MODEL_GRAPH)
  const pieces: Buffer[] = []
  let changed = false
  for (const f of fields(model, graph.from, graph.to)) {
    const tensor = f.num === GRAPH_INITIALIZER ? unsignedTensor(model, [...fields(model, f.from, f.to)]) : undefined
    changed ||= tensor !== undefined
    pieces.push(...(tensor === undefined ? [model.subarray(f.start, f.to)] : delimited(GRAPH_INITIALIZER, [tensor])))
  }
  if (!changed) return model
  return Buffer.concat([model.subarray(0, graph.start), ...delimited(MODEL_GRAPH, pieces), model.subarray(graph.to)])
}
