/**
 * Issue 31, the weak spots about framing and published sites, in Chromium:
 *
 * - no page of another origin (a second loopback server) can frame the
 *   editor, a published site, the dashboard or the slide renderer's
 *   documents: each frame is refused (`frame-ancestors`, `X-Frame-Options`);
 * - a script injected into a published site's page (here, the test's own
 *   `page.evaluate`, standing for an XSS) runs in an opaque origin: it can
 *   make no control-plane write and read no API key, by any way a page has
 *   (fetch in both modes, XHR, a beacon, an event stream, frames, a popup,
 *   a form), and the world does not change. The same reads from the
 *   dashboard, the control plane's own page, do find the keys: the probe
 *   would see them if the site could.
 */
import { createServer, type Server } from 'node:http'
import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium } from './support/browser.js'
import { serveEmulator, type ServedEmulator } from './support/emulator.js'
import { ALICE, makeDeck, type ObservedPage, observedPage, settled, shown } from './support/render.js'

/** Every API key of the fixtures starts so; none may reach a site's script. */
const KEY_PREFIX = 'pres_test_'

/** A server on a second loopback port serving one page: the other origin. */
async function foreignSite(html: () => string): Promise<{ origin: string; close(): Promise<void> }> {
  const server: Server = createServer((_, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    origin: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/**
 * What an injected script tries against the control plane, from the page
 * it runs in; each entry is what it got (`refused: …` when it threw).
 * Runs in the browser: self-contained.
 */
async function probe({ writes }: { writes: boolean }): Promise<Record<string, string>> {
  const report: Record<string, string> = { origin: self.origin }
  const attempt = async (name: string, run: () => unknown) => {
    try {
      report[name] = String(await run())
    } catch (error) {
      report[name] = `refused: ${(error as Error).name}`
    }
  }
  const read = async (response: Response) => `${response.type} ${response.status} ${(await response.text()).slice(0, 2000)}`
  const inFrame = (src: string) =>
    new Promise<string>((resolve) => {
      const frame = document.createElement('iframe')
      frame.src = src
      frame.onload = () => {
        try {
          resolve(`read: ${frame.contentDocument!.documentElement.outerHTML.slice(0, 2000)}`)
        } catch (error) {
          resolve(`refused: ${(error as Error).name}`)
        }
      }
      document.body.append(frame)
    })
  // Reads: the world and its keys.
  await attempt('GET /_emulator/state', async () => read(await fetch('/_emulator/state')))
  await attempt('GET /_emulator/state (no-cors)', async () => read(await fetch('/_emulator/state', { mode: 'no-cors' })))
  await attempt('GET /_emulator/keys/…', async () => read(await fetch('/_emulator/keys/key_test_alice')))
  await attempt('GET /_emulator (the dashboard)', async () => read(await fetch('/_emulator')))
  await attempt('GET /_emulator/dashboard/fragment', async () => read(await fetch('/_emulator/dashboard/fragment')))
  await attempt('XHR /_emulator/state', () => {
    const xhr = new XMLHttpRequest()
    xhr.open('GET', '/_emulator/state', false)
    xhr.send()
    return `${xhr.status} ${xhr.responseText.slice(0, 2000)}`
  })
  await attempt(
    'EventSource /_emulator/dashboard/events',
    () =>
      new Promise<string>((resolve) => {
        const source = new EventSource('/_emulator/dashboard/events')
        source.addEventListener('state', (event) => {
          source.close()
          resolve(`read: ${(event as MessageEvent<string>).data.slice(0, 2000)}`)
        })
        source.onerror = () => {
          source.close()
          resolve('refused: error event')
        }
      }),
  )
  await attempt('a frame of the dashboard', () => inFrame('/_emulator'))
  await attempt('a frame of /_emulator/state', () => inFrame('/_emulator/state'))
  await attempt('window.open of the dashboard', () => {
    const opened = window.open('/_emulator')
    return opened === null ? 'refused: no window' : `read: ${opened.document.documentElement.outerHTML.slice(0, 2000)}`
  })
  await attempt('localStorage', () => localStorage.getItem('x'))
  await attempt('document.cookie', () => document.cookie)
  if (!writes) return report
  // Writes: every control-plane method, each way a page can send one.
  const post = (path: string, init: RequestInit) => fetch(path, { method: 'POST', ...init }).then((r) => `${r.type} ${r.status}`)
  await attempt('POST /_emulator/reset', () => post('/_emulator/reset', {}))
  await attempt('POST /_emulator/reset (no-cors)', () => post('/_emulator/reset', { mode: 'no-cors' }))
  await attempt('POST /_emulator/keys (JSON)', () =>
    post('/_emulator/keys', { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ accountId: 'acc_alice' }) }),
  )
  await attempt('POST /_emulator/keys (no-cors, text)', () =>
    post('/_emulator/keys', { mode: 'no-cors', body: JSON.stringify({ accountId: 'acc_alice' }) }),
  )
  await attempt('PUT /_emulator/state (no-cors)', () =>
    fetch('/_emulator/state', { method: 'PUT', mode: 'no-cors', body: '{}' }).then((r) => `${r.type} ${r.status}`),
  )
  await attempt('DELETE /_emulator/requests', () => fetch('/_emulator/requests', { method: 'DELETE' }).then((r) => `${r.status}`))
  await attempt('sendBeacon /_emulator/reset', () => navigator.sendBeacon('/_emulator/reset?beacon', 'x'))
  await attempt('a form post to /_emulator/reset', () => {
    const form = document.createElement('form')
    form.method = 'post'
    form.action = '/_emulator/reset?form'
    document.body.append(form)
    form.submit()
    return 'submitted'
  })
  // Last, so the answers above have come back: a same-origin page's write would have been served by now.
  await attempt('POST /_emulator/clock/advance', () =>
    post('/_emulator/clock/advance', { mode: 'no-cors', body: JSON.stringify({ ms: 1000 }) }),
  )
  return report
}

describe('framing and published sites, in Chromium', () => {
  let browser: Browser
  let served: ServedEmulator
  let observed: ObservedPage | undefined
  let allowedErrors: RegExp[] = []

  beforeAll(async () => {
    browser = await launchChromium()
    served = await serveEmulator()
  })
  afterAll(async () => {
    await browser?.close()
    await served?.close()
  })
  afterEach(async () => {
    const page = observed
    const allowed = allowedErrors
    observed = undefined
    allowedErrors = []
    try {
      if (page === undefined) return
      expect(page.dialogs).toEqual([])
      expect(page.errors.filter((error) => !allowed.some((pattern) => pattern.test(error)))).toEqual([])
    } finally {
      await page?.close()
    }
  })

  /** The world as the control plane exports it, without the clock (which nothing here moves anyway). */
  const world = async () => {
    const state = await (await fetch(`${served.origin}/_emulator/state`)).json()
    return JSON.stringify(state)
  }

  it('no page of another origin frames the editor, a site, the dashboard or the renderer’s documents', async () => {
    const { slug } = await makeDeck(served, 'Framed', [{ content: { title: 'Framed', blocks: [] } }])
    const site = (await served.api('POST', `/projects/${slug}/publish`, ALICE)).body.publishedUrl as string
    const targets: Record<string, string> = {
      editor: `${served.origin}/editor/${slug}`,
      site,
      'site 404': `${served.origin}/sites/nothing.sites.localhost/`,
      dashboard: `${served.origin}/_emulator`,
      renderer: `${served.origin}/_emulator/assets/render/renderer.html`,
      'renderer, a guessed key': `${served.origin}/_emulator/assets/render/renderer.html?k=00000000000000000000000000000000`,
      display: `${served.origin}/_emulator/assets/render/slide.html`,
    }
    const foreign = await foreignSite(
      () =>
        `<!doctype html><title>Another site</title>${Object.entries(targets)
          .map(([name, src]) => `<iframe name="${name}" src="${src.replaceAll('&', '&amp;')}"></iframe>`)
          .join('')}`,
    )
    try {
      allowedErrors = [
        /frame-ancestors|X-Frame-Options|Refused to display|refused to connect/i,
        // The browser's error page in a refused frame, and the read of a site's page below.
        /status of 404 \(\) \(chrome-error:/,
        /has been blocked by CORS policy|net::ERR_FAILED/,
      ]
      observed = await observedPage(browser)
      const page = observed.page
      await page.goto(foreign.origin)
      // Each frame's load ends (in the browser's error page when refused): wait for all of them to settle.
      await page.waitForFunction(
        (count) => [...document.querySelectorAll('iframe')].length === count && document.readyState === 'complete',
        Object.keys(targets).length,
      )
      // The browser says, for each, that it refused it.
      const refusals = () => observed!.errors.filter((error) => /frame-ancestors/i.test(error)).length
      await expect.poll(refusals).toBeGreaterThanOrEqual(Object.keys(targets).length)
      for (const name of Object.keys(targets)) {
        const frame = page.frame({ name })
        expect(frame, name).not.toBeNull()
        // A refused frame shows the browser's error page, never the emulator's document.
        expect(frame!.url(), name).not.toMatch(new RegExp(`^${served.origin}`))
      }
      // Nor can it read a site's page to learn the frame key its frames carry.
      const read = await page.evaluate(async (url) => {
        try {
          const response = await fetch(url)
          return `read ${(await response.text()).length}`
        } catch (error) {
          return `refused: ${(error as Error).name}`
        }
      }, site)
      expect(read).toBe('refused: TypeError')
    } finally {
      await foreign.close()
    }
  })

  it('a script injected into a published site’s page makes no control-plane write and reads no API key', async () => {
    const { slug, ids } = await makeDeck(served, 'Isolated site', [
      { tsx: 'export default () => <section className="slide"><h1>Still rendered</h1></section>' },
    ])
    const site = (await served.api('POST', `/projects/${slug}/publish`, ALICE)).body.publishedUrl as string
    const before = await world()
    // What the browser logs as it refuses the probe's attempts below.
    allowedErrors = [
      /Blocked form submission|sandboxed and the 'allow-forms'/i,
      /Blocked opening|sandboxed and the 'allow-popups'/i,
      /has been blocked by CORS policy|Failed to load resource|net::ERR_FAILED/i,
      /frame-src|frame-ancestors|X-Frame-Options|Refused to display/i,
      /status of 403/i,
    ]
    // A control: from the dashboard, the control plane's own page, the same reads find the keys.
    observed = await observedPage(browser)
    await observed.page.goto(`${served.origin}/_emulator`)
    const control = await observed.page.evaluate(probe, { writes: false })
    expect(control['GET /_emulator/state']).toContain(KEY_PREFIX)
    expect(control.origin).toBe(served.origin)
    await observed.close()

    observed = await observedPage(browser)
    const page: Page = observed.page
    // What the control plane answered to each write the browser did send (a beacon, a no-cors post, a preflight).
    const writes: string[] = []
    const answered = new Set<string>()
    observed.context.on('response', (response) => {
      const request = response.request()
      const url = new URL(request.url())
      if (!url.pathname.startsWith('/_emulator') || url.pathname.startsWith('/_emulator/assets/') || request.method() === 'GET') return
      writes.push(`${request.method()} ${url.pathname}${url.search} ${response.status()}`)
      answered.add(`${url.pathname}${url.search}`)
    })
    await page.goto(site)
    await settled(page)
    expect((await shown(page, ids[0]!)).text).toBe('Still rendered')
    const report = await page.evaluate(probe, { writes: true })
    for (const [name, outcome] of Object.entries(report)) {
      expect(outcome, name).not.toContain(KEY_PREFIX)
      expect(outcome, name).not.toMatch(/^read: /)
    }
    // Because the site's page runs in an opaque origin.
    expect(report.origin).toBe('null')
    // Reads: refused, or opaque (nothing to read).
    for (const name of [
      'GET /_emulator/state',
      'GET /_emulator/keys/…',
      'GET /_emulator (the dashboard)',
      'GET /_emulator/dashboard/fragment',
      'XHR /_emulator/state',
      'EventSource /_emulator/dashboard/events',
      'a frame of the dashboard',
      'a frame of /_emulator/state',
      'window.open of the dashboard',
    ])
      expect(report[name], name).toMatch(/^refused: /)
    expect(report['GET /_emulator/state (no-cors)']).toBe('opaque 0 ')
    // Writes: refused in the page, or sent and answered 403 (`Origin: null`), never served.
    for (const name of [
      'POST /_emulator/reset',
      'POST /_emulator/keys (JSON)',
      'PUT /_emulator/state (no-cors)',
      'DELETE /_emulator/requests',
    ])
      expect(report[name], name).toMatch(/^refused: /)
    // The beacon is sent on its own: wait until its answer has come.
    await expect.poll(() => answered.has('/_emulator/reset?beacon')).toBe(true)
    expect(writes.length).toBeGreaterThanOrEqual(4)
    for (const write of writes) expect(write).toMatch(/ 403$/)
    expect(writes.some((write) => write.startsWith('POST /_emulator/reset?beacon '))).toBe(true)
    expect(await world()).toBe(before)
  })
})
