/**
 * Issue 31, break 5, in Chromium: a slide whose module reading (what
 * validation parses) hides a line in a block comment that the browser's
 * classic-script reading runs. Stored through a state import (which does
 * not validate), in the editor and in a published site, such a slide shows
 * its source error at its `slide.tsx:line:column`, and its hidden line
 * never runs: the marker it would put on the page never shows, and the
 * canary it would load gets no connection. The slides every reading takes
 * alike render. The corpus is `support/hostile-corpus.ts` (`CLASSIC_READING`).
 */
import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium, screenshotPath } from './support/browser.js'
import { serveEmulator, type ServedEmulator } from './support/emulator.js'
import { CLASSIC_READING, hostileText } from './support/hostile-corpus.js'
import {
  ALICE,
  type Canary,
  errorOf,
  foreignRequests,
  makeDeck,
  type ObservedPage,
  observedPage,
  settled,
  shown,
  startCanary,
} from './support/render.js'

const REFUSED = CLASSIC_READING.filter((slide) => slide.expect.put === 'refused')
const ACCEPTED = CLASSIC_READING.filter((slide) => slide.expect.put === 'accepted')

describe('slides a browser would read otherwise than validation, in Chromium', () => {
  let browser: Browser
  let served: ServedEmulator
  let canary: Canary
  let observed: ObservedPage | undefined

  beforeAll(async () => {
    browser = await launchChromium()
    served = await serveEmulator()
    canary = await startCanary()
  })
  afterAll(async () => {
    await browser?.close()
    await served?.close()
    await canary?.close()
  })
  afterEach(async () => {
    const page = observed
    observed = undefined
    try {
      expect(canary.connections, `connections to the canary: ${canary.requests.join(', ')}`).toBe(0)
      if (page === undefined) return
      expect(foreignRequests(page.requests, served.origin)).toEqual([])
      expect(page.dialogs).toEqual([])
      expect(page.errors).toEqual([])
    } finally {
      await page?.close()
    }
  })

  const text = (tsx: string) => hostileText(tsx, { canary: canary.origin, origin: served.origin })

  /** Every text the page and its frames hold, and the markup of its pictures (where a rendered slide shows). */
  async function everything(page: Page): Promise<string> {
    const parts: string[] = []
    for (const frame of page.frames()) {
      try {
        parts.push(await frame.content())
      } catch {
        // A frame gone since (a display frame replaced): nothing of it shows.
      }
    }
    // (A picture's address holds its markup URL-encoded; the marker has nothing to encode.)
    return parts.join('\n')
  }

  /**
   * A deck of the refused slides and a benign one, published, then each
   * hostile text put in place by a state import (in the project and in the
   * published snapshot): its editor's and its site's addresses.
   */
  async function hostileDeck(): Promise<{ ids: string[]; editor: string; site: string }> {
    const { slug, ids } = await makeDeck(served, 'Classic reading', [
      ...REFUSED.map((slide, index) => ({ name: `Hostile ${index + 1}`, content: { title: slide.name, blocks: [] } })),
      { name: 'Benign', tsx: 'export default () => <section className="slide"><h1 id="benign">Benign slide</h1></section>' },
    ])
    const published = (await served.api('POST', `/projects/${slug}/publish`, ALICE)).body
    // The state import: the hostile text in the project's slides and in the published snapshot.
    const state = await (await fetch(`${served.origin}/_emulator/state`)).json()
    const hostileOf = new Map(REFUSED.map((slide, index) => [ids[index]!, text(slide.tsx)]))
    for (const slide of [...state.slides, ...state.publications.flatMap((p: { slides: unknown[] }) => p.slides)]) {
      const tsx = hostileOf.get(slide.id)
      if (tsx !== undefined) slide.files['slide.tsx'] = tsx
    }
    const put = await fetch(`${served.origin}/_emulator/state`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(state),
    })
    expect(put.status, await put.clone().text()).toBe(200)
    return { ids, editor: `/editor/${slug}`, site: new URL(published.publishedUrl).pathname }
  }

  // One test per page: each clicks through every hostile slide and reads every frame, which on a busy machine is
  // most of a test's time limit (both pages in one test went over it at a load average of 20 on 2 cores).
  it.each(['editor', 'site'] as const)(
    'shows each hidden-line slide stored through a state import as its source error, in the %s; no hidden line runs',
    async (where) => {
      const deck = await hostileDeck()
      const { ids } = deck
      const journalBefore = (await served.emulator.control.listRequests({ limit: 500 })).requests.length

      observed = await observedPage(browser)
      const page = observed.page
      await page.goto(`${served.origin}${deck[where]}`)
      await settled(page)
      expect((await shown(page, ids[ids.length - 1]!)).text).toContain('Benign slide')
      // Each on the stage too (a display frame), where a hidden line that ran would show its marker as well.
      for (const id of ids.slice(0, REFUSED.length)) {
        await page.locator(`#thumbs .thumb[data-slide-id="${id}"]`).click()
        await settled(page)
        const all = await everything(page)
        for (const slide of REFUSED) {
          const hit = slide.expect.never!.exec(all)
          // The marker's surroundings, when it shows: what ran.
          expect(hit === null ? '' : all.slice(Math.max(0, hit.index - 120), hit.index + 40), slide.name).toBe('')
        }
      }
      for (const [index, slide] of REFUSED.entries()) {
        const fails = (slide.expect.render as { fails: RegExp }).fails
        expect(await errorOf(page, ids[index]!, 'thumb'), slide.name).toMatch(fails)
      }
      expect(await errorOf(page, ids[REFUSED.length - 1]!, 'stage')).toMatch((REFUSED.at(-1)!.expect.render as { fails: RegExp }).fails)
      await page.screenshot({ path: screenshotPath(`classic-reading-${where}`) })
      await observed.close()
      expect(canary.connections).toBe(0)
      expect(foreignRequests(observed.requests, served.origin)).toEqual([])
      expect(observed.errors).toEqual([])
      expect((await served.emulator.control.listRequests({ limit: 500 })).requests.length).toBe(journalBefore)
      observed = undefined
    },
  )

  it('renders the slides both readings take alike (`-->` in JSX text, both in strings and comments, a hashbang)', async () => {
    const { slug, ids } = await makeDeck(
      served,
      'Alike',
      ACCEPTED.map((slide) => ({ name: slide.name.slice(0, 60), tsx: text(slide.tsx) })),
    )
    observed = await observedPage(browser)
    await observed.page.goto(`${served.origin}/editor/${slug}`)
    await settled(observed.page)
    for (const [index, slide] of ACCEPTED.entries()) {
      expect(await errorOf(observed.page, ids[index]!), slide.name).toBe('')
      expect((await shown(observed.page, ids[index]!)).text, slide.name).toMatch((slide.expect.render as { shows: RegExp }).shows)
    }
  })
})
