import type { Browser } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { screenshotPath, watchedPage, type WatchedPage } from './support/browser.js'
import type { ServedEmulator } from './support/emulator.js'
import { useBrowserLifecycle } from './support/lifecycle.js'
import { shown } from './support/render.js'

const ALICE = 'pres_test_alice'
const ACME = 'pres_test_alice_acme'

/** A small bar chart as an SVG data: URL, the kind of image an agent might put on a slide. */
const CHART = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 320 180"><rect width="320" height="180" rx="12" fill="#eef2ff"/><g fill="#4f46e5"><rect x="40" y="90" width="40" height="60" rx="4"/><rect x="110" y="60" width="40" height="90" rx="4"/><rect x="180" y="40" width="40" height="110" rx="4"/><rect x="250" y="20" width="40" height="130" rx="4"/></g><path d="M30 150h270" stroke="#94a3b8" stroke-width="2"/></svg>',
)}`

describe('the editor page in Chromium', () => {
  let browser: Browser
  let served: ServedEmulator
  let watched: WatchedPage | undefined

  /** Opens a page; `view: 'content'` chooses the editor's Content view first (the content rendering's own features). */
  const open = async (path: string, options: { phone?: boolean; view?: 'content' } = {}) => {
    watched = await watchedPage(browser, served.origin, options)
    if (options.view === 'content')
      await watched.context.addInitScript(() => {
        // Sandboxed frames (opaque origins) have no storage: only the page keeps the choice.
        if (self.origin !== 'null') localStorage.setItem('presentation-emulator:slide-view', 'content')
      })
    const response = await watched.page.goto(`${served.origin}${path}`)
    return { page: watched.page, status: response?.status() }
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

  it('shows a generated project’s header change when its generation completes, without a reload', async () => {
    const job = (
      await served.api('POST', '/projects/generate', ACME, { prompt: 'Quarterly results for the board', templateId: 'tpl_acme_quarterly' })
    ).body
    const { page } = await open(new URL(job.editorUrl).pathname)
    const status = page.getByTestId('generation-status')
    await expect.poll(() => status.textContent()).toBe('Generating')
    await expect.poll(() => page.locator('#live').textContent()).toBe('Live')
    expect(await page.locator('#stage-empty').textContent()).toContain('Generating your presentation…')
    expect(await page.getByTestId('publish-state').textContent()).toBe('Unpublished')
    await page.screenshot({ path: screenshotPath('editor-generating') })

    const before = Date.now()
    await served.emulator.control.advanceClock({ ms: 200_000 })
    await page.getByTestId('publish-state').filter({ hasText: 'Published' }).waitFor()
    console.log(`editor header followed the completed generation in ${Date.now() - before} ms`)
    // The header, the slides and the status may arrive in separate updates: wait for each.
    await expect.poll(() => status.count()).toBe(0)
    expect(await page.locator('#deck-name').textContent()).toBe((await served.api('GET', `/projects/${job.projectSlug}`, ACME)).body.name)
    const slides = (await served.api('GET', `/projects/${job.projectSlug}/slides`, ACME)).body.slides
    await expect.poll(() => page.locator('#thumbs .thumb').count()).toBe(slides.length)
    await expect.poll(() => page.locator('#counter').textContent()).toBe(`1 / ${slides.length}`)
    await expect.poll(() => page.locator('#stage-empty').isVisible()).toBe(false)
    await page.screenshot({ path: screenshotPath('editor-generated') })

    // A rename shows too.
    await served.api('PATCH', `/projects/${job.projectSlug}`, ACME, { name: 'Board pack, final' })
    await expect.poll(() => page.locator('#deck-name').textContent()).toBe('Board pack, final')
    expect(await page.title()).toBe('Board pack, final · Editor')
  })

  it('says so when a generation fails, instead of an empty project', async () => {
    const job = (await served.api('POST', '/projects/generate', ACME, { prompt: 'Launch plan' })).body
    const { page } = await open(new URL(job.editorUrl).pathname)
    await expect.poll(() => page.locator('#live').textContent()).toBe('Live')
    await served.emulator.control.failJob(job.jobId, { error: 'The model could not be reached' })
    await page.getByTestId('generation-failed').waitFor()
    expect(await page.getByTestId('generation-failed').textContent()).toContain('The model could not be reached')
    expect(await page.getByTestId('generation-status').textContent()).toBe('Generation failed')
    expect(await page.locator('#stage-empty').textContent()).toContain('Generation failed')
    await page.screenshot({ path: screenshotPath('editor-generation-failed') })
  })

  it('shows the editing indicator on the slide and its thumbnail when the flag is set over the API, and clears it', async () => {
    const slides = (await served.api('GET', '/projects/welcome-deck/slides', ALICE)).body.slides
    const { page } = await open('/editor/welcome-deck#slide-2')
    await expect.poll(() => page.locator('#live').textContent()).toBe('Live')
    expect(await page.locator('#counter').textContent()).toBe(`2 / ${slides.length}`)
    const stageIndicator = page.locator('#stage .slide-frame.current [data-testid="editing-indicator"]')
    const thumbBadge = page.locator(`#thumbs .thumb[data-slide-id="${slides[1].id}"] [data-testid="thumb-editing"]`)

    const before = Date.now()
    await served.api('POST', `/projects/welcome-deck/slides/${slides[1].id}/editing`, ALICE, {
      agentName: 'Claude',
      editPrompt: 'Tighten the quote and add the source',
    })
    await stageIndicator.waitFor()
    console.log(`editing indicator appeared ${Date.now() - before} ms after the API call`)
    expect(await stageIndicator.textContent()).toContain('Claude is editing this slide')
    expect(await stageIndicator.textContent()).toContain('Tighten the quote and add the source')
    expect(await thumbBadge.textContent()).toBe('Claude')
    // Only the edited slide carries it.
    expect(await page.locator('#thumbs [data-testid="thumb-editing"]').count()).toBe(1)
    await page.screenshot({ path: screenshotPath('editor-editing-indicator') })

    const cleared = Date.now()
    await served.api('DELETE', `/projects/welcome-deck/slides/${slides[1].id}/editing`, ALICE)
    await stageIndicator.waitFor({ state: 'detached' })
    console.log(`editing indicator cleared ${Date.now() - cleared} ms after the API call`)
    expect(await thumbBadge.count()).toBe(0)
  })

  it('follows an agent’s edit of a slide’s content live', async () => {
    const slides = (await served.api('GET', '/projects/welcome-deck/slides', ALICE)).body.slides
    const { page } = await open('/editor/welcome-deck')
    await expect.poll(() => page.locator('#live').textContent()).toBe('Live')
    await served.api('PUT', `/projects/welcome-deck/slides/${slides[0].id}`, ALICE, {
      files: {
        'slide.content.json': JSON.stringify({ title: 'Welcome, live', blocks: [{ type: 'text', text: 'Edited while you watched' }] }),
      },
    })
    // The component (which renders its content's title) shows it on the stage and in the thumbnail…
    for (const place of ['stage', 'thumb'] as const) {
      await expect.poll(async () => (await shown(page, slides[0].id, place)).text, { timeout: 30_000 }).toContain('Welcome, live')
    }
    // …and the content rendering underneath follows too.
    await page.locator('#stage .slide-frame.current h1', { hasText: 'Welcome, live' }).waitFor({ state: 'attached' })
    expect(await page.locator(`#thumbs .thumb[data-slide-id="${slides[0].id}"] h1`).textContent()).toBe('Welcome, live')
  })

  it('pages through the slides with the keyboard, one at a time, with a counter', async () => {
    const count = (await served.api('GET', '/projects/q3-business-review/slides', ACME)).body.slides.length
    const { page } = await open('/editor/q3-business-review')
    const counter = page.locator('#counter')
    expect(await counter.textContent()).toBe(`1 / ${count}`)
    expect(await page.locator('#stage .slide-frame:visible').count()).toBe(1)
    await page.keyboard.press('ArrowRight')
    expect(await counter.textContent()).toBe(`2 / ${count}`)
    expect(page.url()).toMatch(/#slide-2$/)
    await page.keyboard.press('End')
    expect(await counter.textContent()).toBe(`${count} / ${count}`)
    await page.keyboard.press('ArrowRight')
    expect(await counter.textContent()).toBe(`${count} / ${count}`)
    await page.keyboard.press('ArrowLeft')
    expect(await counter.textContent()).toBe(`${count - 1} / ${count}`)
    await page.keyboard.press('Home')
    expect(await counter.textContent()).toBe(`1 / ${count}`)
    expect(await page.locator('#prev').isDisabled()).toBe(true)
    await page.keyboard.press('PageDown')
    expect(await counter.textContent()).toBe(`2 / ${count}`)
    // The visible slide is the one the counter names, and its thumbnail is marked.
    const visible = await page.locator('#stage .slide-frame:visible').getAttribute('data-slide-id')
    expect(await page.locator('#thumbs .thumb[aria-current="true"]').getAttribute('data-slide-id')).toBe(visible)
    await page.screenshot({ path: screenshotPath('editor-slide-2') })

    // A thumbnail click, and the overview.
    await page.locator('#thumbs .thumb').nth(2).click()
    expect(await counter.textContent()).toBe(`3 / ${count}`)
    await page.keyboard.press('o')
    expect(await page.locator('html.overview').count()).toBe(1)
    await page.screenshot({ path: screenshotPath('editor-overview') })
    await page.keyboard.press('Escape')
    expect(await page.locator('html.overview').count()).toBe(0)
    // A reload keeps the slide.
    await page.reload()
    expect(await counter.textContent()).toBe(`3 / ${count}`)
  })

  it('says when a slide holds more than fits, and stops saying so once scrolled to its end', async () => {
    const project = (await served.api('POST', '/projects', ALICE, { name: 'Crowded' })).body
    const bullets = Array.from({ length: 14 }, (_, i) => `Point ${i + 1}: a line long enough to take room on the slide`)
    await served.api('POST', `/projects/${project.projectSlug}/slides`, ALICE, {
      name: 'Too much',
      files: {
        'slide.content.json': JSON.stringify({
          title: 'Everything at once',
          blocks: [
            { type: 'bullets', items: bullets },
            { type: 'quote', text: 'The last word.', author: 'Someone' },
          ],
        }),
      },
    })
    await served.api('POST', `/projects/${project.projectSlug}/slides`, ALICE, {
      name: 'Short',
      files: { 'slide.content.json': JSON.stringify({ title: 'Short', blocks: [] }) },
    })
    const { page } = await open(`/editor/${project.projectSlug}`, { view: 'content' })
    const current = page.locator('#stage .slide-frame.current')
    await expect.poll(() => current.evaluate((el) => el.classList.contains('more-below'))).toBe(true)
    expect(await current.evaluate((el) => getComputedStyle(el, '::after').content)).toContain('More below')
    await page.screenshot({ path: screenshotPath('editor-more-below') })
    await current.locator('.slide').evaluate((el) => el.scrollTo({ top: el.scrollHeight }))
    await expect.poll(() => current.evaluate((el) => el.classList.contains('more-below'))).toBe(false)
    // A slide that fits has no cue.
    await page.keyboard.press('ArrowRight')
    expect(await page.locator('#stage .slide-frame.more-below').count()).toBe(0)
  })

  it('renders an image block, and a remote image as a placeholder with its alt text, loading nothing from outside', async () => {
    const project = (await served.api('POST', '/projects', ALICE, { name: 'Pictures' })).body
    await served.api('POST', `/projects/${project.projectSlug}/slides`, ALICE, {
      name: 'Growth',
      files: {
        'slide.content.json': JSON.stringify({
          title: 'Growth by quarter',
          blocks: [
            { type: 'text', text: 'Revenue grew every quarter this year.' },
            { type: 'bullets', items: ['Q1: 40', 'Q2: 60', 'Q3: 80', 'Q4: 100'] },
            { type: 'image', url: CHART, alt: 'Bar chart of revenue by quarter' },
          ],
        }),
      },
    })
    await served.api('POST', `/projects/${project.projectSlug}/slides`, ALICE, {
      name: 'Team',
      files: {
        'slide.content.json': JSON.stringify({
          title: 'The team',
          blocks: [{ type: 'image', url: 'https://images.example.com/team.jpg', alt: 'The whole team at the offsite' }],
        }),
      },
    })
    const { page } = await open(`/editor/${project.projectSlug}`, { view: 'content' })
    const image = page.locator('#stage .slide-frame.current img')
    await image.waitFor()
    expect(await image.getAttribute('alt')).toBe('Bar chart of revenue by quarter')
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true)
    await page.screenshot({ path: screenshotPath('editor-image-block') })

    await page.keyboard.press('ArrowRight')
    const placeholder = page.locator('#stage .slide-frame.current [data-testid="image-placeholder"]')
    expect(await placeholder.isVisible()).toBe(true)
    expect(await placeholder.getAttribute('aria-label')).toBe('Image: The whole team at the offsite')
    expect(await placeholder.textContent()).toContain('images.example.com')
    expect(watched!.requests.some((url) => url.includes('images.example.com'))).toBe(false)
    await page.screenshot({ path: screenshotPath('editor-image-placeholder') })
  })

  it('renders an injected <script> as text, in the name and in a slide, and opens no dialog', async () => {
    const project = (await served.api('POST', '/projects', ALICE, { name: '<script>alert("name")</script>' })).body
    await served.api('POST', `/projects/${project.projectSlug}/slides`, ALICE, {
      name: '<img src=x onerror=alert(1)>',
      files: {
        'slide.content.json': JSON.stringify({
          title: '<script>alert("title")</script>',
          blocks: [{ type: 'text', text: '<svg onload=alert(2)>' }],
        }),
      },
    })
    const { page } = await open(`/editor/${project.projectSlug}`)
    expect(await page.locator('#deck-name').textContent()).toBe('<script>alert("name")</script>')
    expect(await page.locator('#stage .slide-frame.current h1').textContent()).toBe('<script>alert("title")</script>')
    expect(await page.locator('#stage .slide-frame.current p').textContent()).toBe('<svg onload=alert(2)>')
    // The same through a live update.
    await expect.poll(() => page.locator('#live').textContent()).toBe('Live')
    await served.api('PATCH', `/projects/${project.projectSlug}`, ALICE, { name: '<img src=x onerror=alert(3)>' })
    await expect.poll(() => page.locator('#deck-name').textContent()).toBe('<img src=x onerror=alert(3)>')
    expect(await page.locator('img[src="x"]').count()).toBe(0)
    await page.waitForTimeout(200)
    expect(watched!.dialogs).toEqual([])
  })

  it('fits a phone: one slide readable at 390 px, nothing wider than the screen', async () => {
    const { page } = await open('/editor/q3-business-review#slide-4', { phone: true, view: 'content' })
    const width = await page.evaluate(() => document.documentElement.scrollWidth)
    expect(width).toBeLessThanOrEqual(390)
    // A long version name in the header (a slide added with a long name) stays within the screen too.
    await served.api('POST', '/projects/q3-business-review/slides', ACME, {
      name: 'Drive collaborative smart contracts across every region',
    })
    await expect.poll(() => page.locator('.chip-version').textContent()).toContain('Drive collaborative smart contracts')
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    await page.goto(page.url())
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    const frame = page.locator('#stage .slide-frame.current')
    const box = (await frame.boundingBox())!
    expect(box.x).toBeGreaterThanOrEqual(0)
    expect(box.x + box.width).toBeLessThanOrEqual(390)
    // Nothing inside the slide is cut off: the slide grows to its content.
    expect(await frame.evaluate((el) => el.scrollHeight <= el.clientHeight + 1 && el.scrollWidth <= el.clientWidth + 1)).toBe(true)
    const fontSize = await page
      .locator('#stage .slide-frame.current p')
      .first()
      .evaluate((el) => parseFloat(getComputedStyle(el).fontSize))
    expect(fontSize).toBeGreaterThanOrEqual(13)
    await page.screenshot({ path: screenshotPath('editor-phone') })
    await page.keyboard.press('Home')
    await page.screenshot({ path: screenshotPath('editor-phone-title') })
    // The components: the slide's 16:9 box scaled to the screen's width, nothing wider.
    await page.locator('#view-component').click()
    await expect
      .poll(() => page.locator('#stage .slide-frame.current > .component-layer').getAttribute('data-state'), { timeout: 30_000 })
      .toBe('rendered')
    const component = (await frame.boundingBox())!
    expect(component.x + component.width).toBeLessThanOrEqual(390)
    expect(Math.abs(component.width / component.height - 16 / 9)).toBeLessThan(0.05)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    await page.screenshot({ path: screenshotPath('editor-phone-component') })
  })

  it('answers an unknown project with a 404 page that says no such project exists', async () => {
    const { page, status } = await open('/editor/no-such-deck')
    expect(status).toBe(404)
    expect(await page.locator('h1').textContent()).toBe('No such project')
    expect(await page.locator('main').textContent()).toContain('No project with the slug no-such-deck exists')
    await page.screenshot({ path: screenshotPath('editor-404') })
    // The browser logs the 404 itself; that is the page's point, not an error of it.
    watched!.errors = watched!.errors.filter((error) => !/status of 404/.test(error))
  })
})
