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
import { type LayoutFinding, MIN_TEXT_PX } from '../../src/model/slide-checker.js'
import { SLIDE_HEIGHT, SLIDE_WIDTH } from '../render/limits.js'
import type { RenderSlide } from '../render/protocol.js'
import { CHECK_ORIGIN, HARNESS_GLOBAL, HARNESS_PATH, type HarnessAnswer, harnessDocument, harnessHeaders } from './harness.js'
import { type LayoutMeasureInput, MAX_FINDINGS_PER_CODE, measureLayout } from './layout.js'

/** Where Chromium is looked for first when neither an option nor `CHROMIUM_PATH` names one (Debian's `chromium` package). */
export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium'

/**
 * The usual install locations, in the order they are tried when neither the
 * `executablePath` option nor `CHROMIUM_PATH` names the browser: Debian's and
 * Ubuntu's packages, Google Chrome, a snap, and the macOS applications.
 */
export const USUAL_CHROMIUM_PATHS: readonly string[] = [
  DEFAULT_CHROMIUM_PATH,
  '/usr/bin/chromium-browser',
  '/usr/lib/chromium/chromium',
  '/snap/bin/chromium',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/opt/google/chrome/chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
]

/** The module name, in a variable: bundlers leave the import alone, so playwright-core stays an optional install. */
const PLAYWRIGHT_MODULE = 'playwright-core'

/** What the session needs of the emulator: its one handler. */
export interface RequestHandlerHost {
  handle(request: EmulatorRequest): Promise<EmulatorResponse>
}

/**
 * Where Chromium is: the given path, else `CHROMIUM_PATH`, else the first of
 * `USUAL_CHROMIUM_PATHS` that exists (`/usr/bin/chromium` when none does, so
 * the refusal names a path). `exists` is for tests.
 */
export function chromiumPath(given?: string, exists: (path: string) => boolean = existsSync): string {
  const named = given ?? process.env.CHROMIUM_PATH
  if (named !== undefined && named !== '') return named
  return USUAL_CHROMIUM_PATHS.find((path) => exists(path)) ?? DEFAULT_CHROMIUM_PATH
}

/** Why a slide cannot be pictured or measured without a browser, and how to provide one. */
export function noBrowserMessage(reason: string): string {
  return `slide pictures and layout findings need headless Chromium and playwright-core: ${reason}. Give the browser's path (createEmulator's chromiumPath option, the checker's executablePath, or the CHROMIUM_PATH environment variable), or install it where it is looked for (${USUAL_CHROMIUM_PATHS.slice(0, 4).join(', ')}, …; on Debian: apt-get update && apt-get install -y chromium), and install playwright-core (npm install playwright-core). Data checks need neither.`
}

/** Whether the note that Chromium runs without its sandbox (as root) has been written to stderr. */
let rootNoted = false

