// The dashboard in headless Chromium (Debian's, driven by playwright-core) against the real service:
// sign in, run a sentiment and an image request in the playground, see usage go up, revoke the key
// as operator and see the user's next request refused. Screenshots go to test-output/dashboard/.
import t from 'tap'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Page } from 'playwright-core'
import { buildWithRealModels, hasRealModel, tempDir } from '../helper.js'
import { FACES } from '../image-fixtures.js'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const SHOTS = join(import.meta.dirname, '..', '..', 'test-output', 'dashboard')
const skip = !existsSync(CHROMIUM)
  ? `Chromium not found at ${CHROMIUM}: apt-get install -y chromium`
  : !hasRealModel('sentiment') || !hasRealModel('facial_emotion')
      ? 'models missing'
      : false

t.test('sign in, playground, usage, operator revocation', { skip, timeout: 120_000 }, async t => {
  // this test is about the pages, not load shedding (test/plugins/core/pressure.test.ts): on a busy CI
  // host a starved event loop must not turn the dashboard into a 503; one image worker is enough here
  const app = await buildWithRealModels(t, ['sentiment', 'facial_emotion'], {
    fixtures: true,
    env: { ADMIN_TOKEN: 'operator-secret', API_KEYS: '', MAX_EVENT_LOOP_DELAY_MS: '0', IMAGE_WORKERS: '1' }
  })
  await app.listen({ host: '127.0.0.1', port: 0 })
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`
  const created = (await (
    await fetch(`${base}/admin/keys`, {
      method: 'POST',
      headers: { authorization: 'Bearer operator-secret', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'shopfront', plan: { textDaily: 100, imageDaily: 10 } })
    })
  ).json()) as { key: string; record: { id: string } }
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync'
    ]
  })
  t.teardown(() => browser.close())
  mkdirSync(SHOTS, { recursive: true })
  const page: Page = await browser.newPage({ viewport: { width: 1100, height: 900 } })
  const errors: string[] = []
  page.on('pageerror', e => errors.push(e.message))
  // the page runs under its Content-Security-Policy (plugins/core/page-headers.ts): nothing refused
  const refused: string[] = []
  page.on('console', m => {
    if (/Content Security Policy|Permissions-Policy|Permissions policy/i.test(m.text())) refused.push(m.text())
  })
  const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true })

  const res = await page.goto(`${base}/dashboard`)
  t.equal(res?.status(), 200, `the dashboard page: ${res === null ? 'no response' : (await res.text()).slice(0, 300)}`)
  t.equal(await page.title(), 'Dashboard · Open text and image analysis API')
  t.match(res?.headers()['content-security-policy'], /script-src 'self';/, 'served under its CSP')
  await page.getByLabel('API key', { exact: true }).fill('wrong-key')
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByText('Invalid api_key').waitFor()
  await page.getByLabel('API key', { exact: true }).fill(created.key)
  await page.keyboard.press('Enter')
  await page.getByText('shopfront (').waitFor()
  t.ok(await page.getByText('Today: 0 used of 100').first().isVisible(), 'usage against the quota')
  t.equal(await page.evaluate(() => sessionStorage.getItem('apiKey')), created.key, 'the key is in session storage')
  t.equal(await page.evaluate(() => localStorage.length), 0, 'and not in local storage')
  await shot('usage-before')

  await page.getByRole('button', { name: 'Playground' }).click()
  await page.getByLabel('Operation', { exact: true }).selectOption('sentiment')
  await page.getByLabel('Text', { exact: true }).fill('I absolutely love this, best day ever!')
  await page.getByRole('button', { name: 'Send' }).click()
  await page.getByText(/^200 in \d+ ms$/).waitFor()
  const top = await page.locator('#pg-view .scores li .label').first().textContent()
  t.equal(top, 'positive', 'the readable view shows the top label first')
  t.match(
    await page.locator('#pg-curl').textContent(),
    /curl -s http:\/\/127\.0\.0\.1:\d+\/v4\/sentiment[\s\S]*"api_key=\$API_KEY"[\s\S]*text=I absolutely love this/,
    'the curl equivalent, key not shown'
  )
  await page.getByLabel('Batch: one text per line').check()
  await page.getByLabel('Text', { exact: true }).fill('great phone\nawful service\nwhat a day')
  await page.getByRole('button', { name: 'Send' }).click()
  await page.locator('#pg-view h4').nth(2).waitFor()
  t.equal(await page.locator('#pg-view h4').count(), 3, 'one result per line')
  await shot('playground-sentiment')

  const img = join(tempDir(t), 'portrait.jpg')
  writeFileSync(img, FACES)
  await page.getByLabel('Operation', { exact: true }).selectOption('facial_emotion')
  await page.getByLabel('Image file (jpeg, png, bmp, tiff)').setInputFiles(img)
  await page.getByRole('button', { name: 'Send' }).click()
  await page.locator('#pg-view .boxes rect').first().waitFor()
  t.ok((await page.locator('#pg-view .boxes rect').count()) >= 1, 'faces boxed on the image')
  t.match(await page.locator('#pg-curl').textContent(), /-F file=@'portrait.jpg'/)
  await shot('playground-faces')

  await page.getByRole('button', { name: 'Usage' }).click()
  await page.getByText('Today: 4 used of 100').first().waitFor()
  t.ok(await page.getByText('Today: 1 used of 10').isVisible(), 'one image counted')
  t.ok((await page.locator('#history-table tbody tr').count()) >= 3, 'per-operation history')
  await shot('usage-after')

  await page.getByRole('button', { name: 'Operator' }).click()
  await page.getByLabel('Admin token', { exact: true }).fill('operator-secret')
  await page.getByRole('button', { name: 'Load keys' }).click()
  await page.getByRole('cell', { name: created.record.id }).waitFor()
  await page.getByLabel('Name', { exact: true }).fill('second customer')
  await page.getByLabel('Text per day', { exact: true }).fill('50')
  await page.getByRole('button', { name: 'Create' }).click()
  await page.locator('#new-key').waitFor()
  t.match(await page.locator('#new-key').textContent(), /^[A-Za-z0-9_-]{32}$/, 'a new key shown once')
  await page.getByLabel('Images per month for second customer', { exact: true }).fill('25')
  await page.getByRole('button', { name: 'Save plan of second customer' }).click()
  await page.waitForFunction(
    () =>
      (document.querySelector('input[aria-label="Images per month for second customer"]') as HTMLInputElement | null)
        ?.value === '25' && document.querySelector('#admin-error')?.textContent === ''
  )
  const keys = (await (
    await fetch(`${base}/admin/keys`, { headers: { authorization: 'Bearer operator-secret' } })
  ).json()) as { keys: Array<{ name: string; plan: Record<string, unknown> }> }
  t.match(
    keys.keys.find(k => k.name === 'second customer')?.plan,
    { textDaily: 50, imageMonthly: 25 },
    'the plan was set'
  )
  await shot('operator')
  await page.getByRole('button', { name: 'Revoke shopfront' }).click()
  await page.getByRole('cell', { name: created.record.id }).waitFor({ state: 'detached' })
  await new Promise(resolve => setTimeout(resolve, 1100))

  await page.getByRole('button', { name: 'Playground' }).click()
  await page.getByLabel('Operation', { exact: true }).selectOption('sentiment')
  await page.getByLabel('Batch: one text per line').uncheck()
  await page.getByRole('button', { name: 'Send' }).click()
  await page.getByText(/Unauthorized: Invalid api_key/).waitFor()
  t.pass('the revoked key is refused')
  await shot('revoked')

  await page.setViewportSize({ width: 375, height: 740 })
  await page.getByRole('button', { name: 'Usage' }).click()
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
  t.ok(overflow <= 1, `no sideways scrolling on a phone-sized screen (${overflow} px)`)
  await shot('phone')
  // keyboard: the navigation is reachable and usable with Tab and Enter
  await page.reload()
  await page.getByRole('heading', { name: 'Analysis API dashboard' }).waitFor()
  await page.keyboard.press('Tab')
  t.equal(
    await page.evaluate(() => (document.activeElement as HTMLElement).textContent),
    'Skip to content',
    'a skip link first'
  )
  await page.keyboard.press('Tab')
  await page.keyboard.press('Tab')
  t.equal(
    await page.evaluate(() => (document.activeElement as HTMLElement).textContent),
    'Playground',
    'then the navigation'
  )
  await page.keyboard.press('Tab')
  await page.keyboard.press('Enter')
  t.ok(await page.locator('#view-operator').isVisible(), 'Enter opens the operator view')
  t.ok(await page.locator('#signin').isHidden(), 'the signed-out user sees no key form there')
  const unlabelled = await page.evaluate(() =>
    [...document.querySelectorAll('input, select, textarea')]
      .filter(e => !(e as HTMLInputElement).labels?.length && !e.getAttribute('aria-label'))
      .map(e => e.id)
  )
  t.same(unlabelled, [], 'every control has a label')
  t.same(errors, [], 'no script errors')
  t.same(refused, [], 'nothing refused by the CSP or the permissions policy')
})
