import type { Browser } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { screenshotPath, watchedPage, type WatchedPage } from './support/browser.js'
import type { ServedEmulator } from './support/emulator.js'
import { useBrowserLifecycle } from './support/lifecycle.js'

const ALICE = 'pres_test_alice'

describe('the published site in Chromium', () => {
  let browser: Browser
  let served: ServedEmulator
  let watched: WatchedPage | undefined

  const open = async (url: string, options: { phone?: boolean } = {}) => {
    watched = await watchedPage(browser, served.origin, options)
    const response = await watched.page.goto(url.startsWith('http') ? url : `${served.origin}${url}`)
    return { page: watched.page, status: response?.status() }
  }
  /** The browser logs a 404 document itself; that is not an error of the page. */
  const ignore404 = () => {
    watched!.errors = watched!.errors.filter((error) => !/status of 404/.test(error))
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

  it('shows the published slides until the next publish, even after an edit', async () => {
    const project = (await served.api('POST', '/projects', ALICE, { name: 'Launch announcement' })).body
    const slide = (
      await served.api('POST', `/projects/${project.projectSlug}/slides`, ALICE, {
        name: 'Headline',
        files: {
          'slide.content.json': JSON.stringify({
            title: 'We launch on Monday',
            blocks: [{ type: 'text', text: 'Everything you need to know.' }],
          }),
        },
      })
    ).body
    const published = (await served.api('POST', `/projects/${project.projectSlug}/publish`, ALICE)).body
    expect(published.publishedUrl).toMatch(/\/sites\//)

    await served.api('PUT', `/projects/${project.projectSlug}/slides/${slide.slideId}`, ALICE, {
      files: { 'slide.content.json': JSON.stringify({ title: 'We launch on Tuesday', blocks: [] }) },
    })
    const { page } = await open(published.publishedUrl)
    expect(await page.locator('#stage .slide-frame.current h1').textContent()).toBe('We launch on Monday')
    await page.screenshot({ path: screenshotPath('site-snapshot') })
    // The editor shows the edit at once.
    const editor = await browser.newPage()
    await editor.goto(`${served.origin}/editor/${project.projectSlug}`)
    expect(await editor.locator('#stage .slide-frame.current h1').textContent()).toBe('We launch on Tuesday')
    await editor.close()

    await page.reload()
    expect(await page.locator('#stage .slide-frame.current h1').textContent()).toBe('We launch on Monday')
    await served.api('POST', `/projects/${project.projectSlug}/publish`, ALICE)
    await page.reload()
    expect(await page.locator('#stage .slide-frame.current h1').textContent()).toBe('We launch on Tuesday')
  })

  it('answers 404 with “nothing is published” once unpublished', async () => {
    const { page, status } = await open('/sites/welcome-deck.sites.localhost/')
    expect(status).toBe(200)
    await served.api('DELETE', '/projects/welcome-deck/publish', ALICE)
    const response = await page.reload()
    expect(response?.status()).toBe(404)
    expect(await page.locator('h1').textContent()).toBe('Nothing is published here')
    expect(await page.locator('main').textContent()).toContain('Nothing is published at welcome-deck.sites.localhost/')
    await page.screenshot({ path: screenshotPath('site-404') })
    ignore404()
    await served.api('POST', '/projects/welcome-deck/publish', ALICE)
  })

  it('presents full screen, pages with the keyboard and a click, and leaves with Escape', async () => {
    const count = (await served.api('GET', '/projects/q3-business-review/slides', 'pres_test_alice_acme')).body.slides.length
    const { page } = await open('/sites/decks.acme.example/q3-business-review')
    await page.screenshot({ path: screenshotPath('site-desktop') })
    await page.getByRole('button', { name: 'Present' }).click()
    await expect.poll(() => page.evaluate(() => document.fullscreenElement !== null)).toBe(true)
    expect(await page.locator('html.presenting').count()).toBe(1)
    expect(await page.locator('.topbar').isVisible()).toBe(false)
    expect(await page.locator('#thumbs').isVisible()).toBe(false)
    // The slide fills the width of the screen.
    const box = (await page.locator('#stage .slide-frame.current').boundingBox())!
    const viewport = page.viewportSize()!
    expect(box.width === viewport.width || box.height === viewport.height).toBe(true)
    await page.keyboard.press('ArrowRight')
    expect(await page.locator('#counter').textContent()).toBe(`2 / ${count}`)
    await page.mouse.click(viewport.width * 0.8, viewport.height / 2)
    expect(await page.locator('#counter').textContent()).toBe(`3 / ${count}`)
    await page.mouse.click(viewport.width * 0.1, viewport.height / 2)
    expect(await page.locator('#counter').textContent()).toBe(`2 / ${count}`)
    await page.screenshot({ path: screenshotPath('site-presenting') })
    // Each step waits for the page's own state: the presenting class and the document's full screen both.
    const state = () =>
      page.evaluate(() => ({
        presenting: document.documentElement.classList.contains('presenting'),
        fullscreen: document.fullscreenElement !== null,
      }))
    await page.keyboard.press('Escape')
    await expect.poll(state).toEqual({ presenting: false, fullscreen: false })
    expect(await page.locator('.topbar').isVisible()).toBe(true)
    // F toggles it too.
    await page.keyboard.press('f')
    await expect.poll(state).toEqual({ presenting: true, fullscreen: true })
    await page.keyboard.press('f')
    await expect.poll(state).toEqual({ presenting: false, fullscreen: false })
    // Stopped and started again at once, before the browser has left full screen: the late exit ends nothing.
    await page.keyboard.press('f')
    await expect.poll(state).toEqual({ presenting: true, fullscreen: true })
    await page.keyboard.press('f')
    await page.keyboard.press('f')
    await expect.poll(state).toEqual({ presenting: true, fullscreen: true })
    await page.keyboard.press('Escape')
    await expect.poll(state).toEqual({ presenting: false, fullscreen: false })
  })

  it('fits a phone', async () => {
    const { page } = await open('/sites/decks.acme.example/q3-business-review#slide-3', { phone: true })
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    const frame = page.locator('#stage .slide-frame.current')
    expect(await frame.evaluate((el) => el.scrollHeight <= el.clientHeight + 1 && el.scrollWidth <= el.clientWidth + 1)).toBe(true)
    await page.screenshot({ path: screenshotPath('site-phone') })
  })
})
