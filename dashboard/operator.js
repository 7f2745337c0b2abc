// The dashboard's operator view: the admin token (session storage only) and the key
// administration it opens: list the keys, set a key's plan, revoke a key, create one.
import { $, el } from './dom.js'
import { apiBase } from './api.js'

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
