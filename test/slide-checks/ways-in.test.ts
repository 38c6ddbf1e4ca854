/**
 * Slide checks (issue 32) through the real composition (`createEmulator`,
 * whose slide checker the web room provides): the files extension, the
 * control plane over HTTP, `emulator.control.checkSlides` and checked
 * saving, on one deck with a good slide, one that throws, an unknown
 * import, an endless loop, an oversized one and one that grows past the
 * checker's memory ceiling (the Node engine, which `createEmulator` checks
 * with, ends its process: `crashed`). The process tier: the checker starts
 * a renderer process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEmulator, type PresentationEmulator } from '../../src/index.js'
import type { DeckCheckResult } from '../../src/model/slide-checks.js'

const ALICE = 'pres_test_alice'
const ORIGIN = 'http://127.0.0.1:4010'

const DECK = {
  good: 'export default function Good() {\n  return <section className="slide"><h1>Hello</h1><p>World</p></section>\n}\n',
  throws: 'export default function Throws() {\n  const missing: any = undefined\n  return <h1>{missing.name}</h1>\n}\n',
  unknownImport: 'import pad from "left-pad"\nexport default function Padded() {\n  return <h1>{pad("a", 3)}</h1>\n}\n',
  loop: 'export default function Loop() {\n  while (true) {}\n}\n',
  oversized: 'export default function Big() {\n  return <div>{Array.from({ length: 200000 }, (_, i) => <span key={i}>x</span>)}</div>\n}\n',
  crash:
    'export default function Hog() {\n  const all: number[][] = []\n  for (let i = 0; ; i++) all.push(new Array(1_000_000).fill(i + 0.5))\n}\n',
}
type Name = keyof typeof DECK

async function api(emulator: PresentationEmulator, method: string, path: string, json?: unknown) {
  const response = await emulator.fetch(`${ORIGIN}/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${ALICE}`, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
    body: json === undefined ? undefined : JSON.stringify(json),
  })
  return { status: response.status, code: response.headers.get('x-service-error-code'), body: (await response.json()) as any }
}

/** A new project holding the deck, in the order of `DECK`; its slug and the slide ids by name. */
async function deck(emulator: PresentationEmulator, names: readonly Name[]) {
  const created = await api(emulator, 'POST', '/projects', { name: 'Checked deck' })
  const slug: string = created.body.projectSlug
  const ids = {} as Record<Name, string>
  for (const name of names) {
    const slide = await api(emulator, 'POST', `/projects/${slug}/slides`, { name, files: { 'slide.tsx': DECK[name] } })
    expect(slide.status).toBe(200)
    ids[name] = slide.body.slideId
  }
  return { slug, ids }
}

/** The statuses and error kinds a check reports, and where the error is, by slide name. */
function expectDeck(result: DeckCheckResult, ids: Record<string, string>) {
  const byId = new Map(result.slides.map((slide) => [slide.slideId, slide]))
  const get = (name: Name) => byId.get(ids[name]!)!
  expect(get('good')).toMatchObject({ status: 'rendered', text: 'Hello World', elements: 3, notes: [] })
  expect(get('good').error).toBeUndefined()
  expect(get('throws')).toMatchObject({ status: 'error', error: { kind: 'runtime', file: 'slide.tsx', line: 3 } })
  expect(get('throws').error!.message).toMatch(/name/)
  expect(get('throws').error!.column).toBeGreaterThanOrEqual(1)
  expect(get('unknownImport')).toMatchObject({ status: 'error', error: { kind: 'import', file: 'slide.tsx', line: 1, column: 1 } })
  expect(get('unknownImport').error!.message).toMatch(/left-pad/)
  expect(get('loop')).toMatchObject({ status: 'timeout', error: { kind: 'timeout', file: 'slide.tsx' } })
  expect(get('oversized')).toMatchObject({ status: 'too-large', error: { kind: 'too-large', file: 'slide.tsx' } })
  expect(get('crash')).toMatchObject({ status: 'crashed', error: { kind: 'crashed', file: 'slide.tsx' } })
  expect(get('crash').error!.message).toMatch(/memory ceiling/)
  for (const name of ['throws', 'unknownImport', 'loop', 'oversized', 'crash'] as const)
    expect([get(name).text, get(name).elements]).toEqual(['', 0])
  expect([result.rendered, result.failed]).toEqual([1, 5])
}

describe('checking a deck through every way in (the real checker)', () => {
  let emulator: PresentationEmulator
  let slug: string
  let ids: Record<Name, string>

  beforeAll(async () => {
    emulator = createEmulator({ clock: 'manual' })
    await emulator.ready()
    ;({ slug, ids } = await deck(emulator, Object.keys(DECK) as Name[]))
  })
  afterAll(() => emulator.close())

  it('emulator.control.checkSlides reports each slide in deck order, with progress', async () => {
    const progress: number[] = []
    const result = await emulator.control.checkSlides(slug, { onProgress: (done, total) => progress.push(done / total) })
    expect(result.project).toBe(slug)
    expect(result.slides.map((slide) => [slide.slideId, slide.position])).toEqual(Object.values(ids).map((id, i) => [id, i + 1]))
    expect(progress).toEqual([1, 2, 3, 4, 5, 6].map((done) => done / 6))
    expectDeck(result, ids)
  })

  it('the control plane over HTTP answers the same JSON for the slides asked for', async () => {
    const response = await emulator.fetch(`${ORIGIN}/_emulator/projects/${slug}/slides/check`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ slideIds: [ids.oversized, ids.crash, ids.good, ids.throws, ids.unknownImport, ids.loop] }),
    })
    expect(response.status).toBe(200)
    const result = (await response.json()) as DeckCheckResult
    expect(result.slides.map((slide) => slide.slideId)).toEqual(Object.values(ids))
    expectDeck(result, ids)
  })

  it('the files extension answers what the checker read, and the emulator keeps answering during a hostile check', async () => {
    const files = await api(emulator, 'GET', `/projects/${slug}/slides/${ids.throws}/files`)
    expect(files.status).toBe(200)
    expect(files.body.files['slide.tsx']).toBe(DECK.throws)
    const checking = emulator.control.checkSlides(slug, { slideIds: [ids.loop] })
    // While the loop holds the checker for its 2 s, the API answers (the world's lock is not held).
    const during = await api(emulator, 'GET', `/projects/${slug}/slides`)
    expect(during.status).toBe(200)
    let settled = false
    void checking.then(() => (settled = true))
    await Promise.resolve()
    expect(settled).toBe(false)
    expect((await checking).slides[0]!.status).toBe('timeout')
  })
})

