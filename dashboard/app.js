// The dashboard: usage of the signed-in key, a playground for every operation, and the operator's
// key administration. Plain ES modules, no framework, no CDN; the key and the admin token stay in
// session storage only.
import { $, el, svgEl } from './dom.js'
import { renderHistory } from './chart.js'

const apiBase = location.pathname.replace(/\/dashboard\/?.*$/, '')
const key = () => sessionStorage.getItem('apiKey')
const fmt = n => (n === null || n === undefined ? 'no limit' : Number(n).toLocaleString('en'))

async function call (path, body, opts = {}) {
  const res = await fetch(apiBase + path, { method: 'POST', body, ...opts })
  let json = null
  try {
    json = await res.json()
  } catch {
    json = { message: 'the answer was not JSON' }
  }
  return { status: res.status, json }
}

// ---- views -------------------------------------------------------------------------------------
function show (view) {
  const signedIn = key() !== null
  $('#signin').hidden = signedIn || view === 'operator'
  for (const v of document.querySelectorAll('.view')) {
    v.hidden = v.id !== `view-${view}` || (view !== 'operator' && !signedIn)
  }
  for (const b of document.querySelectorAll('nav button')) {
    b.setAttribute('aria-current', b.dataset.view === view ? 'page' : 'false')
  }
  sessionStorage.setItem('view', view)
  if (view === 'usage' && signedIn) void loadUsage()
}
for (const b of document.querySelectorAll('nav button')) b.addEventListener('click', () => show(b.dataset.view))

$('#signin-form').addEventListener('submit', async e => {
  e.preventDefault()
  const k = $('#api-key').value.trim()
  const { status, json } = await call('/usage', new URLSearchParams({ api_key: k }))
  if (status !== 200) {
    $('#signin-error').textContent = json.message ?? `sign-in failed (${status})`
    return
  }
  sessionStorage.setItem('apiKey', k)
  $('#signin-error').textContent = ''
  $('#api-key').value = ''
  show('usage')
})
$('#signout').addEventListener('click', () => {
  sessionStorage.removeItem('apiKey')
  show('usage')
})
$('#refresh-usage').addEventListener('click', () => loadUsage())

// ---- usage -------------------------------------------------------------------------------------
function meter (label, counter) {
  const width = 320
  const h = 22
  const frac = counter.limit ? Math.min(1, counter.used / counter.limit) : 0
  const svg = svgEl('svg', {
    viewBox: `0 0 ${width} ${h}`,
    width: '100%',
    height: h,
    preserveAspectRatio: 'none',
    role: 'img',
    'aria-label': `${label}: ${fmt(counter.used)} used of ${fmt(counter.limit)}`
  })
  svg.append(svgEl('rect', { x: 0, y: 0, width, height: h, rx: 4, class: 'track' }))
  svg.append(
    svgEl('rect', {
      x: 0,
      y: 0,
      width: Math.max(2, frac * width),
      height: h,
      rx: 4,
      class: frac > 0.9 ? 'bar warn' : 'bar'
    })
  )
  return el(
    'div',
    { class: 'meter' },
    el('span', {}, `${label}: ${fmt(counter.used)} used of ${fmt(counter.limit)}`),
    svg
  )
}

async function loadUsage () {
  const { status, json } = await call('/usage', new URLSearchParams({ api_key: key() }))
  if (status === 401) {
    sessionStorage.removeItem('apiKey')
    show('usage')
    $('#signin-error').textContent = json.message
    return
  }
  if (status !== 200) {
    $('#plan').textContent = json.message
    return
  }
  const plan = $('#plan')
  plan.replaceChildren(
    el('dt', {}, 'Key'),
    el('dd', {}, `${json.key.name} (${json.key.id})`),
    el('dt', {}, 'Rate limit'),
    el('dd', {}, json.rate_limit === null ? 'no limit' : `${json.rate_limit} requests per second`),
    el('dt', {}, 'Resets'),
    el(
      'dd',
      {},
      `daily at ${json.text.daily.reset.slice(0, 16).replace('T', ' ')} UTC, monthly at ${json.text.monthly.reset.slice(0, 10)}`
    )
  )
  $('#chart-text').replaceChildren(meter('Today', json.text.daily), meter('This month', json.text.monthly))
  $('#chart-image').replaceChildren(meter('Today', json.image.daily), meter('This month', json.image.monthly))
  renderHistory(json.history)
}

