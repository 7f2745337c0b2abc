// Arrays made once per process: a loader finds the adopted copy by its folder's real path, checked
// to be the kind it reads, and makes its own when the process shares none.
import t from 'tap'
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { adoptShared, folderKey, readFileShared, shared } from '../../../../lib/text/pool/shared-memory.js'
import { tempDir } from '../../../helper.js'

t.test("the adopted array, found through a symlinked folder; else the loader's own", async t => {
  const root = tempDir(t)
  mkdirSync(join(root, 'real'))
  symlinkSync(join(root, 'real'), join(root, 'link'))
  const table = new Float32Array(new SharedArrayBuffer(16))
  table[2] = 0.5
  t.teardown(() => adoptShared(undefined))
  let made = 0
  const own = new Float32Array(4)
  const make = () => {
    made++
    return own
  }
  t.equal(await shared(join(root, 'link'), 'rows', Float32Array, make), own, 'nothing adopted: its own')
  t.equal(made, 1)
  made = 0
  adoptShared({ [folderKey(join(root, 'real'))]: { rows: table } })
  t.equal(await shared(join(root, 'link'), 'rows', Float32Array, make), table, "the process's copy, by the real path")
  t.equal(made, 0, 'without making one')
  t.equal(await shared(join(root, 'real'), 'other', Float32Array, make), own, 'a name not shared: its own')
  await t.rejects(
    shared(join(root, 'real'), 'rows', Int8Array, () => new Int8Array(1)),
    /the shared rows of .* is a Float32Array, its loader reads a Int8Array/
  )
})

t.test("readFileShared: the file's bytes in a SharedArrayBuffer", async t => {
  const dir = tempDir(t)
  const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 31) & 255))
  writeFileSync(join(dir, 'w.bin'), bytes)
  writeFileSync(join(dir, 'empty.bin'), '')
  const got = await readFileShared(join(dir, 'w.bin'))
  t.ok(got.buffer instanceof SharedArrayBuffer)
  t.ok(Buffer.from(got.buffer).equals(readFileSync(join(dir, 'w.bin'))), 'every byte')
  t.equal((await readFileShared(join(dir, 'empty.bin'))).length, 0)
  await t.rejects(readFileShared(join(dir, 'missing.bin')), { code: 'ENOENT' })
})
