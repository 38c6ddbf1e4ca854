/**
 * Slides whose pictures would stop the page painting (issue 31: the
 * corpus' PAINT_HEAVY). Each slide animates 300 elements every 50 ms under
 * filters, big shadows, blend modes and gradients, each in another way.
 * With the overview open (every slide a picture, the stage hidden), the
 * page's requestAnimationFrame callbacks over a fixed window must be at
 * least half a light deck's in the same run: a ratio of counts, never a
 * time. The stage may still animate; the pictures still show the slides.
 */
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium, screenshotPath } from './support/browser.js'
import { serveEmulator, type ServedEmulator } from './support/emulator.js'
import { PAINT_HEAVY } from './support/hostile-corpus.js'
import { displayFrame, errorOf, layer, makeDeck, observedPage, settled, shown } from './support/render.js'

/** The window frames are counted over, in the page's own clock. */
const WINDOW_MS = 4_000
const LIGHT = Array.from({ length: PAINT_HEAVY.length }, (_, i) => ({
  name: `Light ${i + 1}`,
  tsx: `export default () => <section className="slide"><h1 id="title">Light slide ${i + 1}</h1><p id="still">still here</p></section>`,
}))

/** Opens the overview once every layer rendered and every picture loaded. */
async function openOverview(page: Page): Promise<void> {
  await settled(page, { timeout: 90_000 })
  await page.waitForFunction(
    () => [...document.querySelectorAll<HTMLImageElement>('img.slide-picture')].every((img) => img.complete),
    undefined,
    {
      timeout: 90_000,
    },
  )
  // Clicked from the page's script: an actionability check would wait for frames the page may not paint.
  await page.evaluate(() => document.getElementById('overview-toggle')?.click())
  await page.waitForFunction(() => document.documentElement.classList.contains('overview'))
}

/** The page's requestAnimationFrame callbacks over the window. */
function framesOver(page: Page): Promise<number> {
  return page.evaluate(
    (window) =>
      new Promise<number>((resolve) => {
        let frames = 0
        let start: number | undefined
        const tick = (now: number) => {
          start ??= now
          if (now - start >= window) return resolve(frames)
          frames++
          requestAnimationFrame(tick)
        }
        requestAnimationFrame(tick)
      }),
    WINDOW_MS,
  )
}

describe('pictures of paint-heavy slides do not stop the page painting, in Chromium', () => {
  let browser: Browser
  let served: ServedEmulator

  beforeAll(async () => {
    browser = await launchChromium()
    served = await serveEmulator()
  })
  afterAll(async () => {
    await browser?.close()
    await served?.close()
  })

  it('keeps the overview’s frame rate within half of a light deck’s; the pictures show each slide, still; the stage animates', async () => {
    const heavy = await makeDeck(served, 'Paint heavy', PAINT_HEAVY)
    const light = await makeDeck(served, 'Paint light', LIGHT)
    const observed = await observedPage(browser)
    const page = observed.page
    try {
      await page.goto(`${served.origin}/editor/${light.slug}`)
      await openOverview(page)
      const lightFrames = await framesOver(page)

      await page.goto(`${served.origin}/editor/${heavy.slug}`)
      await openOverview(page)
      const heavyFrames = await framesOver(page)
      await page.screenshot({ path: screenshotPath('paint-heavy-overview') })
      console.log(`rAF callbacks over ${WINDOW_MS} ms with the overview open: light ${lightFrames}, paint-heavy ${heavyFrames}`)
      expect(heavyFrames, `paint-heavy ${heavyFrames} against light ${lightFrames}`).toBeGreaterThanOrEqual(lightFrames / 2)

      for (const [i, slide] of PAINT_HEAVY.entries()) {
        const id = heavy.ids[i]!
        expect(await errorOf(page, id), slide.name).toBe('')
        const picture = await shown(page, id)
        for (const kept of slide.expect.keeps) expect(picture.html, `${slide.name}: #${kept}`).toContain(`id="${kept}"`)
        expect(picture.html, slide.name).not.toMatch(/<(animate|animateMotion|animateTransform|set)\b/)
        // Style attributes lose what the picture's stylesheet could not override (an inline `!important`).
        expect(picture.html, slide.name).not.toMatch(/style="[^"]*(animation|transition|filter|shadow|blend|will-change)/)
        expect(await layer(page, id, 'thumb').getAttribute('data-state')).toBe('rendered')
      }

      // The stage keeps the slide's CSS: the first slide still animates there.
      await page.evaluate(() => document.getElementById('overview-toggle')?.click())
      await page.waitForFunction(() => !document.documentElement.classList.contains('overview'))
      const stage = await displayFrame(page, heavy.ids[0]!, 'stage')
      expect(await stage.evaluate(() => document.getAnimations().length)).toBeGreaterThan(0)
      expect(observed.errors).toEqual([])
    } finally {
      await observed.close()
    }
  }, 300_000)
})
