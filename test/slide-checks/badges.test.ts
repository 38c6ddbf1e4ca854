/**
 * Check badges (issue 33): the last check result of each slide, kept by the
 * core (`src/model/check-results.ts`) under a key of the slide's files and
 * the project's config, and shown on the editor's thumbnails and the
 * dashboard's projects. The store is tested on its own (keys, staleness,
 * bounds, a new world, a removed slide); the ways in with an emulator as the
 * Node entry builds one (the web room's pages), whose slide checker is a
 * test double of the *port* (`SlideChecker`) that counts what it is asked:
 * the real checker renders in a child process (the process tier), and these
 * tests are about what is recorded and shown, and that viewing a page never
 * asks for a check. The badges in a real browser after a real check are in
 * `test/browser/check-badges.test.ts`.
 */
import { describe, expect, it } from 'vitest'
import { checkKey, MAX_CHECKED_SLIDES, MAX_KEYS_PER_SLIDE, SlideCheckResults } from '../../src/model/check-results.js'
import type { SlideCheckResult } from '../../src/model/slide-checker.js'
import type { ProjectConfig, SlideFiles } from '../../src/schemas/index.js'
import { WEB_MOUNTS } from '../../web/mounts.js'
import { ALICE, checkerEmulators, ORIGIN, RENDERED, slideIdsOf, StandInChecker, THROWS } from '../support/slide-checks.js'

const files = (tsx: string): SlideFiles => ({ 'slide.tsx': tsx, 'slide.content.json': '{}', 'slide.controls.json': '{}' })

