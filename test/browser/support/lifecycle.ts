import type { Browser } from 'playwright-core'
import { afterAll, afterEach, beforeAll, expect } from 'vitest'
import { launchChromium, type WatchedPage } from './browser.js'
import { serveEmulator, type ServedEmulator } from './emulator.js'

/**
 * One Chromium and one served emulator per test file, and after every test
 * the same checks on the page it watched: nothing may leave the emulator's
 * origin, log an error or open a dialog.
 */
export function useBrowserLifecycle(hooks: {
  started(browser: Browser, served: ServedEmulator): void
  /** The page the test watched, if any; it is closed after the checks. */
  watched(): WatchedPage | undefined
  closed(): void
}): void {
  let browser: Browser | undefined
  let served: ServedEmulator | undefined
  beforeAll(async () => {
    browser = await launchChromium()
    served = await serveEmulator()
    hooks.started(browser, served)
  })
  afterAll(async () => {
    await browser?.close()
    await served?.close()
  })
  afterEach(async () => {
    const watched = hooks.watched()
    if (watched === undefined) return
    expect(watched.errors).toEqual([])
    expect(watched.foreignRequests).toEqual([])
    expect(watched.dialogs).toEqual([])
    await watched.close()
    hooks.closed()
  })
}
