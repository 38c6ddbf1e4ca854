/**
 * The slide renderer (issue 20), in headless Chromium and in-process:
 *
 * - a deck generated from a 30-slide template: navigation start to the
 *   current slide's component shown, and to every thumbnail's component
 *   shown, against the same build with the Content toggle on (navigation
 *   start to the current slide and every thumbnail in the page). Each run
 *   in a fresh browser context after one unmeasured visit (the renderer's
 *   scripts in the HTTP cache, as on a second visit), the two views
 *   alternating;
 * - transpiling one slide (`transpileSlideTsx`, the emulator's side):
 *   median and p99 over every distinct component of the seeded world and a
 *   generated 30-slide deck, each text many times;
 * - a second view of an unchanged slide within a page session: slides the
 *   emulator transpiled for the first view of the deck, then for a reload
 *   and a live update.
 *
 * The renderer's code in the browser entry's initial chunks is checked by
 * the `browser` group's bundle rows (`bench/browser.ts`).
 */
import { existsSync } from 'node:fs'
import type { Browser } from 'playwright-core'
import type { EmulatorRequest } from '../src/core/exchange.js'
import { Emulator } from '../src/emulator.js'
import { createEmulator } from '../src/index.js'
import { MIN_PICTURE_WIDTH } from '../web/check/index.js'
import { WEB_MOUNTS } from '../web/mounts.js'
import { transpilerOf } from '../web/pages/page-server.js'
import { transpileSlideTsx } from '../web/render/transpile.js'
import { ratio, skipped, type Row } from './lib/row.js'
import { transpileTimes, WARM_UP_PASSES } from './lib/transpile-time.js'
import { alternate, fmt, median, pairedRatio } from './lib/stats.js'
import { CHROMIUM, launchChromium } from './lib/chromium.js'

export const SLIDES = 30
const ACME = 'pres_test_alice_acme'

/**
 * A 30-slide deck generated from a 30-slide template of Acme's, on the
 * emulator serving at `origin` (this checkout's or another build's, through
 * its API and control plane only, with a manual clock): its editor path.
 */
