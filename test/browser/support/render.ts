/**
 * Helpers for the slide renderer's browser tests: a canary server on a
 * second loopback port that counts every connection made to it, decks made
 * over the API, a page that records every network event without
 * intercepting anything (interception would hide what the browser would
 * have sent), and readers of what a display frame or a picture shows.
 */
import { createServer, type Server } from 'node:http'
import type { Socket } from 'node:net'
import type { Browser, BrowserContext, ElementHandle, Frame, Page } from 'playwright-core'
import { expect } from 'vitest'
import { PICTURE_URL_PREFIX } from '../../../web/render/picture.js'
import { CHROMIUM_ARGS, CHROMIUM_PATH, DESKTOP } from './browser.js'
import type { ServedEmulator } from './emulator.js'

export const ALICE = 'pres_test_alice'

/** A server nothing on the pages may ever reach: it counts TCP connections, not just requests. */
export interface Canary {
  /** `http://127.0.0.1:<port>` */
  origin: string
  connections: number
  requests: string[]
  close(): Promise<void>
}

/** A 1×1 PNG, for a server standing in for a remote image host. */
const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64')

/** Starts a canary; with `images`, it answers every request with a PNG (a remote image host). */
export async function startCanary(options: { images?: boolean } = {}): Promise<Canary> {
  const sockets = new Set<Socket>()
  const canary = { origin: '', connections: 0, requests: [] as string[], close: async () => {} }
  const server: Server = createServer((request, response) => {
    canary.requests.push(`${request.method} ${request.url}`)
    if (options.images) response.writeHead(200, { 'content-type': 'image/png' }).end(PIXEL)
    else response.writeHead(200, { 'content-type': 'text/plain', 'access-control-allow-origin': '*' }).end('canary')
  })
  server.on('connection', (socket) => {
    canary.connections++
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  canary.origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`
  canary.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy()
      server.close(() => resolve())
    })
  return canary
}

export interface SlideSpec {
  name?: string
  tsx?: string
  content?: unknown
  controls?: unknown
}

/** A new project of Alice's with these slides (files not given stay the emulator's blank ones); its slug and slide ids. */
export async function makeDeck(served: ServedEmulator, name: string, slides: SlideSpec[]): Promise<{ slug: string; ids: string[] }> {
  const project = (await served.api('POST', '/projects', ALICE, { name })).body
  const ids: string[] = []
  for (const [index, slide] of slides.entries()) {
    const files: Record<string, string> = {}
    if (slide.tsx !== undefined) files['slide.tsx'] = slide.tsx
    if (slide.content !== undefined)
      files['slide.content.json'] = typeof slide.content === 'string' ? slide.content : JSON.stringify(slide.content)
    if (slide.controls !== undefined)
      files['slide.controls.json'] = typeof slide.controls === 'string' ? slide.controls : JSON.stringify(slide.controls)
    const created = await served.api('POST', `/projects/${project.projectSlug}/slides`, ALICE, {
      name: slide.name ?? `Slide ${index + 1}`,
      files,
    })
    expect(created.status, JSON.stringify(created.body)).toBe(200)
    ids.push(created.body.slideId)
  }
  return { slug: project.projectSlug, ids }
}

/** A page whose every network event is recorded, with nothing intercepted. */
export interface ObservedPage {
  page: Page
  context: BrowserContext
  /** Every request the browser reported (documents, scripts, workers, frames). */
  requests: string[]
  /** Requests that failed, with the reason. */
  failed: string[]
  /** WebSocket connections opened. */
  sockets: string[]
  /** Console errors and uncaught errors of the page and its frames. */
  errors: string[]
  dialogs: string[]
  close(): Promise<void>
}

export async function observedPage(
  browser: Browser,
  options: { viewport?: { width: number; height: number } } = {},
): Promise<ObservedPage> {
  const context = await browser.newContext({ viewport: options.viewport ?? DESKTOP, serviceWorkers: 'block' })
  const page = await context.newPage()
  const observed: ObservedPage = {
    page,
    context,
    requests: [],
    failed: [],
    sockets: [],
    errors: [],
    dialogs: [],
    close: () => context.close(),
  }
  context.on('request', (request) => observed.requests.push(request.url()))
  context.on('requestfailed', (request) => observed.failed.push(`${request.url()} ${request.failure()?.errorText ?? ''}`))
  page.on('websocket', (socket) => observed.sockets.push(socket.url()))
  page.on('console', (message) => {
    if (message.type() === 'error') observed.errors.push(`console: ${message.text()} (${message.location().url})`)
  })
  page.on('pageerror', (error) => observed.errors.push(`page error: ${error.message}`))
  page.on('dialog', (dialog) => {
    observed.dialogs.push(`${dialog.type()}: ${dialog.message()}`)
    void dialog.dismiss()
  })
  return observed
}

/** Requests a page that shows slides may make: its own document and stream, the pages' and the renderer's assets, the renderer's blob: worker scripts. */
export function foreignRequests(requests: readonly string[], origin: string): string[] {
  return requests.filter((url) => {
    if (url.startsWith('blob:null/')) return false
    if (!url.startsWith(`${origin}/`)) return true
    const path = new URL(url).pathname
    return !(path.startsWith('/editor/') || path.startsWith('/sites/') || path.startsWith('/_emulator/assets/'))
  })
}

/** Waits until every component layer of the page has rendered or failed (none pending). */
export async function settled(page: Page, options: { timeout?: number } = {}): Promise<void> {
  await page.waitForFunction(
    () => {
      const layers = [...document.querySelectorAll<HTMLElement>('.component-layer')]
      return layers.length > 0 && layers.every((layer) => layer.dataset.state === 'rendered' || layer.dataset.state === 'failed')
    },
    undefined,
    { timeout: options.timeout ?? 45_000 },
  )
}

/** The layer of a slide's display: its stage article's or its thumbnail's. */
export function layer(page: Page, slideId: string, place: 'stage' | 'thumb') {
  const host = place === 'stage' ? `#stage .slide-frame[data-slide-id="${slideId}"]` : `#thumbs .thumb[data-slide-id="${slideId}"]`
  return page.locator(`${host} > .component-layer`)
}

/** The display frame showing a slide. */
export async function displayFrame(page: Page, slideId: string, place: 'stage' | 'thumb'): Promise<Frame> {
  const handle = await layer(page, slideId, place).locator('iframe.slide-display').elementHandle()
  const frame = await handle?.contentFrame()
  if (frame === null || frame === undefined) throw new Error(`no display frame for ${slideId} (${place})`)
  return frame
}

const scratchPages = new WeakMap<BrowserContext, Promise<Page>>()

/** A blank page (no CSP) of the context, for parsing what a test reads; closed with the context. */
function scratchPage(context: BrowserContext): Promise<Page> {
  let scratch = scratchPages.get(context)
  if (scratch === undefined) {
    scratch = context.newPage()
    scratchPages.set(context, scratch)
  }
  return scratch
}

/**
 * The slide's box as a place shows it: the stage's display frame's
 * `#slide-root`, or the root of a thumbnail's picture (its SVG parsed in an
 * inert document of the test's own, without the picture's stylesheet).
 */
export async function slideRoot(page: Page, slideId: string, place: 'stage' | 'thumb'): Promise<ElementHandle<Element>> {
  if (place === 'stage') {
    const root = await (await displayFrame(page, slideId, place)).$('#slide-root')
    if (root === null) throw new Error(`no slide box in the stage's display frame for ${slideId}`)
    return root
  }
  const src = await layer(page, slideId, place).locator('img.slide-picture').getAttribute('src')
  if (src === null) throw new Error(`no picture for ${slideId} (${place})`)
  // Parsed in a blank page of the same context: a document the editor's page made would check the
  // markup's inline styles against the editor's CSP (and report them), though nothing renders there.
  const root = await (await scratchPage(page.context())).evaluateHandle(
    ({ src, prefix }) => {
      if (!src.startsWith(prefix)) throw new Error(`a picture that is not an SVG data URL: ${src.slice(0, 60)}`)
      const svg = new DOMParser().parseFromString(decodeURIComponent(src.slice(prefix.length)), 'image/svg+xml')
      const box = svg.getElementById('slide-root')
      if (box === null) throw new Error('a picture without its slide box')
      box.querySelector(':scope > style')?.remove()
      return box
    },
    { src, prefix: PICTURE_URL_PREFIX },
  )
  const element = root.asElement()
  if (element === null) throw new Error(`no slide box in the picture of ${slideId}`)
  return element
}

/** What a place shows of a slide: its slide box's text and markup. */
export async function shown(page: Page, slideId: string, place: 'stage' | 'thumb' = 'thumb'): Promise<{ text: string; html: string }> {
  return (await slideRoot(page, slideId, place)).evaluate((root) => ({ text: root.textContent ?? '', html: root.innerHTML }))
}

/** The error a slide's layer shows (text), or '' when it rendered. */
export async function errorOf(page: Page, slideId: string, place: 'stage' | 'thumb' = 'thumb'): Promise<string> {
  return (await layer(page, slideId, place).locator('.component-error').textContent()) ?? ''
}

/** Launch flags, for a second browser in a test that needs its own. */
export { CHROMIUM_ARGS, CHROMIUM_PATH }
