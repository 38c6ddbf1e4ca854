/**
 * Slides whose CSS, SVG and image paths would make the viewer's browser
 * load what they must not (issue 31: the corpus' CSS_AND_SVG_URLS and
 * PATH_LOOKING_HOSTS). Each deck is viewed in the editor and in its site,
 * every slide on the stage (thumbnails are pictures, which load nothing);
 * nothing is intercepted, and the page's every request is watched: none
 * may reach the emulator beyond the page's own, the renderer's documents
 * and the images the slides' contents name, none may leave for another
 * origin, the canary sees no connection and the request journal does not
 * move. Each slide's control image (named by its content) must load: it
 * shows the frame applied the slide's styles and that the watch sees the
 * frames' requests. Tests wait for events, never for a time.
 */
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RENDER_ASSET_PATH } from '../../web/render/limits.js'
import { launchChromium, screenshotPath } from './support/browser.js'
import { serveEmulator, type ServedEmulator } from './support/emulator.js'
import { addressed, CSS_AND_SVG_URLS, type HostileSlide, PATH_LOOKING_HOSTS } from './support/hostile-corpus.js'
import {
  ALICE,
  type Canary,
  displayFrame,
  layer,
  makeDeck,
  type ObservedPage,
  observedPage,
  settled,
  shown,
  startCanary,
} from './support/render.js'

const POLL = { timeout: 30_000 }
const BENIGN = { name: 'Benign', tsx: 'export default () => <section className="slide"><h1 id="benign">Benign slide</h1></section>' }
/** The pages' own assets and the renderer's documents: what a page that shows slides loads of the emulator's assets. */
const PAGE_ASSETS = ['pages.css', 'viewer.js', 'favicon.svg'].map((name) => `/_emulator/assets/${name}`)
const RENDER_DOCUMENTS = ['renderer.html', 'slide.html'].map((name) => `${RENDER_ASSET_PATH}${name}`)

/**
 * The requests of a page showing `slides` that it must not make: any to another origin; any to the
 * emulator but the page itself (and the editor's event stream), the pages' assets, the renderer's
 * documents and the images the slides may load (`loads`, path and query exactly).
 */
function leaks(requests: readonly string[], origin: string, pagePath: string, slides: readonly HostileSlide[]): string[] {
  const images = new Set(slides.flatMap((slide) => slide.loads ?? []))
  return requests.filter((raw) => {
    if (raw.startsWith('blob:null/') || raw.startsWith('data:')) return false
    const url = new URL(raw)
    if (url.origin !== origin) return true
    const path = url.pathname
    if (path === pagePath || path === `${pagePath}/events`) return false
    if (PAGE_ASSETS.includes(path) && (url.search === '' || url.search.startsWith('?v='))) return false
    if (RENDER_DOCUMENTS.includes(path)) return false
    return !images.has(`${path}${url.search}`)
  })
}

