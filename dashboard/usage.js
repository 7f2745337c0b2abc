// The dashboard's views and the signed-in key's usage: the navigation between the views, sign-in
// and sign-out, and the usage view (the plan, a meter per quota, the 30-day history). One module, as
// showing the usage view loads it and a refused key on loading it signs out.
import { $, el, svgEl } from './dom.js'
import { renderHistory } from './chart.js'
import { call, key } from './api.js'

const fmt = n => (n === null || n === undefined ? 'no limit' : Number(n).toLocaleString('en'))

// ---- views -------------------------------------------------------------------------------------
export function show (view) {
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
      `daily at ${json.text.daily.reset.slice(0, 16).replace('T', ' ')} UTC, ` +
        `monthly at ${json.text.monthly.reset.slice(0, 10)}`
    )
  )
  $('#chart-text').replaceChildren(meter('Today', json.text.daily), meter('This month', json.text.monthly))
  $('#chart-image').replaceChildren(meter('Today', json.image.daily), meter('This month', json.image.monthly))
  renderHistory(json.history)
}