describe('checked saving (the real checker)', () => {
  let emulator: PresentationEmulator
  let slug: string
  let ids: Record<Name, string>

  beforeAll(async () => {
    emulator = createEmulator({ clock: 'manual', checkSlidesOnSave: true })
    await emulator.ready()
    ;({ slug, ids } = await deck(emulator, ['good']))
  })
  afterAll(() => emulator.close())

  const filesOf = async (slideId: string) => (await api(emulator, 'GET', `/projects/${slug}/slides/${slideId}/files`)).body.files

  it.each([
    ['throws', /^slide\.tsx:3:\d+: .*name.* \(runtime; nothing was saved\)$/],
    ['unknownImport', /^slide\.tsx:1:1: .*left-pad.* \(import; nothing was saved\)$/],
    ['loop', /^slide\.tsx: The component did not finish within 2 s.* \(timeout; nothing was saved\)$/],
    ['oversized', /^slide\.tsx: .* \(too-large; nothing was saved\)$/],
  ] as const)('refuses a %s slide with 400 SLIDE_DOES_NOT_RENDER, saving nothing', async (name, hint) => {
    const before = await filesOf(ids.good)
    const version = (await api(emulator, 'GET', `/projects/${slug}`)).body.latestVersion
    const reply = await api(emulator, 'PUT', `/projects/${slug}/slides/${ids.good}`, { files: { 'slide.tsx': DECK[name] } })
    expect([reply.status, reply.code, reply.body.error]).toEqual([400, 'SLIDE_DOES_NOT_RENDER', 'Slide does not render'])
    expect(reply.body.hint).toMatch(hint)
    expect(await filesOf(ids.good)).toEqual(before)
    expect((await api(emulator, 'GET', `/projects/${slug}`)).body.latestVersion).toEqual(version)
  })

  it('answers a slide that crashes the checker with 503 SLIDE_CHECKER_UNAVAILABLE, saving nothing, and checks the next save afresh', async () => {
    const before = await filesOf(ids.good)
    const reply = await api(emulator, 'PUT', `/projects/${slug}/slides/${ids.good}`, { files: { 'slide.tsx': DECK.crash } })
    expect([reply.status, reply.code, reply.body.error]).toEqual([503, 'SLIDE_CHECKER_UNAVAILABLE', 'Slide checker unavailable'])
    expect(reply.body.hint).toMatch(/^the slide checker stopped while checking the slide \(.*memory ceiling.*\); nothing was saved$/)
    expect(await filesOf(ids.good)).toEqual(before)
    const next = await api(emulator, 'PUT', `/projects/${slug}/slides/${ids.good}`, { files: { 'slide.tsx': DECK.throws } })
    expect([next.status, next.code]).toEqual([400, 'SLIDE_DOES_NOT_RENDER'])
  })

  it('checks the stored files merged with those sent: content that breaks the stored component is refused', async () => {
    const reads =
      'import content from "./slide.content.json"\nexport default function Title() {\n  return <h1>{content.title.toUpperCase()}</h1>\n}\n'
    const saved = await api(emulator, 'PUT', `/projects/${slug}/slides/${ids.good}`, {
      files: { 'slide.tsx': reads, 'slide.content.json': '{"title":"Fine","blocks":[]}' },
    })
    expect(saved.status).toBe(200)
    // Only the content is sent; the stored component reads a title it no longer has.
    const broken = await api(emulator, 'PUT', `/projects/${slug}/slides/${ids.good}`, { files: { 'slide.content.json': '{"blocks":[]}' } })
    expect([broken.status, broken.code]).toEqual([400, 'SLIDE_DOES_NOT_RENDER'])
    expect(broken.body.hint).toMatch(/^slide\.tsx:3:\d+: /)
    expect((await filesOf(ids.good))['slide.content.json']).toBe('{"title":"Fine","blocks":[]}')
  })

  it('saves a slide that renders, and still answers a file that does not parse with 400 VALIDATION_ERROR', async () => {
    const saved = await api(emulator, 'PUT', `/projects/${slug}/slides/${ids.good}`, { files: { 'slide.tsx': DECK.good } })
    expect(saved.status).toBe(200)
    expect((await filesOf(ids.good))['slide.tsx']).toBe(DECK.good)
    const invalid = await api(emulator, 'PUT', `/projects/${slug}/slides/${ids.good}`, {
      files: { 'slide.tsx': 'export default function S() {\n  return <div>\n}\n' },
    })
    expect([invalid.status, invalid.code]).toEqual([400, 'VALIDATION_ERROR'])
  })
})
