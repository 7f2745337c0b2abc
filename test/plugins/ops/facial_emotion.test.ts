import t from 'tap'
import sharp from 'sharp'
import { build, buildWithRealModels, hasRealModel, KEY, multipart } from '../../helper.js'
import { FACES, PORTRAIT, pngBombHeader, toBmp } from '../../image-fixtures.js'

const jpeg = Buffer.from('ffd8ffe000104a46494600010100000100010000ffd9', 'hex')
const EMOTIONS = ['Angry', 'Disgust', 'Fear', 'Happy', 'Sad', 'Surprise', 'Neutral']
type Face = {
  box: { x: number; y: number; width: number; height: number }
  facial_emotion: Array<{ tag: string; score: number }>
}
type Reply = { facial_emotion: Array<{ tag: string; score: number }>; faces: Face[] }
/** the group photo's answer with the default crop, compared with FACIAL_EMOTION_CROP=detector's below */
let defaultGroup: Reply | undefined

t.test('without its model: 503 naming it at /v4 and /v3, not a made-up answer', async t => {
  const app = await build(t)
  for (const url of ['/v4/facial_emotion', '/v3/facial_emotion']) {
    const res = await app.inject({
      method: 'POST',
      url,
      ...multipart([
        { name: 'api_key', value: KEY },
        { name: 'file', value: jpeg, filename: 'file' }
      ])
    })
    t.equal(res.statusCode, 503)
    t.match(res.json(), { code: 503, message: /model-store\/facial_emotion/ })
  }
})

t.test(
  'with the model',
  { timeout: 300_000, skip: hasRealModel('facial_emotion') ? false : 'model-store/facial_emotion missing' },
  async t => {
    const app = await buildWithRealModels(t, ['facial_emotion'], { env: { IMAGE_MAX_PIXELS: '20000000' } })
    const send = (
      file: Buffer,
      part: { filename?: string; type?: string } = { filename: 'file' },
      url = '/v4/facial_emotion'
    ) =>
      app.inject({
        method: 'POST',
        url,
        ...multipart([
          { name: 'api_key', value: KEY },
          { name: 'file', value: file, ...part }
        ])
      })
    const check = (t: Tap, reply: Reply) => {
      t.ok(reply.faces.length >= 1, 'a face')
      for (const f of reply.faces) {
        t.same(f.facial_emotion.map(e => e.tag).sort(), [...EMOTIONS].sort(), 'the 7 tags')
        t.ok(Math.abs(f.facial_emotion.reduce((a, e) => a + e.score, 0) - 1) < 1e-4, 'scores sum to 1')
        for (let i = 1; i < 7; i++) t.ok(f.facial_emotion[i - 1]!.score >= f.facial_emotion[i]!.score, 'best first')
      }
      t.same(reply.facial_emotion, reply.faces[0]!.facial_emotion, 'top level is the largest face')
    }
    type Tap = typeof t

    const group = await sharp(FACES).resize({ width: 1200 }).jpeg().toBuffer()
    const formats: Record<string, Buffer> = {
      jpeg: group,
      png: await sharp(group).png().toBuffer(),
      tiff: await sharp(group).tiff().toBuffer(),
      bmp: await toBmp(group, 600)
    }
    for (const [name, bytes] of Object.entries(formats)) {
      // the Python client's style: filename="file", no part type; and a misleading name and type
      const res = await send(
        bytes,
        name === 'png' ? { filename: 'photo.jpg', type: 'image/jpeg' } : { filename: 'file' }
      )
      t.equal(res.statusCode, 200, `${name}: ${res.body.slice(0, 200)}`)
      const body = res.json() as Reply
      check(t, body)
      const box = body.faces[0]!.box
      const width = name === 'bmp' ? 600 : 1200
      t.ok(box.x >= 0 && box.x + box.width <= width, `${name}: box inside the image`)
    }

    const v3 = await send(group, { filename: 'file' }, '/v3/facial_emotion')
    t.equal(v3.statusCode, 200, '/v3 alias')

    // pixels stored sideways with an EXIF orientation that makes them upright: found only if honoured
    const upright = (await send(group)).json() as Reply
    defaultGroup = upright
    const sideways = await sharp(await sharp(group).rotate(270).toBuffer())
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer()
    const exif = (await send(sideways)).json() as Reply
    t.equal(exif.faces.length, upright.faces.length, 'EXIF orientation honoured: the same faces are found')
    t.ok(
      exif.faces.every(f => f.box.x + f.box.width <= 1200 && f.box.y + f.box.height <= 961),
      'boxes in upright coordinates (1200x961)'
    )

    const blank = await sharp({
      create: { width: 320, height: 240, channels: 3, background: { r: 30, g: 120, b: 200 } }
    })
      .png()
      .toBuffer()
    const none = await send(blank)
    t.equal(none.statusCode, 200)
    t.same(none.json(), { facial_emotion: [], faces: [] }, 'no face: empty lists, not an error')

    const multi = (await send(FACES)).json() as Reply
    t.ok(multi.faces.length >= 4, `the four people of the group photo: ${multi.faces.length} faces`)
    t.ok(
      multi.faces[0]!.box.width * multi.faces[0]!.box.height >= multi.faces[1]!.box.width * multi.faces[1]!.box.height,
      'largest first'
    )

    const bomb = await send(pngBombHeader(30000, 30000))
    t.equal(bomb.statusCode, 413, 'a 900-megapixel header is refused before decoding')
    t.match(bomb.json(), { code: 413, message: /pixels/ })
    const bmpHeader = Buffer.alloc(64)
    bmpHeader.write('BM', 0)
    bmpHeader.writeInt32LE(40000, 18)
    bmpHeader.writeInt32LE(40000, 22)
    t.equal((await send(bmpHeader)).statusCode, 413, 'a huge bmp header too')
    const truncated = await send(PORTRAIT.subarray(0, 200))
    t.equal(truncated.statusCode, 415, 'a truncated jpeg does not decode')
    t.match(truncated.json(), { code: 415, error: 'Unsupported Media Type' })
    t.equal(
      (await send(Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(100, 3)])))
        .statusCode,
      415,
      'a corrupt png'
    )
    t.equal((await app.inject({ method: 'GET', url: '/health/live' })).statusCode, 200, 'still alive')

    // no tensor outlives its request: the worker's live tensor count is the same after more images
    const { imagePool } = await import('../../../lib/image/human.js')
    await send(group)
    const before = imagePool()!.tensors
    for (let i = 0; i < 3; i++) await send(formats.png!)
    await send(group.subarray(0, 300))
    t.equal(imagePool()!.tensors, before, `no tensor leak (${before} live tensors)`)

    // an image worker that stops while it runs a job (killed, or out of its heap): that request gets
    // a JSON 500, the worker is replaced, and the next request is served
    const pool = imagePool()!
    const workers = pool.stats().workers
    const replaced = pool.replaced
    const pending = send(FACES)
    while (pool.stats().busy === 0) await new Promise(resolve => setImmediate(resolve))
    const threads = pool.threads()
    await Promise.all(threads.map(w => w.terminate()))
    const failed = await pending
    t.equal(failed.statusCode, 500)
    t.match(failed.json(), { code: 500, message: /Internal error/ })
    while (pool.replaced < replaced + threads.length) await new Promise(resolve => setTimeout(resolve, 50))
    t.equal(pool.stats().workers, workers, 'as many workers as before')
    t.equal((await send(group)).statusCode, 200, 'served after the replacement')
  }
)