/** Says once per process, on stderr, that Chromium runs without its own sandbox because the process runs as root (`uid` 0). */
export function noteRootSandbox(
  write: (text: string) => void = (text) => process.stderr.write(text),
  uid: number | undefined = process.getuid?.(),
): void {
  if (rootNoted || uid !== 0) return
  rootNoted = true
  write(
    'presentation-emulator: the slide checker runs Chromium with --no-sandbox because this process runs as root (Chromium’s own sandbox cannot start as root); slide code still runs only in the renderer’s sandboxed frame and locked workers. Run as another user to keep Chromium’s sandbox.\n',
  )
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
    '--disable-frame-rate-limit',
    '--disable-gpu-vsync',
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

/** What to show in a display frame: the renderer's sanitised markup, the deck's stylesheet, the images the slide may load. */
export interface ShownSlide {
  html: string
  css: string
  /** The images its content names (the display frame's policy allows exactly these besides `data:`). */
  images: readonly string[]
}

/** What a look at a shown slide takes: its layout findings, a PNG of it, or both. */
export interface ViewRequest {
  /** The display frame's size in pixels (the slide's box scaled to it). */
  width: number
  height: number
  layout: boolean
  picture: boolean
}

/**
 * How many pages a session shows slides in at most: a deck's pictures are
 * taken this many at a time, side by side (each page photographs its own
 * display frame, so the browser draws and encodes them in parallel; two
 * captures of one page cannot run at once: a capture's clip moves the
 * page's viewport, and a second one at the same time photographs the
 * first's region). The harness's page is the first; the others hold the
 * harness document too, and never render (one renderer frame serves every
 * slide). Four, measured (`docs/maintainers/performance.md`): eight took a
 * warm deck 0.1x faster and a cold one 0.3x slower, and held 90 MB more.
 */
export const MAX_DISPLAY_PAGES = 4

/** How many pixels the pages may show together: four pictures of 1280 × 720, one of 3840 × 2160. */
const DISPLAY_PIXELS = 4 * 1280 * 720

/** How many slides a look at `width` × `height` shows at once (1 to `MAX_DISPLAY_PAGES`). */
export function displaySlots(width: number, height: number): number {
  return Math.max(1, Math.min(MAX_DISPLAY_PAGES, Math.floor(DISPLAY_PIXELS / (width * height))))
}

/** A browser serving checks: renders through the harness, looks at its display frame. */
export interface CheckSession {
  /** The Chromium executable this session runs. */
  readonly executablePath: string
  /** False once the browser or its page has gone (closed, crashed). */
  readonly alive: boolean
  /** Requests to another origin the browser tried and the routing aborted. */
  readonly blockedRequests: readonly string[]
  /** Every request the browser made (seen at the browser, before the routing), by origin (`data:` and `about:` left out). */
  readonly requestsByOrigin: ReadonlyMap<string, number>
  /** The documents (pages and frames) the browser loaded, by path: one renderer frame serves every slide. */
  readonly documentLoads: ReadonlyMap<string, number>
  /** Console errors and uncaught errors of the harness and its frames (a policy refusing something, say). */
  readonly errors: readonly string[]
  render(slide: RenderSlide, props: Record<string, unknown>): Promise<HarnessAnswer>
  /**
   * Shows `slide` in a display frame of `request.width` × `request.height`
   * and measures its layout, takes a PNG, or both. Looks run side by side,
   * up to `displaySlots(width, height)` at once, each in a page of its own;
   * the others wait for a page.
   */
  view(slide: ShownSlide, request: ViewRequest): Promise<{ layout?: LayoutFinding[]; png?: Uint8Array }>
  /** Opens the pages `count` looks side by side need (at most `MAX_DISPLAY_PAGES`), ahead of them: a deck's looks find them ready. */
  openDisplays(count: number): void
  close(): Promise<void>
}

/** What the session rejects with when the browser cannot be found or started: the path tried, and how to provide one. */
export class BrowserUnavailableError extends Error {
  readonly executablePath: string
  constructor(executablePath: string, message: string) {
    super(message)
    this.name = 'BrowserUnavailableError'
    this.executablePath = executablePath
  }
}

/**
 * What the checker runs in a display frame before it takes its picture: it
 * waits for the slide's box to be scaled to the frame (a frame whose first
 * layout ran before it had its size scales the box to nothing until its
 * next resize, which a frame that keeps its size never gets: the script
 * sends it one) and for its images to load or fail (at most
 * `IMAGE_WAIT_MS`), then measures the layout when asked (`measureLayout`),
 * else answers null. Measuring lays the frame out; before a picture
 * (`settle`) it waits for two frames drawn, so the page's capture reads
 * the surface the display frame drew of this slide. Sent as text, with a `__name` that does
 * nothing: a loader that keeps function names (tsx, esbuild's keepNames)
 * wraps inner functions in a helper the frame does not have.
 */
function lookScript(width: number, layout: LayoutMeasureInput | undefined, settle: boolean): string {
  return `(async (__name) => {
  const root = document.getElementById('slide-root');
  const fits = () => root !== null && Math.abs(root.getBoundingClientRect().width - ${width}) < 1;
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
  const until = performance.now() + ${FIT_WAIT_MS};
  while (!fits() && performance.now() < until) {
    window.dispatchEvent(new Event('resize'));
    await frame();
  }
  if (document.images.length > 0)
    await Promise.race([
      Promise.all([...document.images].map((image) => image.decode().catch(() => undefined))),
      new Promise((resolve) => setTimeout(resolve, ${IMAGE_WAIT_MS})),
    ]);
  ${settle ? 'await frame(); await frame();' : ''}
  return ${layout === undefined ? 'null' : `(${measureLayout.toString()})(${JSON.stringify(layout)})`};
})((f) => f)`
}

/**
 * Added to the slide's stylesheet in the checker's display frame: every
 * animation jumps to its end and no transition runs, so a picture (and the
 * layout measured) does not depend on when it was taken.
 */
export const STILL_CSS =
  '*,*::before,*::after{animation-duration:0s!important;animation-delay:0s!important;animation-iteration-count:1!important;transition:none!important;caret-color:transparent!important}'

/**
 * How long a look waits for the slide's box to be scaled to the frame: a
 * bound in time, not in frames, since a loaded machine draws few frames.
 */
const FIT_WAIT_MS = 2_000

/** What the layout measure is told of the slide's box and the findings' limits. */
const LAYOUT_INPUT: LayoutMeasureInput = {
  rootId: 'slide-root',
  slideWidth: SLIDE_WIDTH,
  slideHeight: SLIDE_HEIGHT,
  minTextPx: MIN_TEXT_PX,
  maxPerCode: MAX_FINDINGS_PER_CODE,
}

/** How long a picture waits for the images of the slide it shows. */
const IMAGE_WAIT_MS = 5_000

/** Launches Chromium with a fresh profile, routes its requests, and opens the harness. Rejects, saying how to fix it, without Chromium or playwright-core. */
export async function openSession(host: RequestHandlerHost, options: { executablePath?: string } = {}): Promise<CheckSession> {
  const executablePath = chromiumPath(options.executablePath)
  if (!existsSync(executablePath)) throw new BrowserUnavailableError(executablePath, noBrowserMessage(`no Chromium at ${executablePath}`))
  let playwright: typeof Playwright
  try {
    playwright = (await import(/* @vite-ignore */ PLAYWRIGHT_MODULE)) as typeof Playwright
  } catch (error) {
    throw new BrowserUnavailableError(executablePath, noBrowserMessage(`playwright-core could not be loaded (${(error as Error).message})`))
  }
  noteRootSandbox()
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
    throw new BrowserUnavailableError(
      executablePath,
      noBrowserMessage(`Chromium at ${executablePath} did not start (${(error as Error).message.split('\n')[0]})`),
    )
  }
  // A process that exits without closing the checker leaves no profile behind (Playwright ends the browser itself).
  const removeProfile = () => rmSync(profile, { recursive: true, force: true })
  process.once('exit', removeProfile)
  let alive = true
  const requestsByOrigin = new Map<string, number>()
  const documentLoads = new Map<string, number>()
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
        const bytes = response.bytes
        await route.fulfill({
          status: response.status,
          headers: response.headers,
          body:
            bytes !== undefined
              ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
              : response.stream === undefined
                ? (response.body ?? '')
                : '',
        })
      } catch {
        // The page went away mid-request (a closing browser): nothing to answer.
        await route.abort('failed').catch(() => undefined)
      }
    })
    // A browser that went away (killed, crashed) leaves its profile behind unless it is removed now: nothing else closes this session.
    context.on('close', () => {
      alive = false
      void close()
    })
    // Every request, as the browser makes it (before the routing answers or aborts it): what a test counts.
    context.on('request', (request) => {
      let origin: string
      try {
        const url = new URL(request.url())
        if (url.protocol === 'data:' || url.protocol === 'about:' || url.protocol === 'blob:') return
        origin = url.origin === 'null' ? `${url.protocol}` : url.origin
      } catch {
        origin = 'unparsable'
      }
      requestsByOrigin.set(origin, (requestsByOrigin.get(origin) ?? 0) + 1)
      if (request.resourceType() === 'document') {
        const path = URL.canParse(request.url()) ? new URL(request.url()).pathname : request.url()
        documentLoads.set(path, (documentLoads.get(path) ?? 0) + 1)
      }
    })
    /** A page of the session: its failures are the browser's, its console errors and dialogs are handled as the harness's. */
    const watch = (watched: Playwright.Page) => {
      watched.on('crash', () => {
        alive = false
        void close()
      })
      watched.on('console', (message) => {
        if (message.type() === 'error') note(errors, `console: ${message.text()} (${message.location().url})`)
      })
      watched.on('pageerror', (error) => note(errors, `page error: ${error.message}`))
      watched.on('dialog', (dialog) => void dialog.dismiss().catch(() => undefined))
    }
    const openHarness = async (opened: Playwright.Page) => {
      await opened.goto(`${CHECK_ORIGIN}${HARNESS_PATH}`, { waitUntil: 'load' })
      await opened.waitForFunction((name) => name in window, HARNESS_GLOBAL)
    }
    const page = context.pages()[0] ?? (await context.newPage())
    watch(page)
    page.on('close', () => {
      alive = false
    })
    await openHarness(page)

    /** The slots (pages) a look is using, and the looks waiting for one. */
    const inUse = new Set<number>()
    const waiting: Array<() => void> = []
    /**
     * The pages slides are shown in, by slot: the harness's page first,
     * others opened when a deck's look first needs them. Each keeps its
     * display frame while the harness keeps it, and the DevTools session
     * its pictures are taken through (the browser's own PNG encoder, set
     * for speed).
     */
    interface Display {
      page: Playwright.Page
      frame?: Playwright.Frame
      cdp?: Promise<Playwright.CDPSession>
    }
    const displays: Array<Promise<Display> | undefined> = [Promise.resolve({ page })]
    const display = (slot: number): Promise<Display> => {
      let made = displays[slot]
      if (made === undefined) {
        made = context.newPage().then(async (opened) => {
          watch(opened)
          await openHarness(opened)
          return { page: opened }
        })
        displays[slot] = made
        // A page that failed to open is opened again by the next look.
        made.catch(() => {
          if (displays[slot] === made) displays[slot] = undefined
        })
      }
      return made
    }
    /** Shows `slide` in the display frame of `slot`'s page and looks at it, as asked. */
    const viewIn = async (slot: number, slide: ShownSlide, { width, height, layout, picture }: ViewRequest) => {
      const shown = await display(slot)
      const on = shown.page
      const viewport = on.viewportSize()
      if (viewport?.width !== width || viewport.height !== height) await on.setViewportSize({ width, height })
      const reused = await on.evaluate(
        ({ name, html, css, width, height, images }) =>
          (
            window as unknown as Record<
              string,
              { show(h: string, c: string, w: number, ht: number, i: readonly string[]): Promise<boolean> }
            >
          )[name]!.show(html, css, width, height, images),
        { name: HARNESS_GLOBAL, html: slide.html, css: `${slide.css}\n${STILL_CSS}`, width, height, images: slide.images },
      )
      try {
        // The display frame, found again only when the harness made a new one.
        if (!reused || shown.frame === undefined || shown.frame.isDetached()) {
          const found = (await (await on.$('iframe.slide-display'))?.contentFrame()) ?? undefined
          if (found === undefined) delete shown.frame
          else shown.frame = found
        }
        const frame = shown.frame
        if (frame === undefined) throw new Error('the display frame went away')
        // Scaled to the frame, its images loaded or failed, and (when asked) measured: one call into the frame.
        const found = (await frame.evaluate(
          lookScript(
            width,
            layout ? LAYOUT_INPUT : undefined,
            // A picture waits for two frames drawn by the display frame after it showed the slide: the display frame
            // draws in a process of its own, and a capture sooner can read the surface it drew before (the slide shown
            // before it in a frame shown again, 1 run in 7 under load; a flat picture in a new or resized frame).
            picture,
          ),
        )) as LayoutFinding[] | null
        let png: Uint8Array | undefined
        if (picture) {
          shown.cdp ??= context.newCDPSession(on)
          const shot = (await (
            await shown.cdp
          ).send('Page.captureScreenshot', {
            format: 'png',
            clip: { x: 0, y: 0, width, height, scale: 1 },
            captureBeyondViewport: false,
            fromSurface: true,
            optimizeForSpeed: true,
          } as never)) as { data: string }
          const bytes = Buffer.from(shot.data, 'base64')
          png = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
        }
        return { ...(found === null ? {} : { layout: found }), ...(png === undefined ? {} : { png }) }
      } catch (error) {
        // A display frame that failed is not shown again: the next view makes a new one.
        await on
          .evaluate((name) => (window as unknown as Record<string, { clear(): void }>)[name]!.clear(), HARNESS_GLOBAL)
          .catch(() => undefined)
        throw error
      }
    }

    return {
      executablePath,
      get alive() {
        return alive
      },
      get blockedRequests() {
        return blocked
      },
      get requestsByOrigin() {
        return requestsByOrigin
      },
      get documentLoads() {
        return documentLoads
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
      openDisplays(count) {
        for (let slot = 1; slot < Math.min(count, MAX_DISPLAY_PAGES); slot++) display(slot).catch(() => undefined)
      },
      async view(slide, request) {
        const limit = displaySlots(request.width, request.height)
        while (inUse.size >= limit) await new Promise<void>((resolve) => waiting.push(resolve))
        // The first free page: a single picture is taken in the harness's own page.
        let slot = 0
        while (inUse.has(slot)) slot++
        inUse.add(slot)
        try {
          return await viewIn(slot, slide, request)
        } finally {
          inUse.delete(slot)
          waiting.shift()?.()
        }
      },
      close,
    }
  } catch (error) {
    await close()
    throw error
  }
}
