// The dashboard's playground: a form for every operation (texts, batches, a second text, an aspect
// or labels, an image file or address), the curl command that sends the same, and the answer shown
// readably (./results.js) and as JSON.
import { $, el } from './dom.js'
import { apiBase, call, key } from './api.js'
import { readable } from './results.js'

const IMAGE_OPS = ['facial_emotion', 'object_recognizer', 'nsfw']
// the languages of each operation that takes lang_code (docs/languages.md); omitted: detected
const OP_LANGS = {
  sentiment: 'en, ar, de, es, fr, hi, it, pt, nl',
  emotion: 'en, es, de, fr, it, pt, nl',
  sarcasm: 'en',
  ner: 'en, es, nl, de',
  keywords: 'en, es, nl, de, fr, it, pt'
}
// operations with one more field: its name on the wire, its label here, an example value
const EXTRA = {
  target_sentiment: { field: 'aspect', label: 'Aspect (it must occur in the text)', example: 'update' },
  custom_classifier: {
    field: 'category',
    label: 'Your labels, comma-separated (sent as a JSON list)',
    example: 'software, food, travel, politics'
  }
}
export function syncInputs () {
  const op = $('#pg-op').value
  $('#pg-lang').disabled = OP_LANGS[op] === undefined
  $('#pg-langs').textContent =
    OP_LANGS[op] === undefined
      ? op === 'language_detection'
        ? 'Detects 56 languages.'
        : 'English only.'
      : `Languages: ${OP_LANGS[op]}. Auto detects each text's language (English when too short to tell).`
  const image = IMAGE_OPS.includes(op)
  $('#pg-text-inputs').hidden = image
  $('#pg-image-inputs').hidden = !image
  $('#pg-second').hidden = op !== 'similarity'
  $('#pg-batch').disabled = image || op === 'similarity' || op === 'custom_classifier'
  const extra = EXTRA[op]
  $('#pg-extra-row').hidden = extra === undefined
  if (extra !== undefined) {
    $('#pg-extra-label').textContent = extra.label
    $('#pg-extra').value = extra.example
  }
}
$('#pg-op').addEventListener('change', syncInputs)

const drop = $('#drop')
drop.addEventListener('dragover', e => {
  e.preventDefault()
  drop.classList.add('over')
})
drop.addEventListener('dragleave', () => drop.classList.remove('over'))
drop.addEventListener('drop', e => {
  e.preventDefault()
  drop.classList.remove('over')
  if (e.dataTransfer.files.length > 0) {
    const dt = new DataTransfer()
    dt.items.add(e.dataTransfer.files[0])
    $('#pg-file').files = dt.files
  }
})

function curlFor (path, fields, file) {
  const parts = [`curl -s ${location.origin}${apiBase}${path}`]
  for (const [k, v] of fields) {
    parts.push(
      file
        ? `-F ${k}=${shellQuote(k === 'api_key' ? '$API_KEY' : v)}`
        : `--data-urlencode ${shellQuote(`${k}=${k === 'api_key' ? '$API_KEY' : v}`)}`
    )
  }
  if (file) parts.push(`-F file=@${shellQuote(file.name)}`)
  return parts
    .join(' \\\n  ')
    .replace(/'\$API_KEY'/g, '"$API_KEY"')
    .replace(/'api_key=\$API_KEY'/, '"api_key=$API_KEY"')
}
const shellQuote = s => `'${String(s).replace(/'/g, "'\\''")}'`

$('#pg-form').addEventListener('submit', async e => {
  e.preventDefault()
  const op = $('#pg-op').value
  const batch = $('#pg-batch').checked && !$('#pg-batch').disabled
  const fields = [['api_key', key()]]
  let body
  let file = null
  const path = `/v4/${op}${batch ? '_batch' : ''}`
  if (IMAGE_OPS.includes(op)) {
    file = $('#pg-file').files[0] ?? null
    const url = $('#pg-url').value.trim()
    if (file === null && url !== '') fields.push(['url', url])
    if (file !== null) {
      body = new FormData()
      body.append('api_key', key())
      body.append('file', file, 'file')
    }
  } else if (op === 'similarity') {
    fields.push(['text_1', $('#pg-text').value], ['text_2', $('#pg-text2').value])
  } else {
    const texts = $('#pg-text')
      .value.split('\n')
      .map(t => t.trim())
      .filter(Boolean)
    fields.push(['text', batch ? JSON.stringify(texts) : $('#pg-text').value])
    if (op === 'new/intent') fields.push(['query', 'feedback'])
    const extra = EXTRA[op]
    if (extra?.field === 'aspect') fields.push(['aspect', $('#pg-extra').value])
    if (extra?.field === 'category') {
      fields.push([
        'category',
        JSON.stringify(
          $('#pg-extra')
            .value.split(',')
            .map(l => l.trim())
            .filter(Boolean)
        )
      ])
    }
  }
  const lang = $('#pg-lang').value
  if (lang !== '' && OP_LANGS[op] !== undefined) fields.push(['lang_code', lang])
  body ??= new URLSearchParams(fields)
  $('#pg-curl').textContent = curlFor(path, fields, file)
  $('#pg-status').textContent = 'Sending…'
  const t0 = performance.now()
  const { status, json } = await call(path, body)
  $('#pg-status').textContent = `${status} in ${Math.round(performance.now() - t0)} ms`
  $('#pg-json').textContent = JSON.stringify(json, null, 2)
  const view = $('#pg-view')
  if (status !== 200) {
    view.replaceChildren(el('p', { class: 'error', role: 'alert' }, `${json.error ?? 'Error'}: ${json.message}`))
    return
  }
  const texts = batch ? JSON.parse(fields.find(f => f[0] === 'text')[1]) : [fields.find(f => f[0] === 'text')?.[1]]
  view.replaceChildren(...readable(op, json, texts, batch, file ?? fields.find(f => f[0] === 'url')?.[1]))
})