describe('the store of last check results', () => {
  // A config with nested keys (the store never validates one: it only keys by it).
  const config = { layout: 'CARD', width: 'MEDIUM', theme: { fontFamily: 'Inter', radius: '8px' } } as unknown as ProjectConfig

  it('answers a result only for the files and config it was checked with; an equal config in another key order is the same', () => {
    const store = new SlideCheckResults()
    const a = files('export default () => <h1>A</h1>')
    store.record({ projectId: 'prj_1', slideId: 'sld_1' }, { files: a, config }, RENDERED)
    expect(store.current('prj_1', 'sld_1', { ...a }, structuredClone(config))).toEqual(RENDERED)
    // The same config written in another key order.
    const reordered = { theme: { radius: '8px', fontFamily: 'Inter' }, width: 'MEDIUM', layout: 'CARD' } as unknown as ProjectConfig
    expect(JSON.stringify(reordered)).not.toBe(JSON.stringify(config))
    expect(checkKey(a, reordered)).toBe(checkKey(a, config))
    expect(store.current('prj_1', 'sld_1', a, reordered)).toEqual(RENDERED)
    // Another slide, another project, another file, another config: nothing.
    expect(store.current('prj_1', 'sld_2', a, config)).toBeUndefined()
    expect(store.current('prj_2', 'sld_1', a, config)).toBeUndefined()
    expect(store.current('prj_1', 'sld_1', { ...a, 'slide.content.json': '{"x":1}' }, config)).toBeUndefined()
    expect(store.current('prj_1', 'sld_1', a, { ...config, layout: 'REGULAR' })).toBeUndefined()
    expect(store.current('prj_1', 'sld_1', a, { ...config, theme: { ...config.theme!, radius: '9px' } })).toBeUndefined()
  })

  it('keeps the newest results of a few versions of a slide: a result for other files does not push out the current one', () => {
    const store = new SlideCheckResults()
    const slide = { projectId: 'prj_1', slideId: 'sld_1' }
    const versions = Array.from({ length: MAX_KEYS_PER_SLIDE + 1 }, (_, i) => files(`export default () => <p>${i}</p>`))
    store.record(slide, { files: versions[0]!, config }, RENDERED)
    store.record(slide, { files: versions[1]!, config }, THROWS)
    expect(store.current('prj_1', 'sld_1', versions[0]!, config)).toEqual(RENDERED)
    expect(store.current('prj_1', 'sld_1', versions[1]!, config)).toEqual(THROWS)
    // Checked again: the newer result replaces the older one of the same files.
    store.record(slide, { files: versions[0]!, config }, THROWS)
    expect(store.current('prj_1', 'sld_1', versions[0]!, config)).toEqual(THROWS)
    for (const version of versions.slice(1)) store.record(slide, { files: version, config }, RENDERED)
    // The oldest of more than MAX_KEYS_PER_SLIDE is dropped.
    expect(store.current('prj_1', 'sld_1', versions[0]!, config)).toBeUndefined()
    expect(store.current('prj_1', 'sld_1', versions.at(-1)!, config)).toEqual(RENDERED)
    expect(store.size).toBe(1)
  })

  it('keeps at most MAX_CHECKED_SLIDES slides, dropping the least recently checked', () => {
    const store = new SlideCheckResults()
    const a = files('x')
    for (let i = 0; i <= MAX_CHECKED_SLIDES; i++) store.record({ projectId: 'prj_1', slideId: `sld_${i}` }, { files: a, config }, RENDERED)
    expect(store.size).toBe(MAX_CHECKED_SLIDES)
    expect(store.current('prj_1', 'sld_0', a, config)).toBeUndefined()
    expect(store.current('prj_1', 'sld_1', a, config)).toEqual(RENDERED)
    expect(store.current('prj_1', `sld_${MAX_CHECKED_SLIDES}`, a, config)).toEqual(RENDERED)
  })

  it('drops a removed slide’s results, and everything on clear, including what a check read before it would record', () => {
    const store = new SlideCheckResults()
    const a = files('x')
    const heard: unknown[] = []
    store.onRecord((slide) => heard.push(slide))
    const before = store.recorder()
    store.record({ projectId: 'prj_1', slideId: 'sld_1' }, { files: a, config }, RENDERED)
    store.record({ projectId: 'prj_1', slideId: 'sld_2' }, { files: a, config }, RENDERED)
    // An update of a slide is not a removal.
    store.observe({ table: 'slides', prev: { id: 'sld_1', projectId: 'prj_1' }, next: { id: 'sld_1', projectId: 'prj_1' } })
    store.observe({ table: 'projects', prev: { id: 'sld_1', projectId: 'prj_1' }, next: undefined })
    expect(store.current('prj_1', 'sld_1', a, config)).toEqual(RENDERED)
    store.observe({ table: 'slides', prev: { id: 'sld_1', projectId: 'prj_1' }, next: undefined })
    expect(store.current('prj_1', 'sld_1', a, config)).toBeUndefined()
    expect(store.current('prj_1', 'sld_2', a, config)).toEqual(RENDERED)
    const version = store.version
    store.clear()
    expect([store.size, store.version > version]).toEqual([0, true])
    // A check whose snapshot was read before the world was replaced records nothing in the new one.
    before({ projectId: 'prj_1', slideId: 'sld_2' }, { files: a, config }, RENDERED)
    expect(store.current('prj_1', 'sld_2', a, config)).toBeUndefined()
    store.recorder()({ projectId: 'prj_1', slideId: 'sld_2' }, { files: a, config }, RENDERED)
    expect(store.current('prj_1', 'sld_2', a, config)).toEqual(RENDERED)
    expect(heard).toEqual([
      { projectId: 'prj_1', slideId: 'sld_1' },
      { projectId: 'prj_1', slideId: 'sld_2' },
      { projectId: 'prj_1', slideId: 'sld_1' },
      undefined,
      { projectId: 'prj_1', slideId: 'sld_2' },
    ])
  })

  it('keeps a copy of the result: what the caller changes later is not shown', () => {
    const store = new SlideCheckResults()
    const a = files('x')
    const result: SlideCheckResult = { ...RENDERED, notes: [] }
    store.record({ projectId: 'p', slideId: 's' }, { files: a, config }, result)
    result.notes.push('changed')
    expect(store.current('p', 's', a, config)?.notes).toEqual([])
  })
})

