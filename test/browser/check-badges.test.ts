/**
 * Check badges in Chromium (issue 33): a real check through the control
 * plane (the web room's checker, in its own Node process) leaves each
 * slide's result on the editor's thumbnails and on the dashboard's
 * projects, live on a page that was open before the check, and none before
 * it; an edited slide's badge goes, since its result is of other files.
 * Viewing the pages asks for no check: every check through the core's
 * check service records its result, and the store's version counts them.
 */
import type { Browser } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { screenshotPath, watchedPage, type WatchedPage } from './support/browser.js'
import type { ServedEmulator } from './support/emulator.js'
import { useBrowserLifecycle } from './support/lifecycle.js'

const ALICE = 'pres_test_alice'
const BROKEN = 'export default function Slide() {\n  const items = undefined\n  return <h1>{items.length}</h1>\n}\n'

describe('check badges in Chromium', () => {
  let browser: Browser
  let served: ServedEmulator
  let watched: WatchedPage | undefined

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

  /** How many results were recorded (every check through the check service records one; nothing else changes it here). */
  const checksAsked = () => served.emulator.emulator.slideCheckResults.version

  it('shows each slide’s last check on the editor’s thumbnails and the dashboard, live, and hides an edited slide’s', async () => {
    const slides = (await served.api('GET', '/projects/welcome-deck/slides', ALICE)).body.slides as Array<{ id: string; name: string }>
    expect(
      (await served.api('PUT', `/projects/welcome-deck/slides/${slides[1]!.id}`, ALICE, { files: { 'slide.tsx': BROKEN } })).status,
    ).toBe(200)

    watched = await watchedPage(browser, served.origin)
    const { page } = watched
    await page.goto(`${served.origin}/editor/welcome-deck`)
    await expect.poll(() => page.locator('#live').textContent()).toBe('Live')
    await expect.poll(() => page.locator('#thumbs .thumb').count()).toBe(slides.length)
    // Before any check: no badge, and viewing asked for none.
    expect(await page.locator('#thumbs [data-testid="check-badge"]').count()).toBe(0)
    const before = checksAsked()

    const result = await served.emulator.control.checkSlides('welcome-deck')
    expect(result.slides.map((slide) => slide.status)).toEqual(slides.map((_, i) => (i === 1 ? 'error' : 'rendered')))

    // The open editor follows: every thumbnail has its badge, in words.
    const badge = (id: string) => page.locator(`#thumbs .thumb[data-slide-id="${id}"] [data-testid="check-badge"]`)
    await expect.poll(() => page.locator('#thumbs [data-testid="check-badge"]').count()).toBe(slides.length)
    expect(await badge(slides[0]!.id).textContent()).toBe('✓Renders')
    expect(await badge(slides[1]!.id).textContent()).toBe('✕Error')
    const error = result.slides[1]!.error!
    const title = await badge(slides[1]!.id).getAttribute('title')
    expect(title).toContain(`Last check: does not render. ${error.kind} error at slide.tsx`)
    expect(title).toContain(error.message)
    expect(await page.locator(`#thumbs .thumb[data-slide-id="${slides[1]!.id}"]`).getAttribute('aria-label')).toContain(
      'Last check: does not render.',
    )
    await page.locator(`#thumbs .thumb[data-slide-id="${slides[1]!.id}"]`).click()
    await page.screenshot({ path: screenshotPath('editor-check-badges') })

    // The dashboard's projects show the same per slide.
    const dashboard = await watchedPage(browser, served.origin)
    try {
      await dashboard.page.goto(`${served.origin}/_emulator`)
      const row = dashboard.page.locator('#projects-card tr', { hasText: 'welcome-deck' })
      await expect.poll(() => row.locator('[data-testid="check-badge"]').count()).toBe(slides.length)
      expect(await row.getByTestId('project-checks').textContent()).toBe(
        `${slides.length} of ${slides.length} slides checked: ${slides.length - 1} render, 1 does not`,
      )
      expect(await row.locator('[data-testid="check-badge"][data-status="error"]').getAttribute('aria-label')).toContain(
        `Slide 2: ${slides[1]!.name}. Last check: does not render.`,
      )
      await dashboard.page.locator('#projects-card').screenshot({ path: screenshotPath('dashboard-check-badges') })
      expect(dashboard.errors).toEqual([])
      expect(dashboard.foreignRequests).toEqual([])
    } finally {
      await dashboard.close()
    }

    // Viewing the pages asked for no check.
    expect(checksAsked()).toBe(before + slides.length)

    // The slide is edited: its result is of other files, and its badge goes (the others stay).
    const fixed = 'export default function Slide() {\n  return <h1>Fixed</h1>\n}\n'
    expect(
      (await served.api('PUT', `/projects/welcome-deck/slides/${slides[1]!.id}`, ALICE, { files: { 'slide.tsx': fixed } })).status,
    ).toBe(200)
    await expect.poll(() => badge(slides[1]!.id).count()).toBe(0)
    expect(await page.locator('#thumbs [data-testid="check-badge"]').count()).toBe(slides.length - 1)
    expect(checksAsked()).toBe(before + slides.length)
  })
})
