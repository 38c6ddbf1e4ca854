import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect } from 'vitest'
import { MAX_JSON_DEPTH } from '../../src/core/json-depth.js'
import { parseFixtures, BUILT_IN_FIXTURES } from '../../src/fixtures/load.js'
import { renderSlide } from '../../web/pages/html.js'
import { deckTheme } from '../../web/pages/theme.js'
import { expectError, harnessPerTest, type Harness } from '../support/harness.js'
import { ensureBuilt, it, tempDir } from '../support/cli.js'

/**
 * Issue 11, finding 1: a `slide.content.json` nested ~4,100 levels deep was
 * accepted, and from then on every page answered 500 (stack overflow). JSON
 * nested deeper than 64 levels is now refused at every door, and pages
 * never overflow on what is stored.
 */

const nested = (levels: number, inner = '') => `${'['.repeat(levels)}${inner}${']'.repeat(levels)}`
const contentNested = (levels: number) => `{"title":"Deep","blocks":${nested(levels - 1)}}`

async function firstSlide(h: Harness, slug = 'welcome-deck'): Promise<string> {
  const slides = await h.api('GET', `/projects/${slug}/slides`)
  return slides.body.slides[0].id as string
}

/** Every page of welcome-deck: editor, its live fragment, the published site. */
async function pageStatuses(h: Harness): Promise<number[]> {
  const project = await h.api('GET', '/projects/welcome-deck')
  const paths = [
    new URL(project.body.editorUrl).pathname,
    `${new URL(project.body.editorUrl).pathname}/live`,
    new URL(project.body.publishedUrl).pathname,
    '/_emulator',
  ]
  const origin = new URL(h.baseUrl).origin
  return Promise.all(paths.map(async (path) => (await h.emulator.fetch(`${origin}${path}`)).status))
}

describe('JSON nesting bound on slide files', () => {
  const h = harnessPerTest('fetch')

  it(`accepts slide.content.json nested exactly ${MAX_JSON_DEPTH} levels`, async () => {
    const slideId = await firstSlide(h)
    const reply = await h.api('PUT', `/projects/welcome-deck/slides/${slideId}`, {
      json: { files: { 'slide.content.json': contentNested(MAX_JSON_DEPTH) } },
    })
    expect(reply.status).toBe(200)
  })

  it('refuses slide.content.json one level deeper with a hint naming file, line and column, and stores nothing', async () => {
    const slideId = await firstSlide(h)
    const before = await h.control('GET', '/state')
    const reply = await h.api('PUT', `/projects/welcome-deck/slides/${slideId}`, {
      json: { files: { 'slide.content.json': contentNested(MAX_JSON_DEPTH + 1) } },
    })
    expectError(reply, 400, 'VALIDATION_ERROR')
    // `{"title":"Deep","blocks":` is 25 characters; the 64th `[` after it is the 65th level.
    expect(reply.body.hint).toBe(`slide.content.json:1:${25 + MAX_JSON_DEPTH}: Nested deeper than 64 levels of arrays and objects`)
    expect((await h.control('GET', '/state')).text).toBe(before.text)
  })

  it('refuses a deep slide.controls.json on update and on create, on any line', async () => {
    const slideId = await firstSlide(h)
    const controls = `{\n  "controls":\n${nested(100)}}`
    const update = await h.api('PUT', `/projects/welcome-deck/slides/${slideId}`, { json: { files: { 'slide.controls.json': controls } } })
    expectError(update, 400, 'VALIDATION_ERROR')
    expect(update.body.hint).toBe('slide.controls.json:3:64: Nested deeper than 64 levels of arrays and objects')
    const create = await h.api('POST', '/projects/welcome-deck/slides', { json: { files: { 'slide.content.json': nested(5000) } } })
    expectError(create, 400, 'VALIDATION_ERROR')
    expect(create.body.hint).toMatch(/^slide\.content\.json:1:65: Nested deeper/)
  })

  it('brackets inside strings do not count', async () => {
    const slideId = await firstSlide(h)
    const content = JSON.stringify({ title: '['.repeat(500), blocks: [{ type: 'text', text: '{'.repeat(500) }] })
    const reply = await h.api('PUT', `/projects/welcome-deck/slides/${slideId}`, { json: { files: { 'slide.content.json': content } } })
    expect(reply.status).toBe(200)
  })

  it('after the 4,100-level and 100,000-level attempts of the report, the editor, its live fragment, the published site and the dashboard answer 200', async () => {
    const slideId = await firstSlide(h)
    for (const levels of [4_100, 100_000]) {
      for (const file of ['slide.content.json', 'slide.controls.json']) {
        const reply = await h.api('PUT', `/projects/welcome-deck/slides/${slideId}`, { json: { files: { [file]: contentNested(levels) } } })
        expectError(reply, 400, 'VALIDATION_ERROR')
      }
    }
    expect(await h.api('POST', '/projects/welcome-deck/publish')).toMatchObject({ status: 200 })
    expect(await pageStatuses(h)).toEqual([200, 200, 200, 200])
  })

  it('refuses a request body nested deeper than the bound, whatever the operation', async () => {
    const reply = await h.api('POST', '/projects', { raw: `{"name":"x","extra":${nested(10_000)}}` })
    expectError(reply, 400, 'VALIDATION_ERROR')
    expect(reply.body.hint).toMatch(/nested deeper than 64 levels/)
  })
})