// ---- playground --------------------------------------------------------------------------------
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
function syncInputs () {
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

function scoreBars (scores) {
  return el(
    'ul',
    { class: 'scores' },
    Object.entries(scores)
      .sort((a, b) => b[1] - a[1])
      .map(([label, p]) =>
        el(
          'li',
          {},
          el('span', { class: 'label' }, label),
          el(
            'span',
            { class: 'barwrap', 'aria-hidden': 'true' },
            el('span', { class: 'fill', style: `width:${(p * 100).toFixed(1)}%` })
          ),
          el('span', { class: 'pct' }, `${(p * 100).toFixed(1)}%`)
        )
      )
  )
}

function highlight (text, entities) {
  const p = el('p', { class: 'ner' })
  let at = 0
  for (const e of entities) {
    p.append(
      text.slice(at, e.start),
      el(
        'mark',
        { class: `cat-${e.category}`, title: `${e.category} ${(e.confidence_score * 100).toFixed(0)}%` },
        text.slice(e.start, e.end),
        el('small', {}, ` ${e.category}`)
      )
    )
    at = e.end
  }
  p.append(text.slice(at))
  return p
}

function imageView (source, boxes) {
  const src = source instanceof File ? URL.createObjectURL(source) : source
  const wrap = el('div', { class: 'imgwrap' })
  const img = el('img', { src, alt: 'the analysed image' })
  wrap.append(img)
  img.addEventListener('load', () => {
    const svg = svgEl('svg', {
      viewBox: `0 0 ${img.naturalWidth} ${img.naturalHeight}`,
      class: 'boxes',
      'aria-hidden': 'true'
    })
    for (const b of boxes) {
      svg.append(svgEl('rect', { x: b.box.x, y: b.box.y, width: b.box.width, height: b.box.height }))
      const t = svgEl('text', {
        x: b.box.x + 4,
        y: b.box.y + Math.max(24, img.naturalHeight / 30),
        'font-size': Math.max(16, img.naturalHeight / 30)
      })
      t.textContent = b.label
      svg.append(t)
    }
    wrap.append(svg)
  })
  return wrap
}

function readable (op, json, texts, batch, image) {
  const one = i => (batch ? i : undefined)
  const pick = (arr, i) => (i === undefined ? arr : arr[i])
  const out = []
  const count = batch ? texts.length : 1
  for (let n = 0; n < count; n++) {
    const i = one(n)
    const head = batch ? [el('h4', {}, texts[n])] : []
    switch (op) {
      case 'sentiment':
        out.push(...head, scoreBars(pick(json.sentiment, i)))
        break
      case 'emotion':
        out.push(...head, scoreBars(pick(json.emotion, i)))
        break
      case 'sarcasm':
        out.push(...head, scoreBars(batch ? json[n] : json))
        break
      case 'intent':
        out.push(...head, scoreBars(batch ? json.intent[n].intent : json.intent))
        break
      case 'new/intent': {
        const r = batch ? json.intent[n] : json
        out.push(...head, scoreBars(r.intent))
        if (r.feedback) out.push(el('h5', {}, 'Feedback'), scoreBars(r.feedback))
        break
      }
      case 'taxonomy':
        out.push(
          ...head,
          el(
            'ol',
            { class: 'tags' },
            pick(json.taxonomy, i).map(t => el('li', {}, `${t.tag} (${(t.confidence_score * 100).toFixed(1)}%)`))
          )
        )
        break
      case 'keywords':
        out.push(
          ...head,
          el(
            'ol',
            { class: 'tags' },
            pick(json.keywords, i).map(k => el('li', {}, `${k.keyword} (${(k.confidence_score * 100).toFixed(0)}%)`))
          )
        )
        break
      case 'ner':
        out.push(highlight(texts[n], pick(json.entities, i)))
        break
      case 'similarity':
        out.push(scoreBars({ similarity: json.similarity_score }))
        break
      case 'language_detection': {
        const g = batch ? json.batch[n] : json
        out.push(...head, scoreBars({ [`${g.output} (${g.lang_code})`]: g.prob }))
        break
      }
      case 'facial_emotion':
        out.push(
          json.faces.length === 0
            ? el('p', {}, 'No face found.')
            : scoreBars(Object.fromEntries(json.facial_emotion.map(e => [e.tag, e.score])))
        )
        if (image) {
          out.push(
            imageView(
              image,
              json.faces.map(f => ({ box: f.box, label: f.facial_emotion[0].tag }))
            )
          )
        }
        break
      case 'abuse': {
        const r = batch ? json.abuse[n] : json
        out.push(...head, el('p', {}, `${r.sentence_type} (${(r.confidence_score * 100).toFixed(1)}%)`))
        break
      }
      case 'target_sentiment': {
        const r = batch ? json.batch[n] : json
        out.push(
          highlight(
            texts[n],
            r.offsets.map(o => ({ ...o, category: r.aspect, confidence_score: 1 }))
          ),
          scoreBars(r.sentiment)
        )
        break
      }
      case 'custom_classifier':
        out.push(scoreBars(Object.fromEntries(json.taxonomy.map(t => [t.category ?? t.tag, t.confidence_score]))))
        break
      case 'phrase_extractor':
        out.push(
          ...head,
          el(
            'ol',
            { class: 'tags' },
            pick(json.keywords, i).map(k => el('li', {}, `${k.keyword} (${k.relevance_score})`))
          )
        )
        break
      case 'nsfw':
        out.push(el('p', {}, `${json.output} (${(json.prob * 100).toFixed(1)}%)`))
        if (image) out.push(imageView(image, []))
        break
      case 'object_recognizer':
        out.push(
          el(
            'ol',
            { class: 'tags' },
            json.output.map(o => el('li', {}, `${o.tag} (${(o.score * 100).toFixed(0)}%)`))
          )
        )
        if (image) {
          out.push(
            imageView(
              image,
              (json.boxes ?? []).map(b => ({ box: b.box, label: b.tag }))
            )
          )
        }
        break
    }
  }
  return out
}

// ---- operator ----------------------------------------------------------------------------------
const admin = (method, path, body) =>
  fetch(apiBase + path, {
    method,
    headers: {
      authorization: `Bearer ${sessionStorage.getItem('adminToken')}`,
      ...(body ? { 'content-type': 'application/json' } : {})
    },
    ...(body ? { body: JSON.stringify(body) } : {})
  }).then(async r => ({ status: r.status, json: await r.json().catch(() => ({})) }))

$('#admin-form').addEventListener('submit', e => {
  e.preventDefault()
  sessionStorage.setItem('adminToken', $('#admin-token').value)
  void loadKeys()
})

async function loadKeys () {
  const { status, json } = await admin('GET', '/admin/keys')
  if (status !== 200) {
    $('#admin-error').textContent = json.message ?? `failed (${status})`
    $('#create-form').hidden = true
    $('#keys-table').hidden = true
    return
  }
  $('#admin-error').textContent = ''
  $('#create-form').hidden = false
  $('#keys-table').hidden = false
  const FIELDS = [
    ['textDaily', 'Text per day'],
    ['textMonthly', 'Text per month'],
    ['imageDaily', 'Images per day'],
    ['imageMonthly', 'Images per month'],
    ['rate', 'Requests per second']
  ]
  $('#keys-table tbody').replaceChildren(
    ...json.keys.map(k => {
      const inputs = Object.fromEntries(
        FIELDS.map(([f, label]) => [
          f,
          el('input', {
            type: 'number',
            min: '0',
            step: f === 'rate' ? 'any' : '1',
            value: k.plan[f] ?? '',
            'aria-label': `${label} for ${k.name}`,
            placeholder: 'no limit'
          })
        ])
      )
      const save = async () => {
        const plan = Object.fromEntries(
          FIELDS.map(([f]) => [
            f,
            inputs[f].value === '' || (f === 'rate' && Number(inputs[f].value) === 0) ? null : Number(inputs[f].value)
          ])
        )
        const { status, json: r } = await admin('PATCH', `/admin/keys/${k.id}`, { plan })
        $('#admin-error').textContent = status === 200 ? '' : r.message
        await loadKeys()
      }
      return el(
        'tr',
        {},
        el('td', {}, k.id),
        el('td', {}, k.name),
        el('td', {}, inputs.textDaily, ' / ', inputs.textMonthly),
        el('td', {}, inputs.imageDaily, ' / ', inputs.imageMonthly),
        el('td', {}, inputs.rate),
        el(
          'td',
          {},
          el('button', { type: 'button', onclick: save }, `Save plan of ${k.name}`),
          el(
            'button',
            {
              type: 'button',
              class: 'danger',
              onclick: async () => {
                await admin('DELETE', `/admin/keys/${k.id}`)
                await loadKeys()
              }
            },
            `Revoke ${k.name}`
          )
        )
      )
    })
  )
}

$('#create-form').addEventListener('submit', async e => {
  e.preventDefault()
  const num = id => ($(id).value === '' ? null : Number($(id).value))
  const plan = {
    textDaily: num('#new-text-daily'),
    textMonthly: num('#new-text-monthly'),
    imageDaily: num('#new-image-daily'),
    imageMonthly: num('#new-image-monthly'),
    rate: num('#new-rate') || null
  }
  const { status, json } = await admin('POST', '/admin/keys', { name: $('#new-name').value, plan })
  if (status !== 201) {
    $('#admin-error').textContent = json.message
    return
  }
  $('#created').replaceChildren('New key (shown once): ', el('code', { id: 'new-key' }, json.key))
  await loadKeys()
})

syncInputs()
show(sessionStorage.getItem('view') ?? 'usage')