const emulatorWith = checkerEmulators()

/** An emulator with the web room's pages, as the Node entry builds one, and `checker` as its slide checker. */
async function served(checker: StandInChecker, options: { checkSlidesOnSave?: boolean } = {}) {
  const emulator = emulatorWith(checker, { rateLimit: 0, ...options }, WEB_MOUNTS)
  await emulator.ready()
  const text = async (path: string) => {
    const response = await emulator.fetch(`${ORIGIN}${path}`, { headers: { accept: 'text/html' } })
    expect(response.status, path).toBe(200)
    return response.text()
  }
  const api = async (method: string, path: string, json?: unknown) => {
    const response = await emulator.fetch(`${ORIGIN}/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${ALICE}`, 'content-type': 'application/json' },
      body: json === undefined ? undefined : JSON.stringify(json),
    })
    return { status: response.status, body: (await response.json()) as any }
  }
  const slideIds = (slug = 'welcome-deck') => slideIdsOf(emulator, slug)
  return { emulator, text, api, slideIds }
}

/** The editor page's badges: each thumbnail's slide id and its badge's status (undefined without one). */
function editorBadges(html: string): Map<string, string | undefined> {
  const strip = html.slice(html.indexOf('<nav id="thumbs"'), html.indexOf('</nav>', html.indexOf('<nav id="thumbs"')))
  const thumbs = strip.split('<button type="button" class="thumb').slice(1)
  return new Map(
    thumbs.map((thumb) => [/data-slide-id="([^"]+)"/.exec(thumb)![1]!, /data-testid="check-badge" data-status="([^"]+)"/.exec(thumb)?.[1]]),
  )
}

/** The dashboard's projects row of `slug`: its check cell. */
function dashboardChecks(html: string, slug: string): string {
  const row = html.split('<tr>').find((part) => part.includes(`<div class="muted mono">${slug}</div>`))
  expect(row, `a row for ${slug}`).toBeDefined()
  return /<td class="checks">([\s\S]*?)<\/td>/.exec(row!)![1]!
}