t.test(
  "FACIAL_EMOTION_CROP=detector: face-api's own detector crops the face for its expression net",
  { timeout: 300_000, skip: hasRealModel('facial_emotion') ? false : 'model-store/facial_emotion missing' },
  async t => {
    const app = await buildWithRealModels(t, ['facial_emotion'], { env: { FACIAL_EMOTION_CROP: 'detector' } })
    const send = (file: Buffer) =>
      app.inject({
        method: 'POST',
        url: '/v4/facial_emotion',
        ...multipart([
          { name: 'api_key', value: KEY },
          { name: 'file', value: file, filename: 'file' }
        ])
      })
    const group = await sharp(FACES).resize({ width: 1200 }).jpeg().toBuffer()
    const res = await send(group)
    t.equal(res.statusCode, 200)
    const body = res.json() as Reply
    t.ok(body.faces.length >= 1, 'a face')
    for (const f of body.faces) {
      t.same(f.facial_emotion.map(e => e.tag).sort(), [...EMOTIONS].sort(), 'the 7 tags')
      t.ok(Math.abs(f.facial_emotion.reduce((a, e) => a + e.score, 0) - 1) < 1e-4, 'scores sum to 1')
    }
    if (defaultGroup !== undefined) {
      t.same(
        body.faces.map(f => f.box),
        defaultGroup.faces.map(f => f.box),
        'the same faces (Human finds them either way)'
      )
      t.notSame(
        body.faces.map(f => f.facial_emotion),
        defaultGroup.faces.map(f => f.facial_emotion),
        "face-api's net saw other crops"
      )
    }
    const blank = await sharp({
      create: { width: 320, height: 240, channels: 3, background: { r: 30, g: 120, b: 200 } }
    })
      .png()
      .toBuffer()
    t.same((await send(blank)).json(), { facial_emotion: [], faces: [] }, 'no face: empty lists')
    t.equal((await send(PORTRAIT)).statusCode, 200, 'the portrait')
  }
)
