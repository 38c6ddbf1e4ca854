import { describe, expect, it } from 'vitest'
import { blankSlideFiles, SLIDE_DESIGNS } from '../../src/content/slides.js'
import {
  CreateSlideResponse,
  DuplicateProjectResponse,
  FONT_TOKEN_NAME,
  HEX_COLOR,
  ListSlidesResponse,
  PALETTE_TOKEN_NAME,
  ProjectDetail,
  SlideFilesResponse,
  SlideGuideResponse,
  SuccessResponse,
  UpdateSlideResponse,
  type SlideFiles,
} from '../../src/schemas/index.js'
import { expectError, expectSchema, harnessPerTest, WAYS } from '../support/harness.js'
import { worldOf } from '../support/state.js'

const ALICE = 'pres_test_alice'
const ACME = 'pres_test_alice_acme'
const BOB = 'pres_test_bob'

/** A valid component, different from every fixture one. */
const VALID_TSX = `import content from "./slide.content.json";

export default function Agenda() {
  return <section className="slide"><h1>{content.title}</h1></section>;
}
`
const VALID_CONTENT = `${JSON.stringify({ title: 'Agenda', blocks: [{ type: 'bullets', items: ['One', 'Two'] }] }, null, 2)}\n`
const VALID_CONTROLS = `${JSON.stringify({ controls: [{ id: 'accent', type: 'color', label: 'Accent', default: '#ff0000' }] }, null, 2)}\n`

/** A component with a syntax error on line 3: `margin` starts at column 18. */
const TSX_SYNTAX_ERROR = `export default function Slide() {
  const style = {
    color: "red" margin: 0 };
  return <h1 style={style}>Hi</h1>;
}
`