export async function thirtySlideDeck(origin: string): Promise<string> {
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${origin}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ACME}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`)
    return response.json()
  }
  const teams = await (await fetch(`${origin}/v1/teams`, { headers: { authorization: `Bearer ${ACME}` } })).json()
  const teamId = (teams as { teams: Array<{ id: string; isPersonal: boolean }> }).teams.find((team) => !team.isPersonal)!.id
  const { templateId } = (await post('/_emulator/templates', { teamId, name: 'Thirty', slideCount: SLIDES })) as {
    templateId: string
  }
  const job = (await post('/v1/projects/generate', { prompt: 'Quarterly results for the board', templateId })) as {
    jobId: string
    projectSlug: string
  }
  await post(`/_emulator/jobs/${job.jobId}/complete`, {})
  return `/editor/${job.projectSlug}`
}

export interface Marks {
  current: number
  thumbs: number
}

/**
 * Loads the editor in `view` in a fresh browser context, once unmeasured (the
 * renderer's scripts then in the HTTP cache, as on a second visit) and once
 * more, and answers when (ms from navigation start) the current slide and
 * all thumbnails showed on the second load.
 */
export async function visit(browser: Browser, url: string, view: 'component' | 'content'): Promise<Marks> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 820 } })
  try {
    // A string, not a function: tsx would wrap the function's inner functions in a helper the page does not have.
    await context.addInitScript(`(() => {
      if (self !== top) return
      localStorage.setItem('presentation-emulator:slide-view', ${JSON.stringify(view)})
      const marks = (window.__marks = {})
      const component = ${JSON.stringify(view === 'component')}
      const count = (selector) => document.querySelectorAll(selector).length
      const check = () => {
        const now = performance.now()
        if (marks.current === undefined && count(component ? '#stage .slide-frame.current > .component-layer[data-state="rendered"]' : '#stage .slide-frame.current') > 0) marks.current = now
        if (marks.thumbs === undefined && count(component ? '#thumbs .thumb > .component-layer[data-state="rendered"]' : '#thumbs .thumb') >= ${SLIDES} && count('.js #stage .slide-frame.current') > 0) marks.thumbs = now
      }
      new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-state', 'class'] })
    })()`)
    const page = await context.newPage()
    const load = async () => {
      await page.goto(url)
      await page
        .waitForFunction(
          () => {
            const marks = (window as unknown as { __marks: Partial<Marks> }).__marks
            return marks.current !== undefined && marks.thumbs !== undefined
          },
          undefined,
          { timeout: 120_000 },
        )
        .catch(async (error) => {
          const states = await page.evaluate(() => [
            JSON.stringify((window as unknown as { __marks: unknown }).__marks),
            String(document.querySelectorAll('#thumbs .thumb').length),
            ...[...document.querySelectorAll<HTMLElement>('.component-layer')].map(
              (layer) => `${layer.dataset.state}: ${layer.textContent}`,
            ),
          ])
          throw new Error(
            `${view}: the slides did not all show (${JSON.stringify(states.filter((state) => !state.startsWith('rendered')).slice(0, 3))}): ${error}`,
          )
        })
      return page.evaluate(() => (window as unknown as { __marks: Marks }).__marks)
    }
    await load()
    return await load()
  } finally {
    await context.close()
  }
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

/** Every distinct slide.tsx of the seeded world: the texts the transpile rows time. */
export function seededSlideTexts(host: Emulator): string[] {
  return [...new Set(host.world.slides.all().map((slide) => slide.files['slide.tsx']))]
}

const get = (path: string): EmulatorRequest => ({ method: 'GET', path, query: '', headers: { host: '127.0.0.1' }, body: null })

export async function renderRows(options: { rounds: number }): Promise<Row[]> {
  const rows: Row[] = []

  // Transpiling, on the emulator's side.
  const host = new Emulator({ clock: 'manual', rateLimit: 0 }, { mounts: WEB_MOUNTS })
  await host.ready()
  const texts = seededSlideTexts(host)
  transpileTimes(transpileSlideTsx, texts, WARM_UP_PASSES)
  const times = transpileTimes(transpileSlideTsx, texts, 50)
  rows.push({
    measure: `transpiling one slide.tsx on the emulator's side (parse, rewrite, sucrase, check), ms: median / p99 over ${texts.length} distinct components × 50, after a warm-up`,
    emulator: `${fmt(median(times), 2)} / ${fmt(percentile(times, 99), 2)}`,
    baseline: '',
    ratio: '',
    target: '(for information)',
    met: undefined,
  })

  // A second view transpiles nothing.
  const transpiler = transpilerOf(host)
  await host.handle(get('/editor/q3-business-review'))
  const first = transpiler.stats.transpiled
  await host.handle(get('/editor/q3-business-review'))
  await host.handle(get('/sites/q3-business-review.sites.localhost/'))
  const again = transpiler.stats.transpiled - first
  rows.push({
    measure: 'slides transpiled for a second view, a reload and the published site of an unchanged deck (the first view transpiled them)',
    emulator: `${again} (first view: ${first})`,
    baseline: '',
    ratio: '',
    target: '0',
    met: again === 0,
  })
  await host.close()

  const current =
    'navigation start to the current slide’s component shown (30-slide deck from a template), headless Chromium, ms (medians; the ratio is the median of the visits’ pairs)'
  const thumbs = 'navigation start to all 30 thumbnails’ components shown, ms'
  if (!existsSync(CHROMIUM)) {
    rows.push(skipped(current, '≤ 1.5x', `skipped: no ${CHROMIUM}`), skipped(thumbs, '≤ 2x', `skipped: no ${CHROMIUM}`))
    return rows
  }
  await withThirtySlideDeck(async ({ emulator, browser, url, slug }) => {
    const componentThumbs: number[] = []
    const contentThumbs: number[] = []
    const runs = await alternate(Math.max(5, options.rounds), {
      component: async () => {
        const marks = await visit(browser, url, 'component')
        componentThumbs.push(marks.thumbs)
        return marks.current
      },
      content: async () => {
        const marks = await visit(browser, url, 'content')
        contentThumbs.push(marks.thumbs)
        return marks.current
      },
    })
    // Ratios pair by pair (each component visit with the content visit beside it): the Content view's own
    // time moves by a third from run to run on a shared machine, and the ratio of two medians with it.
    const c = median(runs.component)
    const t = median(runs.content)
    const currentRatio = pairedRatio(runs.component, runs.content)
    rows.push({
      measure: current,
      emulator: fmt(c),
      baseline: `Content toggle on: ${fmt(t)}`,
      ratio: ratio(currentRatio),
      target: '≤ 1.5x',
      met: currentRatio <= 1.5,
    })
    const ct = median(componentThumbs)
    const tt = median(contentThumbs)
    const thumbsRatio = pairedRatio(componentThumbs, contentThumbs)
    rows.push({
      measure: thumbs,
      emulator: fmt(ct),
      baseline: `Content toggle on: ${fmt(tt)}`,
      ratio: ratio(thumbsRatio),
      target: '≤ 2x',
      met: thumbsRatio <= 2,
    })
    // Issue 32: a data check of the same deck, cold (the checker's process started by it) and warm, against the thumbnails' time.
    const checkOnce = async () => {
      const started = performance.now()
      const result = await emulator.control.checkSlides(slug)
      if (result.rendered !== result.slides.length) throw new Error(`${result.failed} slides of the bench deck did not render`)
      return performance.now() - started
    }
    const cold = await checkOnce()
    const warm: number[] = []
    for (let round = 0; round < Math.max(5, options.rounds); round++) warm.push(await checkOnce())
    const coldRatio = cold / ct
    const warmRatio = median(warm) / ct
    rows.push(
      {
        measure: 'data check of the 30-slide deck (control.checkSlides), cold: the checker’s start included, ms',
        emulator: fmt(cold),
        baseline: `all 30 thumbnails shown: ${fmt(ct)}`,
        ratio: ratio(coldRatio),
        target: '≤ 1x',
        met: coldRatio <= 1,
      },
      {
        measure: 'data check of the 30-slide deck, warm, ms (median)',
        emulator: fmt(median(warm)),
        baseline: `all 30 thumbnails shown: ${fmt(ct)}`,
        ratio: ratio(warmRatio),
        target: '≤ 0.5x',
        met: warmRatio <= 0.5,
      },
    )
  })
  rows.push(...(await checkedSaveRows(Math.max(15, options.rounds))))
  return rows
}

