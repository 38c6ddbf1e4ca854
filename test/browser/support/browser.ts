/**
 * The browser tests' launcher: Debian's Chromium (`apt-get install -y
 * chromium`) driven by playwright-core. Playwright's own browser download
 * does not work on our machines, so the executable is given explicitly
 * (`CHROMIUM_PATH` overrides `/usr/bin/chromium`).
 *
 * Every page opened with `watchedPage` records what a test must never see:
 * console errors, uncaught page errors, dialogs, and requests that leave
 * the page's own origin (those are aborted, so nothing ever leaves).
 */
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/** The flags every browser test launches Chromium with (headless, sandbox off for containers, no phoning home). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]

/** Launches headless Chromium, or fails with a message saying how to install it. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM_PATH}. Install Debian's package (apt-get update && apt-get install -y chromium) or set CHROMIUM_PATH.`,
    )
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS })
}

/** Git-ignored output of the browser tests; screenshots go to `test-output/screenshots/`. */
export const OUTPUT_DIR = join(import.meta.dirname, '..', '..', '..', 'test-output')

/** The path of a screenshot named `name` (the folder is created). */
export function screenshotPath(name: string): string {
  const dir = join(OUTPUT_DIR, 'screenshots')
  mkdirSync(dir, { recursive: true })
  return join(dir, `${name}.png`)
}

export const DESKTOP = { width: 1366, height: 820 }
export const PHONE = { width: 390, height: 844 }

/** A page and what happened on it that a test must not see. */
export interface WatchedPage {
  page: Page
  context: BrowserContext
  /** Console messages of type error, and uncaught exceptions. */
  errors: string[]
  /** Dialogs (alert, confirm, prompt) that opened; each is dismissed. */
  dialogs: string[]
  /** Requests to any origin other than the emulator's; each is aborted. */
  foreignRequests: string[]
  /** Every request URL the page made. */
  requests: string[]
  close(): Promise<void>
}

/** A page in a fresh context (own cookies and storage) that records errors, dialogs and foreign requests. */
export async function watchedPage(
  browser: Browser,
  origin: string,
  options: { viewport?: { width: number; height: number }; phone?: boolean } = {},
): Promise<WatchedPage> {
  const phone = options.phone ?? false
  const context = await browser.newContext({
    viewport: options.viewport ?? (phone ? PHONE : DESKTOP),
    deviceScaleFactor: phone ? 2 : 1,
    isMobile: phone,
    hasTouch: phone,
    serviceWorkers: 'block',
  })
  const watched: WatchedPage = {
    page: undefined as unknown as Page,
    context,
    errors: [],
    dialogs: [],
    foreignRequests: [],
    requests: [],
    close: () => context.close(),
  }
  await context.route('**/*', async (route) => {
    const url = route.request().url()
    watched.requests.push(url)
    if (url.startsWith('data:') || new URL(url).origin === origin) return route.continue()
    watched.foreignRequests.push(url)
    return route.abort('blockedbyclient')
  })
  const page = await context.newPage()
  page.on('console', (message) => {
    if (message.type() === 'error') watched.errors.push(`console: ${message.text()}`)
  })
  page.on('pageerror', (error) => watched.errors.push(`page error: ${error.message}`))
  page.on('dialog', (dialog) => {
    watched.dialogs.push(`${dialog.type()}: ${dialog.message()}`)
    void dialog.dismiss()
  })
  watched.page = page
  return watched
}