describe('badges through the emulator', () => {
  it('shows no badge before a check; the control plane’s check records each slide’s result, which the editor and the dashboard show; viewing never checks', async () => {
    const checker = new StandInChecker()
    const { emulator, text, api, slideIds } = await served(checker)
    const ids = await slideIds()
    await api('PUT', `/projects/welcome-deck/slides/${ids[1]}`, { files: { 'slide.tsx': 'export default () => <h1>BROKEN</h1>' } })

    const before = editorBadges(await text('/editor/welcome-deck'))
    expect([...before.keys()]).toEqual(ids)
    expect([...before.values()].every((status) => status === undefined)).toBe(true)
    expect(dashboardChecks(await text('/_emulator'), 'welcome-deck')).toContain('not checked')
    expect(checker.checks).toBe(0)

    const reply = await emulator.fetch(`${ORIGIN}/_emulator/projects/welcome-deck/slides/check`, { method: 'POST' })
    expect(reply.status).toBe(200)
    expect(checker.checks).toBe(ids.length)

    const html = await text('/editor/welcome-deck')
    const after = editorBadges(html)
    expect([...after.values()]).toEqual(ids.map((_, i) => (i === 1 ? 'error' : 'rendered')))
    // The error's kind, place and message are the badge's title and accessible name, escaped; the thumbnail's name says it too.
    const sentence = 'Last check: does not render. runtime error at slide.tsx:3:9: boom &amp; &lt;bust&gt;'
    expect(html).toContain(`aria-label="${sentence}" title="${sentence}"`)
    expect(html).toMatch(new RegExp(`aria-label="Slide 2: [^"]*\\. ${sentence.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"`))
    expect(html).toContain('<span class="check-mark">✓</span><span class="check-label">Renders</span>')

    const dashboard = dashboardChecks(await text('/_emulator'), 'welcome-deck')
    expect(dashboard).toContain(`${ids.length} of ${ids.length} slides checked: ${ids.length - 1} render, 1 does not`)
    expect(dashboard.match(/data-testid="check-badge"/g)).toHaveLength(ids.length)
    expect(dashboard).toContain(`aria-label="Slide 2: `)
    // Another project was not checked.
    expect(dashboardChecks(await text('/_emulator'), 'q3-business-review')).toContain('not checked')

    // A published site shows no badge: a check is for the people who edit the deck.
    const site = await text('/sites/welcome-deck.sites.localhost/')
    expect(site).toContain('class="thumb')
    expect(site).not.toContain('check-badge')

    // Viewing pages (the editor, its stage, the dashboard and its fragment) never asks for a check.
    const checks = checker.checks
    await text('/editor/welcome-deck')
    await text('/editor/welcome-deck/live')
    await text('/_emulator')
    await text('/_emulator/dashboard/fragment')
    await text('/editor/q3-business-review')
    expect(checker.checks).toBe(checks)
  })

  it('hides a slide’s badge once its files change, and every badge of the project once its config changes', async () => {
    const checker = new StandInChecker()
    const { emulator, text, api, slideIds } = await served(checker)
    const ids = await slideIds()
    await emulator.control.checkSlides('welcome-deck')
    const original = (await api('GET', `/projects/welcome-deck/slides/${ids[0]}/files`)).body.files as SlideFiles

    expect(
      (await api('PUT', `/projects/welcome-deck/slides/${ids[0]}`, { files: { 'slide.content.json': '{"edited":true}' } })).status,
    ).toBe(200)
    let badges = editorBadges(await text('/editor/welcome-deck'))
    expect(badges.get(ids[0]!)).toBeUndefined()
    expect(badges.get(ids[1]!)).toBe('rendered')
    // Back to the files it was checked with: the result is theirs again.
    await api('PUT', `/projects/welcome-deck/slides/${ids[0]}`, { files: original })
    expect(editorBadges(await text('/editor/welcome-deck')).get(ids[0]!)).toBe('rendered')

    const config = (await api('GET', '/projects/welcome-deck/config')).body.config
    const layout = config.layout === 'CARD' ? 'REGULAR' : 'CARD'
    expect((await api('PUT', '/projects/welcome-deck/config', { config: { layout } })).status).toBe(200)
    badges = editorBadges(await text('/editor/welcome-deck'))
    expect([...badges.values()].every((status) => status === undefined)).toBe(true)
    expect(dashboardChecks(await text('/_emulator'), 'welcome-deck')).toContain('not checked')
    expect(checker.checks).toBe(ids.length)
  })

  it('records checked saving’s result: a saved slide shows it, a refused save leaves the stored files’ badge', async () => {
    const checker = new StandInChecker()
    const { text, api, slideIds } = await served(checker, { checkSlidesOnSave: true })
    const [first] = await slideIds()
    const saved = await api('PUT', `/projects/welcome-deck/slides/${first}`, {
      files: { 'slide.tsx': 'export default () => <h1>Hello</h1>' },
    })
    expect(saved.status).toBe(200)
    expect(checker.checks).toBe(1)
    expect(editorBadges(await text('/editor/welcome-deck')).get(first!)).toBe('rendered')
    const refused = await api('PUT', `/projects/welcome-deck/slides/${first}`, {
      files: { 'slide.tsx': 'export default () => <h1>BROKEN</h1>' },
    })
    expect(refused.status).toBe(400)
    expect(editorBadges(await text('/editor/welcome-deck')).get(first!)).toBe('rendered')
    expect(checker.checks).toBe(2)
  })

  it('sends an open editor the badges as soon as a check records them, without a change of the world', async () => {
    const checker = new StandInChecker()
    const { emulator, slideIds } = await served(checker)
    const ids = await slideIds()
    const controller = new AbortController()
    const response = await emulator.fetch(`${ORIGIN}/editor/welcome-deck/events`, { signal: controller.signal })
    const reader = response.body!.getReader()
    const decoder = new TextDecoder()
    let buffer = ''
    /** The next `state` event's deck view. */
    const nextState = async (): Promise<{ slides: Array<{ id: string; thumb: string }> }> => {
      for (;;) {
        const match = /event: state\ndata: (.*)\n\n/.exec(buffer)
        if (match !== null) {
          buffer = buffer.slice(match.index + match[0].length)
          return JSON.parse(match[1]!)
        }
        const { value, done } = await reader.read()
        if (done) throw new Error('the stream ended')
        buffer += decoder.decode(value, { stream: true })
      }
    }
    try {
      const first = await nextState()
      expect(first.slides.some((slide) => slide.thumb.includes('check-badge'))).toBe(false)
      await emulator.control.checkSlides('welcome-deck', { slideIds: [ids[0]!] })
      const next = await nextState()
      expect(next.slides.map((slide) => slide.thumb.includes('data-testid="check-badge" data-status="rendered"'))).toEqual(
        ids.map((_, i) => i === 0),
      )
    } finally {
      controller.abort()
    }
  })

  it('records a slide the deck’s budget cut short when the checker answers, and nothing for slides not reached', async () => {
    const checker = new StandInChecker()
    let answer: (() => void) | undefined
    const held = new Promise<void>((resolve) => {
      answer = resolve
    })
    const check = checker.check.bind(checker)
    checker.check = async (input) => {
      await held
      return check(input)
    }
    const { emulator, text, slideIds } = await served(checker)
    const ids = await slideIds()
    const result = await emulator.control.checkSlides('welcome-deck', { slideIds: ids.slice(0, 2), budgetMs: 1 })
    expect(result.slides.map((slide) => slide.status)).toEqual(['timeout', 'timeout'])
    expect(editorBadges(await text('/editor/welcome-deck')).get(ids[0]!)).toBeUndefined()
    answer!()
    // The checker's own answer for the first slide is its result; the second was never asked for.
    await expect.poll(async () => editorBadges(await text('/editor/welcome-deck')).get(ids[0]!)).toBe('rendered')
    expect(editorBadges(await text('/editor/welcome-deck')).get(ids[1]!)).toBeUndefined()
    expect(checker.checks).toBe(1)
  })

  it('counts layout findings on the badge when a result carries them', async () => {
    const checker = new StandInChecker()
    checker.layout = [
      { code: 'outside-slide', message: 'an element reaches past the slide' },
      { code: 'text-too-small', message: 'text under 12 px' },
    ]
    const { emulator, text, slideIds } = await served(checker)
    const [first] = await slideIds()
    await emulator.control.checkSlides('welcome-deck', { slideIds: [first!], layout: true })
    const html = await text('/editor/welcome-deck')
    expect(html).toContain('data-testid="check-badge-layout" data-count="2">· 2 layout</span>')
    expect(html).toContain('title="Last check: renders. 2 layout findings"')
    expect(dashboardChecks(await text('/_emulator'), 'welcome-deck')).toMatch(/1 of \d+ slides checked: 1 renders, 2 layout findings/)
  })

  it('forgets every result on reset and on a state import, and exports none', async () => {
    const checker = new StandInChecker()
    const { emulator, text, slideIds } = await served(checker)
    const ids = await slideIds()
    await emulator.control.checkSlides('welcome-deck')
    const state = await emulator.control.getState()
    expect(JSON.stringify(state)).not.toContain('Last check')
    expect(Object.keys(state)).not.toContain('checks')

    await emulator.control.reset()
    expect([...editorBadges(await text('/editor/welcome-deck')).values()].every((status) => status === undefined)).toBe(true)

    await emulator.control.checkSlides('welcome-deck')
    expect(editorBadges(await text('/editor/welcome-deck')).get(ids[0]!)).toBe('rendered')
    await emulator.control.putState(state)
    expect([...editorBadges(await text('/editor/welcome-deck')).values()].every((status) => status === undefined)).toBe(true)
  })
})