describe('CSS, SVG and image paths in slides load only what their content names, in Chromium', () => {
  let browser: Browser
  let served: ServedEmulator
  let canary: Canary

  beforeAll(async () => {
    browser = await launchChromium()
    served = await serveEmulator()
    canary = await startCanary({ images: true })
  })
  afterAll(async () => {
    await browser?.close()
    await served?.close()
    await canary?.close()
  })

  const journal = async (on: ServedEmulator) => (await on.emulator.control.listRequests({ limit: 500 })).requests.length

  /** Shows each slide on the stage in turn (from the first), waits until it rendered, its frame loaded its control image and drew two frames. */
  async function viewEach(observed: ObservedPage, origin: string, slides: readonly HostileSlide[], ids: readonly string[]): Promise<void> {
    const page = observed.page
    await settled(page)
    await page.locator('#next').focus()
    await page.keyboard.press('Home')
    for (const [n, slide] of slides.entries()) {
      if (n > 0) await page.keyboard.press('ArrowRight')
      const id = ids[n]!
      await expect.poll(() => layer(page, id, 'stage').getAttribute('data-state'), POLL).toBe('rendered')
      if (!('renders' in slide.expect)) throw new Error(`${slide.name}: this test shows slides that render`)
      const frame = await displayFrame(page, id, 'stage')
      for (const kept of slide.expect.keeps ?? []) {
        await expect.poll(() => frame.locator(`[id="${kept}"]`).count(), { ...POLL, message: `${slide.name}: #${kept} shows` }).toBe(1)
      }
      // What was harmless stays: the slide's own colour.
      expect(await frame.locator('#ok').evaluate((el) => getComputedStyle(el).color)).toBe('rgb(4, 5, 6)')
      const control = slide.loads?.[0]
      if (control !== undefined) await expect.poll(() => observed.requests.includes(`${origin}${control}`), POLL).toBe(true)
      // Two animation frames: the frame has computed its styles and laid the slide out, so it has asked for all it would load.
      await frame.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))))
    }
  }

  /** Console errors that are not a leak: a 404 for an image a slide may load (it names a path the emulator does not serve). */
  const notFound = (slides: readonly HostileSlide[]) => (error: string) =>
    /status of 404/.test(error) && slides.some((slide) => (slide.loads ?? []).some((path) => error.includes(path)))

  async function expectNoLeak(observed: ObservedPage, origin: string, pagePath: string, slides: readonly HostileSlide[], name: string) {
    await observed.page.screenshot({ path: screenshotPath(name) })
    expect(leaks(observed.requests, origin, pagePath, slides)).toEqual([])
    expect(observed.sockets).toEqual([])
    expect(observed.errors.filter((error) => !notFound(slides)(error))).toEqual([])
    expect(canary.connections, `connections to the canary: ${canary.requests.join(', ')}`).toBe(0)
  }

  it('CSS and SVG: viewing every slide in the editor and in the site sends nothing to /v1, the control plane or any other origin', async () => {
    const slides = CSS_AND_SVG_URLS.map((slide) => addressed(slide, canary.origin))
    const { slug, ids } = await makeDeck(served, 'CSS and SVG URLs', [
      ...slides.map((slide) => ({ name: slide.name, tsx: slide.tsx, content: slide.content })),
      BENIGN,
    ])
    const site = new URL((await served.api('POST', `/projects/${slug}/publish`, ALICE)).body.publishedUrl as string)
    const before = await journal(served)
    for (const [where, path] of [
      ['editor', `/editor/${slug}`],
      ['site', site.pathname],
    ] as const) {
      const observed = await observedPage(browser)
      try {
        await observed.page.goto(`${served.origin}${path}${where === 'site' ? site.search : ''}`)
        await viewEach(observed, served.origin, slides, ids)
        expect((await shown(observed.page, ids[ids.length - 1]!)).text).toContain('Benign slide')
        await expectNoLeak(observed, served.origin, path, slides, `render-css-${where}`)
      } finally {
        await observed.close()
      }
    }
    expect(await journal(served)).toBe(before)
  })

  it('the display frame’s policy alone refuses every image its slide’s content does not name (as if both sanitisers were bypassed)', async () => {
    const allowed = '/_emulator/assets/favicon.svg?control=policy'
    const { slug, ids } = await makeDeck(served, 'Policy', [
      {
        tsx: 'export default () => <section className="slide"><p id="ok">policy</p></section>',
        content: { title: 'Policy', images: [allowed] },
      },
    ])
    const before = await journal(served)
    const observed = await observedPage(browser)
    try {
      const page = observed.page
      await page.goto(`${served.origin}/editor/${slug}`)
      await settled(page)
      const frame = await displayFrame(page, ids[0]!, 'stage')
      // Markup written straight into the frame's document: only its Content-Security-Policy stands in the way.
      const refused = await frame.evaluate(
        async ({ canary, allowed }) => {
          let violations = 0
          document.addEventListener('securitypolicyviolation', () => violations++)
          const markup = [
            '<img src="/v1/projects?leak=policy-img">',
            '<img src="/_emulator/state">',
            `<img src="${canary}/policy.png">`,
            '<img src="/_emulator/assets/render/slide.html">',
            '<div style="width: 4px; height: 4px; background-image: url(/v1/projects?leak=policy-css)"></div>',
            '<svg width="10" height="10"><rect width="10" height="10" fill="url(/v1/projects?leak=policy-svg#p)"/></svg>',
            `<img id="allowed" src="${allowed}">`,
          ]
          document.getElementById('slide-root')!.insertAdjacentHTML('beforeend', markup.join(''))
          const image = document.getElementById('allowed') as HTMLImageElement
          await new Promise<void>((resolve) => {
            const check = () => (violations >= 6 && image.complete ? resolve() : requestAnimationFrame(check))
            check()
          })
          return { violations, allowed: image.naturalWidth > 0 }
        },
        { canary: canary.origin, allowed },
      )
      expect(refused).toEqual({ violations: 6, allowed: true })
      // The browser reports each refused image as a request that failed, blocked by the policy before any connection.
      const attempted = leaks(observed.requests, served.origin, `/editor/${slug}`, [
        { name: 'policy', class: 'policy', tsx: '', expect: { renders: true }, loads: [allowed] },
      ])
      expect(attempted).toHaveLength(5)
      for (const url of attempted) {
        await expect.poll(() => observed.failed.find((failure) => failure.startsWith(url)), POLL).toMatch(/ERR_BLOCKED_BY_CSP|csp/i)
      }
      expect(observed.errors.filter((error) => !/Content Security Policy/.test(error))).toEqual([])
      expect(canary.connections).toBe(0)
    } finally {
      await observed.close()
    }
    expect(await journal(served)).toBe(before)
  })

  it('image paths that name another host load from nowhere, even with --allow-remote-images, in the component and the content view', async () => {
    const online = await serveEmulator({ allowRemoteImages: true })
    try {
      const slides = PATH_LOOKING_HOSTS.map((slide) => addressed(slide, canary.origin))
      const { slug, ids } = await makeDeck(online, 'Path-looking hosts', [
        ...slides.map((slide) => ({ name: slide.name, tsx: slide.tsx, content: slide.content })),
        BENIGN,
      ])
      const before = await journal(online)
      const observed = await observedPage(browser)
      try {
        const page: Page = observed.page
        const path = `/editor/${slug}`
        await page.goto(`${online.origin}${path}`)
        await viewEach(observed, online.origin, slides, ids)
        const frame = await displayFrame(page, ids[0]!, 'stage')
        const blocks = (slides[0]!.content as { blocks: Array<{ url: string }> }).blocks
        // Every <img> but the encoded backslash's (a path of the emulator's own) lost its src; so did each CSS url().
        for (const n of blocks.keys()) {
          const own = blocks[n]!.url.startsWith('/%5C')
          expect(await frame.locator(`#img${n}`).getAttribute('src'), blocks[n]!.url).toBe(own ? blocks[n]!.url : null)
          expect(await frame.locator(`#css${n}`).evaluate((el) => el.style.backgroundImage !== ''), blocks[n]!.url).toBe(own)
        }
        // The content view: a placeholder for each, but the emulator's own path.
        await page.locator('#view-content').click()
        const content = page.locator(`#stage .slide-frame[data-slide-id="${ids[0]}"] > .slide`)
        await expect.poll(() => content.isVisible(), POLL).toBe(true)
        expect(await content.locator('img').evaluateAll((imgs) => imgs.map((img) => img.getAttribute('src')))).toEqual([
          blocks[blocks.length - 1]!.url,
        ])
        expect(await content.locator('[data-testid="image-placeholder"]').count()).toBe(blocks.length - 1)
        // The content view's <img> has asked for what it loads once it is complete.
        await expect.poll(() => content.locator('img').evaluate((img: HTMLImageElement) => img.complete), POLL).toBe(true)
        await expectNoLeak(observed, online.origin, path, slides, 'render-path-looking-hosts')
      } finally {
        await observed.close()
      }
      expect(await journal(online)).toBe(before)
    } finally {
      await online.close()
    }
  })
})
