import type { Browser, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { screenshotPath, watchedPage, type WatchedPage } from './support/browser.js'
import { serveEmulator, type ServedEmulator } from './support/emulator.js'
import { useBrowserLifecycle } from './support/lifecycle.js'

const ALICE = 'pres_test_alice'
const ACME = 'pres_test_alice_acme'

/** The newest result of an action: its status text and body. */
async function lastResult(page: Page, label: string) {
  const result = page.locator('[data-testid="result"]').filter({ hasText: label }).first()
  await result.waitFor()
  return { status: await result.locator('.status').textContent(), body: (await result.locator('pre').textContent()) ?? '' }
}

describe('the dashboard in Chromium', () => {
  let browser: Browser
  let served: ServedEmulator
  let watched: WatchedPage | undefined

  const open = async (path = '/_emulator', options: { phone?: boolean; server?: ServedEmulator } = {}) => {
    const server = options.server ?? served
    watched = await watchedPage(browser, server.origin, options)
    const response = await watched.page.goto(`${server.origin}${path}`)
    if (response?.status() === 200) await expect.poll(() => watched!.page.locator('#live').textContent()).toBe('Live')
    return { page: watched.page, status: response?.status() }
  }

  useBrowserLifecycle({
    started: (b, s) => {
      browser = b
      served = s
    },
    watched: () => watched,
    closed: () => {
      watched = undefined
    },
  })

  it('fails a job, advances the clock and resets the world with its buttons; the API agrees after each', async () => {
    const doomed = (await served.api('POST', '/projects/generate', ACME, { prompt: 'Doomed deck' })).body
    const { page } = await open()
    await page.screenshot({ path: screenshotPath('dashboard-desktop'), fullPage: true })

    // Fail a job, with a message.
    await page.locator('#fail-message').fill('Out of GPUs')
    await page.locator(`button[data-action="job-fail"][data-job-id="${doomed.jobId}"]`).click()
    expect((await lastResult(page, `Fail job ${doomed.jobId}`)).status).toBe('200')
    const failed = (await served.api('GET', `/projects/jobs/${doomed.jobId}`, ACME)).body
    expect(failed).toMatchObject({ status: 'failed', error: 'Out of GPUs' })
    // The table follows: the job is failed and has no buttons any more.
    await page.locator(`#jobs-card tr:has-text("${doomed.jobId}") .badge-failed`).waitFor()
    expect(await page.locator(`button[data-action="job-fail"][data-job-id="${doomed.jobId}"]`).count()).toBe(0)

    // Advance the clock: a processing job becomes due and completes.
    const waiting = (await served.api('POST', '/projects/generate', ACME, { prompt: 'Patient deck' })).body
    const clockBefore = served.emulator.control.clock().now
    await page.locator('#form-advance input[name="seconds"]').fill('300')
    await page.locator('#form-advance button[type="submit"]').click()
    const advanced = await lastResult(page, 'Advance the clock by 300 s')
    expect(advanced.status).toBe('200')
    expect(Date.parse(served.emulator.control.clock().now) - Date.parse(clockBefore)).toBe(300_000)
    expect(advanced.body).toContain(served.emulator.control.clock().now)
    expect((await served.api('GET', `/projects/jobs/${waiting.jobId}`, ACME)).body.status).toBe('completed')
    await page.locator(`#jobs-card tr:has-text("${waiting.jobId}") .badge-completed`).waitFor()

    // Reset asks for a second click, then brings the seeded world back.
    const extra = (await served.api('POST', '/projects', ALICE, { name: 'Gone after reset' })).body
    const reset = page.getByTestId('reset')
    await reset.click()
    expect(await reset.textContent()).toBe('Click again to confirm')
    expect((await served.api('GET', `/projects/${extra.projectSlug}`, ALICE)).status).toBe(200)
    await reset.click()
    expect((await lastResult(page, 'Reset the world')).status).toBe('200')
    expect((await served.api('GET', `/projects/${extra.projectSlug}`, ALICE)).status).toBe(404)
    expect((await served.api('GET', `/projects/jobs/${waiting.jobId}`, ACME)).status).toBe(404)
    await expect.poll(() => page.locator('[data-section="jobs-count"]').textContent()).toBe('no jobs')
    await page.screenshot({ path: screenshotPath('dashboard-after-actions'), fullPage: true })
  })

  it('adds and removes faults, sets credits, creates and revokes keys; the API agrees after each', async () => {
    const { page } = await open()
    // A fault on listTeams, for Bob's key only.
    const form = page.locator('#form-fault')
    await form.locator('select[name="operationId"]').selectOption('listTeams')
    await form.locator('input[name="status"]').fill('503')
    await form.locator('input[name="times"]').fill('0')
    await form.locator('input[name="apiKey"]').fill('key_bob')
    await form.locator('input[name="error"]').fill('Teams are down')
    await form.locator('button[type="submit"]').click()
    expect((await lastResult(page, 'Add a fault on listTeams')).status).toBe('201')
    const faulted = await served.api('GET', '/teams', 'pres_test_bob')
    expect(faulted).toMatchObject({ status: 503, body: { error: 'Teams are down' } })
    expect((await served.api('GET', '/teams', ALICE)).status).toBe(200)
    const remove = page.locator('button[data-action="fault-remove"]')
    await remove.waitFor()
    await remove.click()
    expect((await lastResult(page, 'Remove fault')).status).toBe('200')
    expect((await served.api('GET', '/teams', 'pres_test_bob')).status).toBe(200)

    // Credits, starting from the row's button.
    await page.locator('button[data-action="prefill-credits"][data-team-id="team_bob"]').click()
    expect(await page.locator('#form-credits input[name="teamId"]').inputValue()).toBe('team_bob')
    await page.locator('#form-credits input[name="credits"]').fill('3')
    await page.locator('#form-credits button[type="submit"]').click()
    expect((await lastResult(page, 'Set credits of team_bob')).status).toBe('200')
    expect((await served.api('POST', '/projects/generate', 'pres_test_bob', { prompt: 'Now affordable' })).status).toBe(200)

    // A bad value shows the control plane's error, and changes nothing.
    await page.locator('#form-credits input[name="teamId"]').fill('team_nobody')
    await page.locator('#form-credits button[type="submit"]').click()
    const missing = await lastResult(page, 'Set credits of team_nobody')
    expect(missing.status).toBe('404')
    expect(missing.body).toContain('Team not found')
    // Chromium logs every 4xx answer to a fetch; this one was asked for.
    watched!.errors = watched!.errors.filter((error) => !/status of 404/.test(error))

    // A new key for Bob: masked in the result until revealed; it works, then it is revoked.
    await page.locator('#form-key input[name="userId"]').fill('usr_bob')
    await page.locator('#form-key input[name="name"]').fill('CI key')
    await page.locator('#form-key button[type="submit"]').click()
    const created = page.locator('[data-testid="result"]').filter({ hasText: 'Create a key for usr_bob' }).first()
    await created.waitFor()
    expect(await created.locator('.status').textContent()).toBe('201')
    const shown = (await created.textContent())!
    expect(shown).not.toMatch(/pres_[a-z0-9]{32}/)
    await created.getByRole('button', { name: 'Reveal' }).click()
    const apiKey = (await created.locator('code.key-value').textContent())!
    expect(apiKey).toMatch(/^pres_[a-z0-9]{32}$/)
    expect((await served.api('GET', '/teams', apiKey)).status).toBe(200)
    const keyId = JSON.parse((await created.locator('pre').textContent())!).keyId as string
    const revoke = page.locator(`button[data-action="key-revoke"][data-key-id="${keyId}"]`)
    await revoke.waitFor()
    await revoke.click()
    await revoke.click()
    expect((await lastResult(page, `Revoke key ${keyId}`)).status).toBe('200')
    expect((await served.api('GET', '/teams', apiKey)).status).toBe(401)
  })

  it('masks every key value until one is revealed, and copies one to the clipboard', async () => {
    const { page } = await open()
    await watched!.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: served.origin })
    const text = (await page.locator('main').textContent())!
    for (const key of ['pres_test_alice', 'pres_test_alice_acme', 'pres_test_bob']) expect(text).not.toContain(key)
    const code = page.locator('code.key-value[data-key-id="key_alice_acme"]')
    expect(await code.textContent()).toBe('pres_••••••••acme')
    await page.locator('button[data-action="key-reveal"][data-key-id="key_alice_acme"]').click()
    await expect.poll(() => code.textContent()).toBe('pres_test_alice_acme')
    // A live update keeps it revealed.
    await served.api('GET', '/teams', ACME)
    await page.locator('[data-section="requests"] tr', { hasText: 'GET /v1/teams' }).first().waitFor()
    expect(await code.textContent()).toBe('pres_test_alice_acme')
    await page.locator('button[data-action="key-reveal"][data-key-id="key_alice_acme"]').click()
    expect(await code.textContent()).toBe('pres_••••••••acme')
    await page.locator('button[data-action="key-copy"][data-key-id="key_bob"]').click()
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe('pres_test_bob')
  })

  it('shows the client report beside the journal, live, and follows the journal’s key filter', async () => {
    await served.emulator.control.clearRequests()
    const { page } = await open()
    const count = page.locator('[data-section="client-report-count"]')
    await expect.poll(() => count.textContent()).toBe('clean · 0 calls')
    // A page of 500 is out of range: the panel names the rule as the call is journaled.
    await served.api('GET', '/projects?limit=500', ALICE)
    await page.locator('[data-section="client-report"] tr', { hasText: 'pagination.limit-out-of-range' }).waitFor()
    expect(await count.textContent()).toBe('1 error · 0 warnings')
    await page.locator('#journal-filters input[name="keyId"]').fill('key_bob')
    await page.locator('#journal-filters input[name="keyId"]').press('Enter')
    await expect.poll(() => count.textContent()).toBe('clean · 0 calls')
  })

  it('filters the journal by operation, status and key, and shows a request’s details', async () => {
    await served.emulator.control.clearRequests()
    await served.api('GET', '/teams', ALICE)
    await served.api('GET', '/projects/no-such-deck', ALICE)
    await served.api('GET', '/projects', 'pres_test_bob')
    const { page } = await open()
    const rows = page.locator('[data-section="requests"] tbody tr')
    await expect.poll(() => rows.count()).toBe(3)
    expect(await page.locator('[data-section="requests-count"]').textContent()).toBe('3 requests')

    await page.locator('#journal-filters select[name="status"]').selectOption('4xx')
    await expect.poll(() => rows.count()).toBe(1)
    expect(await rows.first().textContent()).toContain('GET /v1/projects/no-such-deck')
    expect(await page.locator('[data-section="requests-count"]').textContent()).toBe('1 matching · 3 in the journal')
    expect(page.url()).toContain('status=4xx')

    await page.locator('#journal-filters select[name="status"]').selectOption('')
    await page.locator('#journal-filters input[name="keyId"]').fill('key_bob')
    await page.locator('#journal-filters input[name="keyId"]').press('Enter')
    await page.locator('#journal-filters select[name="operationId"]').selectOption('listProjects')
    await expect.poll(() => rows.count()).toBe(1)
    expect(await rows.first().textContent()).toContain('GET /v1/projects')

    // New requests that match arrive live; others do not.
    await served.api('GET', '/projects', 'pres_test_bob')
    await served.api('GET', '/teams', 'pres_test_bob')
    await expect.poll(() => rows.count()).toBe(2)

    await rows.first().getByRole('button', { name: 'Details' }).click()
    const details = page.locator('#request-details')
    expect(await details.isVisible()).toBe(true)
    const entry = JSON.parse((await page.locator('#request-details-body').textContent())!)
    expect(entry).toMatchObject({
      method: 'GET',
      path: '/v1/projects',
      operationId: 'listProjects',
      status: 200,
      keyId: 'key_bob',
      userId: 'usr_bob',
    })
    await page.screenshot({ path: screenshotPath('dashboard-journal-filtered'), fullPage: true })
  })

  it('works behind an admin token: opened with ?token=, its actions send the token as a bearer header', async () => {
    const guarded = await serveEmulator({ adminToken: 'open-sesame' })
    try {
      const denied = await open('/_emulator', { server: guarded })
      expect(denied.status).toBe(401)
      watched!.errors = watched!.errors.filter((error) => !/status of 401/.test(error))
      await watched!.close()

      const { page } = await open('/_emulator?token=open-sesame', { server: guarded })
      const calls: Array<{ url: string; authorization: string | undefined }> = []
      page.on('request', (request) => {
        if (request.resourceType() === 'fetch') calls.push({ url: request.url(), authorization: request.headers().authorization })
      })
      const before = guarded.emulator.control.clock().now
      await page.locator('#form-advance input[name="seconds"]').fill('60')
      await page.locator('#form-advance button[type="submit"]').click()
      expect((await lastResult(page, 'Advance the clock by 60 s')).status).toBe('200')
      expect(Date.parse(guarded.emulator.control.clock().now) - Date.parse(before)).toBe(60_000)
      await page.locator('button[data-action="key-reveal"][data-key-id="key_bob"]').click()
      await expect.poll(() => page.locator('code.key-value[data-key-id="key_bob"]').textContent()).toBe('pres_test_bob')
      // Every control-plane call carried the token as a bearer header (the event stream, which cannot, has it in its URL).
      expect(calls.map((call) => new URL(call.url).pathname)).toEqual(['/_emulator/clock/advance', '/_emulator/keys/key_bob'])
      expect(calls.every((call) => call.authorization === 'Bearer open-sesame')).toBe(true)
      expect(watched!.requests.some((url) => url.includes('/_emulator/dashboard/events?token=open-sesame'))).toBe(true)
    } finally {
      await guarded.close()
    }
  })

  it('adds a fault with the Faults form as it loads (its fields start with real values, not placeholders)', async () => {
    const { page } = await open()
    await page.locator('#form-fault button[type="submit"]').click()
    expect((await lastResult(page, 'Add a fault on *')).status).toBe('201')
    // 500 on every operation, once.
    expect((await served.api('GET', '/teams', ALICE)).status).toBe(500)
    expect((await served.api('GET', '/teams', ALICE)).status).toBe(200)
  })

  it('fits a phone', async () => {
    await served.api('POST', '/projects/generate', ACME, { prompt: 'Phone deck' })
    const { page } = await open('/_emulator', { phone: true })
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    // The API keys table fits: its key values wrap, so no Reveal, Copy or Revoke button is cut off at the edge.
    const keys = await page.evaluate(() => {
      const buttons = [...document.querySelectorAll<HTMLElement>('button[data-action^="key-"]')]
      const wrap = buttons[0]!.closest('.table-wrap')!
      const box = wrap.getBoundingClientRect()
      return {
        buttons: buttons.length,
        overflow: wrap.scrollWidth - wrap.clientWidth,
        cut: buttons.filter((b) => b.getBoundingClientRect().right > box.right + 0.5).map((b) => b.textContent),
      }
    })
    expect(keys.buttons).toBeGreaterThan(6)
    expect(keys).toMatchObject({ overflow: 0, cut: [] })
    await page.screenshot({ path: screenshotPath('dashboard-phone') })
    await page.locator('#jobs-card').scrollIntoViewIfNeeded()
    await page.screenshot({ path: screenshotPath('dashboard-phone-jobs') })
  })
})
