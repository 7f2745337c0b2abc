// The dashboard's calls to the service: its address (the page's, less /dashboard/), the signed-in
// key from session storage, and a POST whose answer is read as JSON.
export const apiBase = location.pathname.replace(/\/dashboard\/?.*$/, '')
export const key = () => sessionStorage.getItem('apiKey')

export async function call (path, body, opts = {}) {
  const res = await fetch(apiBase + path, { method: 'POST', body, ...opts })
  let json = null
  try {
    json = await res.json()
  } catch {
    json = { message: 'the answer was not JSON' }
  }
  return { status: res.status, json }
}