/**
 * Issue 32's checked saving: a `PUT` of one slide (the same files each time) to an emulator that checks
 * slides on save, against the same `PUT` to one that does not, over HTTP as an app sends it. The first
 * checked `PUT` starts the checker's process; later ones are paired with a plain one, in turn.
 */
async function checkedSaveRows(rounds: number): Promise<Row[]> {
  const plain = createEmulator({ clock: 'manual', rateLimit: 0 })
  const checked = createEmulator({ clock: 'manual', rateLimit: 0, checkSlidesOnSave: true })
  try {
    const saver = async (emulator: typeof plain) => {
      const { origin } = await emulator.listen({ port: 0 })
      const path = await thirtySlideDeck(origin)
      const slug = path.slice('/editor/'.length)
      const call = async (method: string, route: string, body?: unknown) => {
        const response = await fetch(`${origin}/v1/projects/${slug}${route}`, {
          method,
          headers: { authorization: `Bearer ${ACME}`, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        })
        if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`)
        return response.json()
      }
      const { slides } = (await call('GET', '/slides')) as { slides: Array<{ id: string }> }
      const route = `/slides/${slides[0]!.id}`
      const { files } = (await call('GET', `${route}/files`)) as { files: Record<string, string> }
      return async () => {
        const started = performance.now()
        await call('PUT', route, { files })
        return performance.now() - started
      }
    }
    const putPlain = await saver(plain)
    const putChecked = await saver(checked)
    await putPlain()
    const first = await putChecked()
    const plainTimes: number[] = []
    const checkedTimes: number[] = []
    for (let round = 0; round < rounds; round++) {
      if (round % 2 === 0) {
        plainTimes.push(await putPlain())
        checkedTimes.push(await putChecked())
      } else {
        checkedTimes.push(await putChecked())
        plainTimes.push(await putPlain())
      }
    }
    const p = median(plainTimes)
    const c = median(checkedTimes)
    return [
      {
        measure: 'checked saving (--check-slides-on-save): the first checked PUT of a slide, the checker’s start included, ms',
        emulator: fmt(first),
        baseline: `plain PUT: ${fmt(p)}`,
        ratio: ratio(first / p),
        target: '(for information)',
        met: undefined,
      },
      {
        measure: `checked saving: later checked PUTs of the same slide, ms (median of ${rounds}, each beside a plain one)`,
        emulator: fmt(c),
        baseline: `plain PUT: ${fmt(p)}`,
        ratio: ratio(c / p),
        target: '≤ 1.5x + 20 ms',
        met: c <= 1.5 * p + 20,
      },
    ]
  } finally {
    await plain.close()
    await checked.close()
  }
}

/**
 * Issue 33's pictures: PNGs of the 30-slide deck in one call
 * (`emulator.control.slidePictures`, at the default 1280 × 720, one browser
 * and one renderer frame for the deck) against the editor's own time to
 * show all 30 thumbnails, in the same run: the first call (the checker's
 * browser started by it), then warm calls, each beside a thumbnails visit.
 * `npm run bench -- --only=pictures` runs this group alone.
 */
export async function pictureRows(options: { rounds: number }): Promise<Row[]> {
  const cold =
    'pictures of the 30-slide deck in one call (control.slidePictures, 1280 × 720, with layout as check --pictures), cold: the checker’s browser start included, ms'
  const warm = 'pictures of the 30-slide deck in one call, warm, ms (median; the ratio is the median of the pairs with a thumbnails visit)'
  if (!existsSync(CHROMIUM)) return [skipped(cold, '≤ 1x', `skipped: no ${CHROMIUM}`), skipped(warm, '≤ 1x', `skipped: no ${CHROMIUM}`)]
  process.env.CHROMIUM_PATH ??= CHROMIUM
  return withThirtySlideDeck(async ({ emulator, browser, url, slug }) => {
    const picturesOnce = async (width?: number) => {
      const started = performance.now()
      // As `check --pictures` asks: pictures imply the layout findings, measured in the same look.
      const { result, pictures } = await emulator.control.slidePictures(slug, { layout: true, ...(width !== undefined && { width }) })
      const elapsed = performance.now() - started
      if (pictures.length !== SLIDES)
        throw new Error(`${SLIDES - pictures.length} slides of the bench deck had no picture (${result.failed} failed)`)
      return elapsed
    }
    const first = await picturesOnce()
    const firstThumbs = (await visit(browser, url, 'component')).thumbs
    // The editor cold as well: a browser started, then the thumbnails shown in it (the checker's cold call starts its own browser).
    const launched = performance.now()
    const fresh = await launchChromium()
    let coldThumbs: number
    try {
      await visit(fresh, url, 'component')
      coldThumbs = performance.now() - launched
    } finally {
      await fresh.close()
    }
    const runs = await alternate(Math.max(5, options.rounds), {
      pictures: () => picturesOnce(),
      thumbs: async () => (await visit(browser, url, 'component')).thumbs,
    })
    // The smallest pictures, near the thumbnails' own size (what the cost owes to the pixels), after a call that sizes the frames to them.
    await picturesOnce(MIN_PICTURE_WIDTH)
    const small = await alternate(Math.max(5, options.rounds), {
      pictures: () => picturesOnce(MIN_PICTURE_WIDTH),
      thumbs: async () => (await visit(browser, url, 'component')).thumbs,
    })
    const coldRatio = first / coldThumbs
    const warmRatio = pairedRatio(runs.pictures, runs.thumbs)
    return [
      {
        measure: cold,
        emulator: fmt(first),
        baseline: `a browser started and all 30 thumbnails shown in it: ${fmt(coldThumbs)} (in a running browser: ${fmt(firstThumbs)})`,
        ratio: ratio(coldRatio),
        target: '≤ 1x',
        met: coldRatio <= 1,
      },
      {
        measure: warm,
        emulator: fmt(median(runs.pictures)),
        baseline: `all 30 thumbnails shown: ${fmt(median(runs.thumbs))}`,
        ratio: ratio(warmRatio),
        target: '≤ 1x',
        met: warmRatio <= 1,
      },
      {
        measure: `pictures of the 30-slide deck in one call at ${MIN_PICTURE_WIDTH} × ${(MIN_PICTURE_WIDTH * 9) / 16} (the smallest), warm, ms (median; the ratio as above)`,
        emulator: fmt(median(small.pictures)),
        baseline: `all 30 thumbnails shown: ${fmt(median(small.thumbs))}`,
        ratio: ratio(pairedRatio(small.pictures, small.thumbs)),
        target: '(for information)',
        met: true,
      },
    ]
  })
}

/**
 * The render rows' and the pictures rows' world: an emulator serving the
 * 30-slide deck over HTTP and a Chromium that has visited its editor once;
 * both closed after `use`.
 */
async function withThirtySlideDeck<T>(
  use: (deck: { emulator: ReturnType<typeof createEmulator>; browser: Browser; url: string; slug: string }) => Promise<T>,
): Promise<T> {
  const emulator = createEmulator({ clock: 'manual', rateLimit: 0 })
  const server = await emulator.listen({ port: 0 })
  const browser = await launchChromium()
  try {
    const path = await thirtySlideDeck(server.origin)
    const url = `${server.origin}${path}`
    await visit(browser, url, 'component')
    return await use({ emulator, browser, url, slug: path.slice('/editor/'.length) })
  } finally {
    await browser.close()
    await emulator.close()
  }
}