describe.each(WAYS)('slides (%s)', (way) => {
  const h = harnessPerTest(way)

  /** The world as the control plane shows it. */
  const world = () => worldOf(h.emulator)
  /** The whole state of the world, to prove a request changed nothing. */
  const snapshot = async () => (await world()).recordsText()
  const storedSlides = async (slug: string) => {
    const view = await world()
    return view.slidesOf(view.projectBySlug(slug)!.id)
  }
  const storedSlide = async (slideId: string) => (await world()).doc.slides.find((slide) => slide.id === slideId)!
  const storedFiles = async (slideId: string): Promise<SlideFiles> => ({ ...(await storedSlide(slideId)).files })

  async function listSlides(slug: string, key = ALICE) {
    const reply = await h.api('GET', `/projects/${slug}/slides`, { key })
    expect(reply.status).toBe(200)
    return expectSchema(ListSlidesResponse, reply.body).slides
  }

  async function detail(slug: string, key = ALICE) {
    const reply = await h.api('GET', `/projects/${slug}`, { key })
    expect(reply.status).toBe(200)
    return expectSchema(ProjectDetail, reply.body)
  }

  /** An emulator page (outside /v1), fetched the same way as the API. */
  async function page(path: string): Promise<{ status: number; text: string }> {
    const url = `${new URL(h.baseUrl).origin}${path}`
    const response = await (way === 'fetch' ? h.emulator.fetch : globalThis.fetch)(url)
    return { status: response.status, text: await response.text() }
  }

  /** The editor's live fragment for one slide (its `<article>`). */
  async function editorFrame(slug: string, slideId: string): Promise<string> {
    const live = await page(`/editor/${slug}/live`)
    expect(live.status).toBe(200)
    const match = new RegExp(`<article class="slide-frame" data-slide-id="${slideId}">[\\s\\S]*?</article>`).exec(live.text)
    expect(match, `slide ${slideId} is not on the editor page`).not.toBeNull()
    return match![0]
  }

  describe('listing', () => {
    it('lists a project’s slides as {id, name} in presentation order', async () => {
      const slides = await listSlides('welcome-deck')
      const stored = await storedSlides('welcome-deck')
      expect(stored.length).toBeGreaterThan(1)
      expect(slides).toEqual(stored.map((slide) => ({ id: slide.id, name: slide.name })))
      expect(stored.map((slide) => slide.position)).toEqual([...stored.map((slide) => slide.position)].sort((a, b) => a - b))
      expect(slides.every((slide) => Object.keys(slide).sort().join() === 'id,name')).toBe(true)
    })

    it('lists the slides of a project shared with the caller and of a team project', async () => {
      expect(await listSlides('bobs-roadmap', ALICE)).toHaveLength((await storedSlides('bobs-roadmap')).length)
      expect(await listSlides('q3-business-review', ACME)).toHaveLength((await storedSlides('q3-business-review')).length)
    })

    it('answers 404 for an unknown project and for a project the key cannot access', async () => {
      const missing = await h.api('GET', '/projects/no-such-deck/slides')
      const alices = await h.api('GET', '/projects/welcome-deck/slides', { key: BOB })
      const acmes = await h.api('GET', '/projects/q3-business-review/slides', { key: BOB })
      for (const reply of [missing, alices, acmes]) {
        expectError(reply, 404, 'NOT_FOUND')
        expect(reply.body.error).toBe('Project not found')
      }
    })
  })

  describe('updating source files', () => {
    it('changes only the file sent, keeps the others byte-identical and answers all three files', async () => {
      const [first] = await storedSlides('welcome-deck')
      const before = await storedFiles(first!.id)
      const reply = await h.api('PUT', `/projects/welcome-deck/slides/${first!.id}`, {
        json: { files: { 'slide.content.json': VALID_CONTENT } },
      })
      expect(reply.status).toBe(200)
      const body = expectSchema(UpdateSlideResponse, reply.body)
      expect(body.slideId).toBe(first!.id)
      expect(body.files).toStrictEqual({ ...before, 'slide.content.json': VALID_CONTENT })
      expect(body.files['slide.tsx']).toBe(before['slide.tsx'])
      expect(body.files['slide.controls.json']).toBe(before['slide.controls.json'])
      expect(await storedFiles(first!.id)).toStrictEqual(body.files)
    })

    it('replaces all three files when all three are sent', async () => {
      const [, second] = await storedSlides('welcome-deck')
      const files = { 'slide.tsx': VALID_TSX, 'slide.content.json': VALID_CONTENT, 'slide.controls.json': VALID_CONTROLS }
      const reply = await h.api('PUT', `/projects/welcome-deck/slides/${second!.id}`, { json: { files } })
      expect(reply.status).toBe(200)
      expect(reply.body.files).toStrictEqual(files)
      expect(await storedFiles(second!.id)).toStrictEqual(files)
    })

    it('keeps text byte for byte: CRLF line endings, non-ASCII text and trailing whitespace survive', async () => {
      const [first] = await storedSlides('welcome-deck')
      const content = '{\r\n  "title": "Grüße — 🎉",\r\n  "blocks": []\r\n}  \r\n'
      const reply = await h.api('PUT', `/projects/welcome-deck/slides/${first!.id}`, { json: { files: { 'slide.content.json': content } } })
      expect(reply.status).toBe(200)
      expect(reply.body.files['slide.content.json']).toBe(content)
      expect((await storedFiles(first!.id))['slide.content.json']).toBe(content)
    })

    it('creates a project version on every update: latestVersion follows and updatedAt moves', async () => {
      const [first] = await storedSlides('welcome-deck')
      const before = await detail('welcome-deck')
      await h.emulator.control.advanceClock({ ms: 60_000 })
      const one = await h.api('PUT', `/projects/welcome-deck/slides/${first!.id}`, {
        json: { files: { 'slide.content.json': VALID_CONTENT } },
      })
      const afterOne = await detail('welcome-deck')
      expect(one.body.versionId).not.toBe(before.latestVersion!.id)
      expect(afterOne.latestVersion!.id).toBe(one.body.versionId)
      expect(afterOne.updatedAt > before.updatedAt).toBe(true)
      expect(afterOne.latestVersion!.createdAt).toBe(afterOne.updatedAt)
      expect((await storedSlide(first!.id)).updatedAt).toBe(afterOne.updatedAt)

      // The same content again is still an update, with a version of its own.
      await h.emulator.control.advanceClock({ ms: 1000 })
      const two = await h.api('PUT', `/projects/welcome-deck/slides/${first!.id}`, {
        json: { files: { 'slide.content.json': VALID_CONTENT } },
      })
      const afterTwo = await detail('welcome-deck')
      expect(two.body.versionId).not.toBe(one.body.versionId)
      expect(afterTwo.latestVersion!.id).toBe(two.body.versionId)
      expect(afterTwo.updatedAt > afterOne.updatedAt).toBe(true)
    })

    it('shows the new content on the editor page', async () => {
      const [first] = await storedSlides('welcome-deck')
      await h.api('PUT', `/projects/welcome-deck/slides/${first!.id}`, { json: { files: { 'slide.content.json': VALID_CONTENT } } })
      const frame = await editorFrame('welcome-deck', first!.id)
      expect(frame).toContain('<h1>Agenda</h1>')
      expect(frame).toContain('<li>Two</li>')
    })

    it('lets a collaborator update a slide of a project shared with them', async () => {
      const [first] = await storedSlides('bobs-roadmap')
      const reply = await h.api('PUT', `/projects/bobs-roadmap/slides/${first!.id}`, {
        key: ALICE,
        json: { files: { 'slide.tsx': VALID_TSX } },
      })
      expect(reply.status).toBe(200)
      expect((await storedFiles(first!.id))['slide.tsx']).toBe(VALID_TSX)
    })
  })

  describe('validation before saving', () => {
    it.each([
      ['a TSX syntax error, at its line and column', { 'slide.tsx': TSX_SYNTAX_ERROR }, 'slide.tsx:3:18: Unexpected token, expected ","'],
      [
        'a component without a default export',
        { 'slide.tsx': 'export function Slide() {\n  return <div />;\n}\n' },
        'slide.tsx:1:1: No default export; export the slide component with `export default function Slide() {…}` or `export { Slide as default }`',
      ],
      [
        'unclosed JSX',
        { 'slide.tsx': 'export default function Slide() {\n  return <div>;\n}\n' },
        'slide.tsx:2:15: Unterminated JSX contents.',
      ],
      [
        'invalid JSON in slide.content.json',
        { 'slide.content.json': '{\n  "title": "Agenda",\n  "blocks": [,]\n}\n' },
        `slide.content.json:3:14: Expected a JSON value, found ','`,
      ],
      [
        'a trailing comma in slide.content.json',
        { 'slide.content.json': '{\n  "title": "Agenda",\n}\n' },
        `slide.content.json:3:1: Expected a property name in double quotes, found '}' (JSON allows no trailing comma)`,
      ],
      [
        'slide.content.json that is a JSON string',
        { 'slide.content.json': '"just text"' },
        'slide.content.json:1:1: Expected a JSON object or array at the top level, got a string',
      ],
      [
        'an empty slide.content.json',
        { 'slide.content.json': '' },
        'slide.content.json:1:1: Expected a JSON value, found the end of the input',
      ],
      [
        'invalid JSON in slide.controls.json',
        { 'slide.controls.json': '{\n  "controls": [\n    { id: "accent" }\n  ]\n}\n' },
        `slide.controls.json:3:7: Unexpected word 'id', expected a property name in double quotes`,
      ],
      [
        'slide.controls.json that is a JSON number',
        { 'slide.controls.json': '\n 7\n' },
        'slide.controls.json:2:2: Expected a JSON object or array at the top level, got a number',
      ],
      [
        'one invalid file among valid ones (all or nothing)',
        { 'slide.tsx': VALID_TSX, 'slide.content.json': VALID_CONTENT, 'slide.controls.json': '[' },
        `slide.controls.json:1:2: Expected ']' to close the array, found the end of the input`,
      ],
      [
        'several invalid files, each named with its first problem',
        { 'slide.tsx': TSX_SYNTAX_ERROR, 'slide.content.json': '"x"', 'slide.controls.json': VALID_CONTROLS },
        'slide.tsx:3:18: Unexpected token, expected ","; slide.content.json:1:1: Expected a JSON object or array at the top level, got a string',
      ],
    ])('rejects %s with a 400 naming the file and position, changing nothing', async (_, files, hint) => {
      const [first] = await storedSlides('welcome-deck')
      const filesBefore = await storedFiles(first!.id)
      const projectBefore = await detail('welcome-deck')
      const state = await snapshot()
      await h.emulator.control.advanceClock({ ms: 1000 })
      const reply = await h.api('PUT', `/projects/welcome-deck/slides/${first!.id}`, { json: { files } })
      expectError(reply, 400, 'VALIDATION_ERROR')
      expect(reply.body.hint).toBe(hint)
      expect(await storedFiles(first!.id)).toStrictEqual(filesBefore)
      const projectAfter = await detail('welcome-deck')
      expect(projectAfter.latestVersion).toEqual(projectBefore.latestVersion)
      expect(projectAfter.updatedAt).toBe(projectBefore.updatedAt)
      expect(await snapshot()).toBe(state)
    })

    it.each([
      ['an empty files object', { files: {} }, /at least one of slide\.tsx, slide\.content\.json, slide\.controls\.json/],
      ['an unknown file key', { files: { 'slide.css': 'h1{}' } }, /unknown key "slide\.css"/],
      [
        'an unknown file key next to a valid one',
        { files: { 'slide.tsx': VALID_TSX, 'Slide.tsx': VALID_TSX } },
        /unknown key "Slide\.tsx"/,
      ],
      [
        'a non-string file value',
        { files: { 'slide.content.json': { title: 'x', blocks: [] } } },
        /slide\.content\.json.*must be a string, got an object/,
      ],
      ['a null file value', { files: { 'slide.tsx': null } }, /slide\.tsx.*must be a string, got null/],
      ['a body without files', {}, /^files: is required$/],
      ['files that is not an object', { files: 'slide.tsx' }, /^files: must be an object, got a string$/],
      ['an unknown top-level key', { files: { 'slide.tsx': VALID_TSX }, slideId: 'x' }, /unknown key "slideId"/],
    ])('rejects a request body with %s, changing nothing', async (_, body, hint) => {
      const [first] = await storedSlides('welcome-deck')
      const state = await snapshot()
      const reply = await h.api('PUT', `/projects/welcome-deck/slides/${first!.id}`, { json: body })
      expectError(reply, 400, 'VALIDATION_ERROR')
      expect(reply.body.hint).toMatch(hint)
      expect(await snapshot()).toBe(state)
    })

    it('rejects an update without a body and with a body that is not JSON', async () => {
      const [first] = await storedSlides('welcome-deck')
      const state = await snapshot()
      expectError(await h.api('PUT', `/projects/welcome-deck/slides/${first!.id}`), 400, 'VALIDATION_ERROR')
      const malformed = await h.api('PUT', `/projects/welcome-deck/slides/${first!.id}`, { raw: '{"files": {' })
      expectError(malformed, 400, 'VALIDATION_ERROR')
      expect(malformed.body.hint).toMatch(/not valid JSON/)
      expect(await snapshot()).toBe(state)
    })
  })

  describe('reachability', () => {
    it('does not reach a slide of one project through another project’s slug, even one the key can access', async () => {
      const [foreign] = await storedSlides('welcome-deck')
      const filesBefore = await storedFiles(foreign!.id)
      const state = await snapshot()
      const update = await h.api('PUT', `/projects/bobs-roadmap/slides/${foreign!.id}`, { json: { files: { 'slide.tsx': VALID_TSX } } })
      const start = await h.api('POST', `/projects/bobs-roadmap/slides/${foreign!.id}/editing`, { json: { agentName: 'x' } })
      const stop = await h.api('DELETE', `/projects/bobs-roadmap/slides/${foreign!.id}/editing`)
      for (const reply of [update, start, stop]) {
        expectError(reply, 404, 'NOT_FOUND')
        expect(reply.body.error).toBe('Slide not found')
      }
      expect(await storedFiles(foreign!.id)).toStrictEqual(filesBefore)
      expect((await storedSlide(foreign!.id)).editing).toBeNull()
      expect(await snapshot()).toBe(state)
      // The same slide through its own project works.
      expect((await h.api('POST', `/projects/welcome-deck/slides/${foreign!.id}/editing`, { json: {} })).status).toBe(200)
    })

    it('answers 404 for an unknown slide id, before looking at the files', async () => {
      const state = await snapshot()
      const update = await h.api('PUT', '/projects/welcome-deck/slides/sld_nope', { json: { files: { 'slide.tsx': 'not valid' } } })
      expectError(update, 404, 'NOT_FOUND')
      expect(update.body.error).toBe('Slide not found')
      expectError(await h.api('POST', '/projects/welcome-deck/slides/sld_nope/editing', { json: {} }), 404, 'NOT_FOUND')
      expectError(await h.api('DELETE', '/projects/welcome-deck/slides/sld_nope/editing'), 404, 'NOT_FOUND')
      expect(await snapshot()).toBe(state)
    })

    it('answers 404 to Bob for every slide operation on Alice’s project and on Acme’s, changing nothing', async () => {
      for (const slug of ['welcome-deck', 'q3-business-review']) {
        const [slide] = await storedSlides(slug)
        const state = await snapshot()
        const replies = [
          await h.api('GET', `/projects/${slug}/slides`, { key: BOB }),
          await h.api('POST', `/projects/${slug}/slides`, { key: BOB, json: {} }),
          await h.api('GET', `/projects/${slug}/slides/guide`, { key: BOB }),
          await h.api('GET', `/projects/${slug}/slides/${slide!.id}/files`, { key: BOB }),
          await h.api('PUT', `/projects/${slug}/slides/${slide!.id}`, { key: BOB, json: { files: { 'slide.tsx': VALID_TSX } } }),
          await h.api('POST', `/projects/${slug}/slides/${slide!.id}/editing`, { key: BOB, json: { agentName: 'Bob' } }),
          await h.api('DELETE', `/projects/${slug}/slides/${slide!.id}/editing`, { key: BOB }),
        ]
        for (const reply of replies) {
          expectError(reply, 404, 'NOT_FOUND')
          expect(reply.body.error).toBe('Project not found')
        }
        expect(await snapshot()).toBe(state)
      }
    })

    it('reports an inaccessible project with invalid files as 404, not 400', async () => {
      const [slide] = await storedSlides('welcome-deck')
      const reply = await h.api('PUT', `/projects/welcome-deck/slides/${slide!.id}`, { key: BOB, json: { files: { 'slide.tsx': 'nope' } } })
      expectError(reply, 404, 'NOT_FOUND')
    })
  })

  describe('editing indicator', () => {
    it('turns the indicator on with who and what, shows it in the editor, and turns it off again', async () => {
      const [first, second] = await storedSlides('welcome-deck')
      const projectBefore = await detail('welcome-deck')
      await h.emulator.control.advanceClock({ ms: 5000 })
      const now = h.emulator.control.clock().now

      const on = await h.api('POST', `/projects/welcome-deck/slides/${first!.id}/editing`, {
        json: { agentName: 'Claude', editPrompt: 'Tighten the title & <bullets>' },
      })
      expect(on.status).toBe(200)
      expect(expectSchema(SuccessResponse, on.body)).toStrictEqual({ success: true })
      expect((await storedSlide(first!.id)).editing).toStrictEqual({
        agentName: 'Claude',
        editPrompt: 'Tighten the title & <bullets>',
        since: now,
      })

      const frame = await editorFrame('welcome-deck', first!.id)
      expect(frame).toContain('data-testid="editing-indicator"')
      expect(frame).toContain('Claude is editing this slide')
      expect(frame).toContain('Tighten the title &amp; &lt;bullets&gt;')
      expect(await editorFrame('welcome-deck', second!.id)).not.toContain('editing-indicator')

      // Visible through the control plane's state document too.
      const state = await h.control('GET', '/state')
      expect(state.body.slides.find((slide: { id: string }) => slide.id === first!.id).editing).toMatchObject({ agentName: 'Claude' })

      const off = await h.api('DELETE', `/projects/welcome-deck/slides/${first!.id}/editing`)
      expect(off.status).toBe(200)
      expect(off.body).toStrictEqual({ success: true })
      expect((await storedSlide(first!.id)).editing).toBeNull()
      const after = await editorFrame('welcome-deck', first!.id)
      expect(after).not.toContain('editing-indicator')
      expect(after).not.toContain('Claude')

      // Neither call is a change of the presentation: no version, updatedAt unchanged.
      const projectAfter = await detail('welcome-deck')
      expect(projectAfter.latestVersion).toEqual(projectBefore.latestVersion)
      expect(projectAfter.updatedAt).toBe(projectBefore.updatedAt)
    })

    it('replaces who and what on a second POST, and answers a DELETE of an indicator that is off with success', async () => {
      const [first] = await storedSlides('welcome-deck')
      await h.api('POST', `/projects/welcome-deck/slides/${first!.id}/editing`, { json: { agentName: 'First agent', editPrompt: 'one' } })
      await h.emulator.control.advanceClock({ ms: 2000 })
      const again = await h.api('POST', `/projects/welcome-deck/slides/${first!.id}/editing`, { json: { agentName: 'Second agent' } })
      expect(again.body).toStrictEqual({ success: true })
      expect((await storedSlide(first!.id)).editing).toStrictEqual({
        agentName: 'Second agent',
        editPrompt: null,
        since: h.emulator.control.clock().now,
      })
      const frame = await editorFrame('welcome-deck', first!.id)
      expect(frame).toContain('Second agent is editing this slide')
      expect(frame).not.toContain('First agent')

      expect((await h.api('DELETE', `/projects/welcome-deck/slides/${first!.id}/editing`)).body).toStrictEqual({ success: true })
      const state = await snapshot()
      const twice = await h.api('DELETE', `/projects/welcome-deck/slides/${first!.id}/editing`)
      expect(twice.status).toBe(200)
      expect(twice.body).toStrictEqual({ success: true })
      expect(await snapshot()).toBe(state)
    })

    it('accepts a POST without a body, both fields being optional', async () => {
      const [first] = await storedSlides('welcome-deck')
      const reply = await h.api('POST', `/projects/welcome-deck/slides/${first!.id}/editing`)
      expect(reply.status).toBe(200)
      expect((await storedSlide(first!.id)).editing).toMatchObject({ agentName: null, editPrompt: null })
      const frame = await editorFrame('welcome-deck', first!.id)
      expect(frame).toContain('An agent is editing this slide')
    })

    it.each([
      ['a non-string agentName', { agentName: 7 }, /^agentName: must be a string, got a number$/],
      ['a non-string editPrompt', { editPrompt: ['x'] }, /^editPrompt: must be a string, got an array$/],
      ['an unknown field', { agent: 'x' }, /unknown key "agent"/],
    ])('rejects %s with a 400 and leaves the indicator off', async (_, json, hint) => {
      const [first] = await storedSlides('welcome-deck')
      const state = await snapshot()
      const reply = await h.api('POST', `/projects/welcome-deck/slides/${first!.id}/editing`, { json })
      expectError(reply, 400, 'VALIDATION_ERROR')
      expect(reply.body.hint).toMatch(hint)
      expect((await storedSlide(first!.id)).editing).toBeNull()
      expect(await snapshot()).toBe(state)
    })
  })

  describe('creating slides (emulator extension)', () => {
    it('appends a blank slide named after its position, with a new version', async () => {
      const before = await listSlides('welcome-deck')
      const projectBefore = await detail('welcome-deck')
      await h.emulator.control.advanceClock({ ms: 1000 })
      const reply = await h.api('POST', '/projects/welcome-deck/slides')
      expect(reply.status).toBe(200)
      const created = expectSchema(CreateSlideResponse, reply.body)

      const after = await listSlides('welcome-deck')
      expect(after).toEqual([...before, { id: created.slideId, name: `Slide ${before.length + 1}` }])
      expect(await storedFiles(created.slideId)).toStrictEqual(blankSlideFiles())
      const projectAfter = await detail('welcome-deck')
      expect(projectAfter.latestVersion!.id).toBe(created.versionId)
      expect(projectAfter.latestVersion!.id).not.toBe(projectBefore.latestVersion!.id)
      expect(projectAfter.updatedAt > projectBefore.updatedAt).toBe(true)
    })

    it('takes a name and overrides only the files given', async () => {
      const reply = await h.api('POST', '/projects/welcome-deck/slides', {
        json: { name: 'Agenda', files: { 'slide.content.json': VALID_CONTENT } },
      })
      expect(reply.status).toBe(200)
      expect((await listSlides('welcome-deck')).at(-1)).toEqual({ id: reply.body.slideId, name: 'Agenda' })
      expect(await storedFiles(reply.body.slideId)).toStrictEqual({ ...blankSlideFiles(), 'slide.content.json': VALID_CONTENT })
      const frame = await editorFrame('welcome-deck', reply.body.slideId)
      expect(frame).toContain('<h1>Agenda</h1>')
    })

    it('gives a slide created in an empty project the name "Slide 1", and a slide created there can then be updated', async () => {
      const project = await h.api('POST', '/projects', { json: { name: 'Empty' } })
      const slug = project.body.projectSlug as string
      expect(await listSlides(slug)).toEqual([])
      const created = await h.api('POST', `/projects/${slug}/slides`, { json: {} })
      expect(await listSlides(slug)).toEqual([{ id: created.body.slideId, name: 'Slide 1' }])
      const update = await h.api('PUT', `/projects/${slug}/slides/${created.body.slideId}`, { json: { files: { 'slide.tsx': VALID_TSX } } })
      expect(update.status).toBe(200)
      expect(update.body.files).toStrictEqual({ ...blankSlideFiles(), 'slide.tsx': VALID_TSX })
    })

    it.each([
      ['invalid TSX', { files: { 'slide.tsx': TSX_SYNTAX_ERROR } }, 'slide.tsx:3:18: Unexpected token, expected ","'],
      [
        'content that is a JSON string',
        { files: { 'slide.content.json': '"x"' } },
        'slide.content.json:1:1: Expected a JSON object or array at the top level, got a string',
      ],
      ['an empty name', { name: '' }, 'name: must not be empty'],
      ['an unknown file key', { files: { 'slide.md': '# x' } }, 'files: unknown key "slide.md"'],
    ])('rejects a create with %s and adds nothing', async (_, json, hint) => {
      const state = await snapshot()
      const reply = await h.api('POST', '/projects/welcome-deck/slides', { json })
      expectError(reply, 400, 'VALIDATION_ERROR')
      expect(reply.body.hint).toBe(hint)
      expect(await snapshot()).toBe(state)
    })

    it('copies a slide created through the extension into a duplicate of the project', async () => {
      const created = await h.api('POST', '/projects/welcome-deck/slides', { json: { name: 'Extra', files: { 'slide.tsx': VALID_TSX } } })
      expect(created.status).toBe(200)
      const source = await listSlides('welcome-deck')
      const duplicate = expectSchema(DuplicateProjectResponse, (await h.api('POST', '/projects/welcome-deck/duplicate')).body)
      const copy = await listSlides(duplicate.projectSlug)
      expect(copy.map((slide) => slide.name)).toEqual(source.map((slide) => slide.name))
      expect(copy.at(-1)!.name).toBe('Extra')
      expect(copy.at(-1)!.id).not.toBe(created.body.slideId)
      expect(await storedFiles(copy.at(-1)!.id)).toStrictEqual(await storedFiles(created.body.slideId))
      // The copy's slides belong to the copy: the source's ids are not reachable through its slug.
      const through = await h.api('PUT', `/projects/${duplicate.projectSlug}/slides/${created.body.slideId}`, {
        json: { files: { 'slide.tsx': VALID_TSX } },
      })
      expectError(through, 404, 'NOT_FOUND')
    })
  })

  describe('reading a slide’s files (emulator extension)', () => {
    it('answers the stored files in the body PUT takes, so a read, an edit and a PUT round trip', async () => {
      const [slide] = await storedSlides('welcome-deck')
      const read = await h.api('GET', `/projects/welcome-deck/slides/${slide!.id}/files`)
      expect(read.status).toBe(200)
      const { files } = expectSchema(SlideFilesResponse, read.body)
      expect(Object.keys(read.body)).toEqual(['files'])
      expect(files).toStrictEqual(await storedFiles(slide!.id))
      // The body read, with one file changed, is a valid PUT body as it is.
      const edited = { files: { ...files, 'slide.content.json': VALID_CONTENT } }
      const put = await h.api('PUT', `/projects/welcome-deck/slides/${slide!.id}`, { json: edited })
      expect(put.status).toBe(200)
      const again = await h.api('GET', `/projects/welcome-deck/slides/${slide!.id}/files`)
      expect(again.body).toStrictEqual(edited)
      expect(again.body.files).toStrictEqual(expectSchema(UpdateSlideResponse, put.body).files)
    })

    it('answers 404 for a missing slide, a slide through another project’s slug and a missing project, changing nothing', async () => {
      const [foreign] = await storedSlides('welcome-deck')
      const state = await snapshot()
      const missing = await h.api('GET', '/projects/welcome-deck/slides/sld_nope/files')
      expectError(missing, 404, 'NOT_FOUND')
      expect(missing.body.error).toBe('Slide not found')
      const through = await h.api('GET', `/projects/bobs-roadmap/slides/${foreign!.id}/files`)
      expectError(through, 404, 'NOT_FOUND')
      expect(through.body.error).toBe('Slide not found')
      const noProject = await h.api('GET', `/projects/no-such-deck/slides/${foreign!.id}/files`)
      expectError(noProject, 404, 'NOT_FOUND')
      expect(noProject.body.error).toBe('Project not found')
      expect(await snapshot()).toBe(state)
    })

    it('needs a key, and is journaled under its operation id like every read', async () => {
      const [slide] = await storedSlides('welcome-deck')
      expectError(await h.api('GET', `/projects/welcome-deck/slides/${slide!.id}/files`, { key: null }), 401, 'UNAUTHORIZED')
      await h.api('GET', `/projects/welcome-deck/slides/${slide!.id}/files`)
      const entries = h.emulator.emulator.journal.list({ limit: 1 })
      expect(entries[0]?.operationId).toBe('getSlideFiles')
    })
  })

  describe('slide guide (emulator extension)', () => {
    it('states the token naming rules as patterns that match the spec’s examples', async () => {
      const reply = await h.api('GET', '/projects/welcome-deck/slides/guide')
      expect(reply.status).toBe(200)
      const guide = expectSchema(SlideGuideResponse, reply.body)
      expect(guide.tokens.palette.namePattern).toBe(PALETTE_TOKEN_NAME.source)
      expect(guide.tokens.palette.valuePattern).toBe(HEX_COLOR.source)
      expect(guide.tokens.fonts.namePattern).toBe(FONT_TOKEN_NAME.source)
      const palette = new RegExp(guide.tokens.palette.namePattern)
      const hex = new RegExp(guide.tokens.palette.valuePattern)
      const font = new RegExp(guide.tokens.fonts.namePattern)
      expect(palette.test(guide.tokens.palette.example.name) && hex.test(guide.tokens.palette.example.value)).toBe(true)
      expect(font.test(guide.tokens.fonts.example.name)).toBe(true)
      expect(['--brand-blue', '--a1'].every((name) => palette.test(name))).toBe(true)
      expect(['brand', '--Brand', '--1a'].some((name) => palette.test(name))).toBe(false)
      expect(['#fff', '#A1b2C3', '#11223344'].every((value) => hex.test(value))).toBe(true)
      expect(['fff', '#ffff', '#ggg'].some((value) => hex.test(value))).toBe(false)
      expect(font.test('--font-heading')).toBe(true)
      expect(font.test('--heading')).toBe(false)
    })

    it('states the conventions and validation rules of all three files', async () => {
      const guide = (await h.api('GET', '/projects/welcome-deck/slides/guide')).body
      expect(guide.files.map((file: { name: string }) => file.name)).toEqual(['slide.tsx', 'slide.content.json', 'slide.controls.json'])
      expect(guide.files[0].rules.join(' ')).toMatch(/default export/)
      // The rendering environment: what a component may import, its props, the CSS variables and class names.
      for (const name of [
        '`react`',
        '`react/jsx-runtime`',
        '`./slide.content.json`',
        '`./slide.controls.json`',
        'props',
        '--slide-bg',
        '`slide__title`',
        'static',
      ]) {
        expect(guide.files[0].rules.join(' ')).toContain(name)
      }
      expect(guide.files[1].rules.join(' ')).toMatch(/object or an array/)
      expect(guide.files[2].rules.join(' ')).toMatch(/object or an array/)
      expect(guide.validation).toMatch(/file:line:column/)
    })

    it('describes the rendering environment: imports, props, the 16:9 box, CSS variables, base class names, designs', async () => {
      const guide = expectSchema(SlideGuideResponse, (await h.api('GET', '/projects/welcome-deck/slides/guide')).body)
      const { rendering } = guide
      expect(rendering.imports.map((entry) => entry.name)).toEqual([
        'react',
        'react/jsx-runtime',
        './slide.content.json',
        './slide.controls.json',
      ])
      expect(rendering.props).toMatch(/control\.id.*control\.default/)
      expect(rendering.box).toMatch(/16:9/)
      const variables = rendering.cssVariables.map((entry) => entry.name).join(' ')
      for (const name of ['--slide-bg', '--slide-fg', '--slide-title', '--slide-font', '--primary', '--font-'])
        expect(variables).toContain(name)
      const classes = rendering.classNames.map((entry) => entry.name).join(' ')
      for (const name of ['slide', 'slide__inner', 'slide__title', 'slide--centered']) expect(classes.split(/[ ,]+/)).toContain(name)
      expect(rendering.designs.map((entry) => entry.name)).toEqual([...SLIDE_DESIGNS])
      // Every design's class is named, so an agent can reuse a generated design.
      for (const design of SLIDE_DESIGNS) expect(classes).toContain(`slide--${design}`)
      expect(guide.files[0]!.rules.join(' ')).toMatch(/react\/jsx-runtime/)
      expect(guide.files[2]!.rules.join(' ')).toMatch(/color, select .*text, number .*toggle/)
    })

    it('includes the project’s current tokens, following a config update', async () => {
      const tokens = {
        palette: [{ name: '--brand-blue', value: '#1d4ed8' }],
        fonts: [{ name: '--font-heading', family: 'Inter', url: 'https://fonts.example/inter.css' }],
      }
      const put = await h.api('PUT', '/projects/welcome-deck/config', { json: { config: { tokens } } })
      expect(put.status).toBe(200)
      const guide = expectSchema(SlideGuideResponse, (await h.api('GET', '/projects/welcome-deck/slides/guide')).body)
      expect(guide.projectTokens).toStrictEqual(tokens)
    })

    it('reads the guide of a project without tokens as empty lists, without a version', async () => {
      const project = await h.api('POST', '/projects', { json: { name: 'Plain' } })
      const before = await detail(project.body.projectSlug)
      const guide = (await h.api('GET', `/projects/${project.body.projectSlug}/slides/guide`)).body
      expect(guide.projectTokens).toStrictEqual({ palette: [], fonts: [] })
      expect((await detail(project.body.projectSlug)).latestVersion).toEqual(before.latestVersion)
    })
  })

  it('serves an agent that lists, marks, edits, unmarks and reads back the version, end to end', async () => {
    const slides = await listSlides('q3-business-review', ACME)
    const target = slides[1]!
    const on = await h.api('POST', `/projects/q3-business-review/slides/${target.id}/editing`, {
      key: ACME,
      json: { agentName: 'Deck agent', editPrompt: 'Rewrite the numbers slide' },
    })
    expect(on.body).toStrictEqual({ success: true })
    expect(await editorFrame('q3-business-review', target.id)).toContain('Deck agent is editing this slide')

    const update = await h.api('PUT', `/projects/q3-business-review/slides/${target.id}`, {
      key: ACME,
      json: { files: { 'slide.content.json': VALID_CONTENT } },
    })
    expect(update.status).toBe(200)
    const off = await h.api('DELETE', `/projects/q3-business-review/slides/${target.id}/editing`, { key: ACME })
    expect(off.body).toStrictEqual({ success: true })

    const project = await detail('q3-business-review', ACME)
    expect(project.latestVersion!.id).toBe(update.body.versionId)
    const frame = await editorFrame('q3-business-review', target.id)
    expect(frame).not.toContain('editing-indicator')
    expect(frame).toContain('<h1>Agenda</h1>')
    expect(await listSlides('q3-business-review', ACME)).toEqual(slides)
  })
})
