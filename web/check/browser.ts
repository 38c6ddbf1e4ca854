/**
 * The slide checker's browser: headless Chromium driven by playwright-core
 * (both loaded on the first check that needs them, never at start), with a
 * fresh temporary profile deleted when it closes, and no socket anywhere:
 *
 * - every request the browser makes to `CHECK_ORIGIN` is answered by the
 *   emulator itself (`host.handle`, the same handler its HTTP server and
 *   fetch use), through Playwright's request routing; the harness at
 *   `HARNESS_PATH` is answered by the routing alone;
 * - every request to any other origin is aborted (and counted), and the
 *   browser resolves no host name at all (`--host-resolver-rules`), so a
 *   request the routing did not see could not leave either.
 *
 * One session holds one browser, one page (the harness) and its renderer
 * frame, and serves every check until it closes.
 */
import { existsSync, rmSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type * as Playwright from 'playwright-core'
import type { EmulatorRequest, EmulatorResponse } from '../../src/core/exchange.js'
import type { RenderSlide } from '../render/protocol.js'
import { CHECK_ORIGIN, HARNESS_GLOBAL, HARNESS_PATH, type HarnessAnswer, harnessDocument, harnessHeaders } from './harness.js'

/** Where Chromium is looked for unless `CHROMIUM_PATH` says otherwise (Debian's `chromium` package). */
export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium'

/** The module name, in a variable: bundlers leave the import alone, so playwright-core stays an optional install. */
const PLAYWRIGHT_MODULE = 'playwright-core'

/** What the session needs of the emulator: its one handler. */
export interface RequestHandlerHost {
  handle(request: EmulatorRequest): Promise<EmulatorResponse>
}

/** Where Chromium is: the given path, else `CHROMIUM_PATH`, else `/usr/bin/chromium`. */
export function chromiumPath(given?: string): string {
  return given ?? process.env.CHROMIUM_PATH ?? DEFAULT_CHROMIUM_PATH
}

/** Why a slide cannot be checked without a browser, and how to provide one. */
export function noBrowserMessage(reason: string): string {
  return `The slide checker needs headless Chromium and playwright-core: ${reason}. Install Debian's package (apt-get update && apt-get install -y chromium) or set CHROMIUM_PATH to a Chromium executable, and install playwright-core (npm install playwright-core).`
}

/** The flags the checker launches Chromium with (those of the browser tests); `--no-sandbox` only when running as root, where Chromium's sandbox cannot start. */
export function chromiumArgs(): string[] {
  return [
    '--headless',
    ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-default-apps',
    '--disable-extensions',
    '--no-first-run',
    '--no-default-browser-check',
    '--mute-audio',
    // No name resolves: whatever the routing did not answer cannot reach any host.
    '--host-resolver-rules=MAP * ~NOTFOUND',
  ]
}

/** An Emulator request of a routed browser request. */
async function emulatorRequest(request: Playwright.Request, url: URL): Promise<EmulatorRequest> {
  const headers: Record<string, string> = { ...request.headers(), host: url.host }
  const body = request.postDataBuffer()
  return {
    method: request.method().toUpperCase(),
    path: url.pathname,
    query: url.search.slice(1),
    headers,
    body: body === null ? null : new Uint8Array(body.buffer, body.byteOffset, body.byteLength),
  }
}

/** Ends a streamed response's iterator (server-sent events: the checker never reads one). */
function dropStream(response: EmulatorResponse): void {
  const stream = response.stream
  if (stream === undefined) return
  void stream[Symbol.asyncIterator]()
    .return?.()
    ?.catch(() => undefined)
}

/** A browser serving checks: renders through the harness, pictures of its display frame. */
export interface CheckSession {
  /** False once the browser or its page has gone (closed, crashed). */
  readonly alive: boolean
  /** Requests to another origin the browser tried and the routing aborted. */
  readonly blockedRequests: readonly string[]
  /** Console errors and uncaught errors of the harness and its frames (a policy refusing something, say). */
  readonly errors: readonly string[]
  render(slide: RenderSlide, props: Record<string, unknown>): Promise<HarnessAnswer>
  /** A PNG of sanitised markup shown with `css` in a display frame of `width` × `height`. */
  picture(html: string, css: string, width: number, height: number): Promise<Uint8Array>
  close(): Promise<void>
}

/** How long a picture waits for the images of the slide it shows. */
const IMAGE_WAIT_MS = 5_000

/** Launches Chromium with a fresh profile, routes its requests, and opens the harness. Rejects, saying how to fix it, without Chromium or playwright-core. */
export async function openSession(host: RequestHandlerHost, options: { executablePath?: string } = {}): Promise<CheckSession> {
  const executablePath = chromiumPath(options.executablePath)
  if (!existsSync(executablePath)) throw new Error(noBrowserMessage(`no Chromium at ${executablePath}`))
  let playwright: typeof Playwright
  try {
    playwright = (await import(/* @vite-ignore */ PLAYWRIGHT_MODULE)) as typeof Playwright
  } catch (error) {
    throw new Error(noBrowserMessage(`playwright-core could not be loaded (${(error as Error).message})`))
  }
  const profile = await mkdtemp(join(tmpdir(), 'presentation-emulator-check-'))
  let context: Playwright.BrowserContext
  try {
    context = await playwright.chromium.launchPersistentContext(profile, {
      executablePath,
      headless: true,
      args: chromiumArgs(),
      viewport: { width: 1280, height: 720 },
      deviceScaleFactor: 1,
      serviceWorkers: 'block',
      acceptDownloads: false,
      locale: 'en-US',
      timezoneId: 'UTC',
      colorScheme: 'light',
    })
  } catch (error) {
    await rm(profile, { recursive: true, force: true })
    throw new Error(noBrowserMessage(`Chromium at ${executablePath} did not start (${(error as Error).message.split('\n')[0]})`))
  }
  // A process that exits without closing the checker leaves no profile behind (Playwright ends the browser itself).
  const removeProfile = () => rmSync(profile, { recursive: true, force: true })
  process.once('exit', removeProfile)
  let alive = true
  const blocked: string[] = []
  const errors: string[] = []
  const note = (list: string[], text: string) => {
    if (list.length < 1_000) list.push(text.slice(0, 500))
  }
  let closing: Promise<void> | undefined
  const close = () => {
    alive = false
    closing ??= context
      .close()
      .catch(() => undefined)
      .then(() => rm(profile, { recursive: true, force: true, maxRetries: 3 }))
      .finally(() => process.removeListener('exit', removeProfile))
    return closing
  }
  try {
    await context.route('**/*', async (route) => {
      const request = route.request()
      let url: URL
      try {
        url = new URL(request.url())
      } catch {
        await route.abort('blockedbyclient').catch(() => undefined)
        return
      }
      if (url.origin !== CHECK_ORIGIN) {
        note(blocked, request.url())
        await route.abort('blockedbyclient').catch(() => undefined)
        return
      }
      try {
        if (url.pathname === HARNESS_PATH) {
          const get = request.method() === 'GET'
          await route.fulfill({
            status: get ? 200 : 405,
            headers: get ? harnessHeaders() : { allow: 'GET' },
            body: get ? harnessDocument() : '',
          })
          return
        }
        const response = await host.handle(await emulatorRequest(request, url))
        dropStream(response)
        await route.fulfill({
          status: response.status,
          headers: response.headers,
          body: response.stream === undefined ? (response.body ?? '') : '',
        })
      } catch {
        // The page went away mid-request (a closing browser): nothing to answer.
        await route.abort('failed').catch(() => undefined)
      }
    })
    context.on('close', () => {
      alive = false
    })
    const page = context.pages()[0] ?? (await context.newPage())
    page.on('crash', () => {
      alive = false
      void close()
    })
    page.on('close', () => {
      alive = false
    })
    page.on('console', (message) => {
      if (message.type() === 'error') note(errors, `console: ${message.text()} (${message.location().url})`)
    })
    page.on('pageerror', (error) => note(errors, `page error: ${error.message}`))
    page.on('dialog', (dialog) => void dialog.dismiss().catch(() => undefined))
    await page.goto(`${CHECK_ORIGIN}${HARNESS_PATH}`, { waitUntil: 'load' })
    await page.waitForFunction((name) => name in window, HARNESS_GLOBAL)

    /** Pictures one at a time: each sets the page's viewport. */
    let pictures: Promise<unknown> = Promise.resolve()

    return {
      get alive() {
        return alive
      },
      get blockedRequests() {
        return blocked
      },
      get errors() {
        return errors
      },
      render: (slide, props) =>
        page.evaluate(
          ({ name, slide, props }) =>
            (window as unknown as Record<string, { render(s: unknown, p: unknown): Promise<HarnessAnswer> }>)[name]!.render(slide, props),
          { name: HARNESS_GLOBAL, slide, props },
        ),
      picture(html, css, width, height) {
        const run = pictures.then(async () => {
          await page.setViewportSize({ width, height })
          await page.evaluate(
            ({ name, html, css, width, height }) =>
              (window as unknown as Record<string, { show(h: string, c: string, w: number, ht: number): Promise<void> }>)[name]!.show(
                html,
                css,
                width,
                height,
              ),
            { name: HARNESS_GLOBAL, html, css, width, height },
          )
          try {
            // The images the slide shows (data: or the emulator's own), loaded before the picture is taken.
            const frame = await (await page.$('iframe.slide-display'))?.contentFrame()
            await frame?.evaluate(
              (ms) =>
                Promise.race([
                  Promise.all([...document.images].map((image) => image.decode().catch(() => undefined))),
                  new Promise((resolve) => setTimeout(resolve, ms)),
                ]),
              IMAGE_WAIT_MS,
            )
            const png = await page.screenshot({
              type: 'png',
              clip: { x: 0, y: 0, width, height },
              animations: 'disabled',
              caret: 'hide',
              scale: 'css',
            })
            return new Uint8Array(png.buffer, png.byteOffset, png.byteLength)
          } finally {
            await page
              .evaluate((name) => (window as unknown as Record<string, { clear(): void }>)[name]!.clear(), HARNESS_GLOBAL)
              .catch(() => undefined)
          }
        })
        pictures = run.catch(() => undefined)
        return run
      },
      close,
    }
  } catch (error) {
    await close()
    throw error
  }
}