describe('JSON nesting bound on state documents', () => {
  const h = harnessPerTest('fetch')

  it('PUT /_emulator/state refuses a slide, a template slide or a published snapshot with a deep file, and changes nothing', async () => {
    const state = (await h.control('GET', '/state')).body
    const deep = contentNested(4_100)
    const variants = [
      (doc: any) => (doc.slides[0].files['slide.content.json'] = deep),
      (doc: any) => (doc.slides[1].files['slide.controls.json'] = deep),
      (doc: any) => (doc.templates[0].slides[0].files['slide.content.json'] = deep),
      (doc: any) => (doc.publications[0].slides[0].files['slide.content.json'] = deep),
    ]
    const before = (await h.control('GET', '/state')).text
    for (const change of variants) {
      const doc = structuredClone(state)
      change(doc)
      const reply = await h.control('PUT', '/state', { json: doc })
      expectError(reply, 400, 'VALIDATION_ERROR')
      expect(reply.body.hint).toMatch(/files\.?\[?"slide\.(content|controls)\.json"\]?: 1:\d+: nested deeper than 64 levels/)
      expect((await h.control('GET', '/state')).text).toBe(before)
    }
    expect(await pageStatuses(h)).toEqual([200, 200, 200, 200])
  })

  it('control.putState refuses a document nested deeper than the bound without overflowing', async () => {
    let deep: unknown = []
    for (let i = 0; i < 100_000; i++) deep = [deep]
    const state = await h.emulator.control.getState()
    await expect(h.emulator.control.putState({ ...state, users: deep })).rejects.toMatchObject({
      status: 400,
      hint: expect.stringMatching(/users(\[0\])+: nested deeper than 64 levels/),
    })
  })
})

describe('JSON nesting bound on fixtures and state files given to the CLI', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>
  beforeAll(async () => {
    await ensureBuilt()
    dir = await tempDir('presentation-emulator-depth-')
  })
  afterAll(() => dir?.remove())

  it('parseFixtures (createEmulator({ fixtures }) and --fixtures) refuses a document nested deeper than the bound', () => {
    let deep: unknown = 'x'
    for (let i = 0; i < 50_000; i++) deep = { a: deep }
    expect(() => parseFixtures({ ...BUILT_IN_FIXTURES, extra: deep })).toThrow(/extra(\.a)+: nested deeper than 64 levels/)
  })

  it('--fixtures with a deep document exits 1 with a message; --state with a deep slide exits 1 and leaves the file as it was', async ({
    cli,
  }) => {
    const fixtures = join(dir.path, 'fixtures.json')
    await writeFile(fixtures, `{"format":"presentation-emulator/fixtures@1","users":${nested(20_000)}}`)
    const bad = await cli.run(['--fixtures', fixtures, '--port', '0'])
    expect(bad.code).toBe(1)
    expect(bad.stderr).toMatch(/fixtures\.json is not a valid fixtures document: users(\[0\])+: nested deeper than 64 levels/)

    const { Emulator } = await import('../../src/emulator.js')
    const emulator = new Emulator({ clock: 'manual' })
    await emulator.ready()
    const doc = await emulator.control.getState()
    emulator.close()
    doc.slides[0]!.files['slide.content.json'] = contentNested(4_100)
    const state = join(dir.path, 'state.json')
    const text = JSON.stringify(doc)
    await writeFile(state, text)
    const refused = await cli.run(['--state', state, '--port', '0'])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(/cannot be loaded: .*slide\.content\.json.*nested deeper than 64 levels/)
    const { readFile } = await import('node:fs/promises')
    expect(await readFile(state, 'utf8')).toBe(text)
  })
})

describe('pages render what is stored, whatever its depth', () => {
  it('renderSlide shows a notice instead of overflowing on content nested 100,000 levels deep', () => {
    const context = { theme: deckTheme({}), images: { allowRemote: false, origin: 'http://127.0.0.1:4010' }, accentClass: () => 'accent' }
    const html = renderSlide({ 'slide.tsx': '', 'slide.content.json': nested(100_000), 'slide.controls.json': '{}' }, context)
    expect(html).toContain('nested deeper than 64 levels and is not shown')
  })
})
