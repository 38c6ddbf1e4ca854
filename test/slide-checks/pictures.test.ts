/**
 * Slide pictures (issue 33) where no browser has to start: the control
 * plane's `POST /_emulator/projects/{slug}/slides/{slideId}/picture`,
 * `emulator.control.slidePicture` and the typed client refuse bad input
 * before anything is rendered (a width out of range: 400 naming the bounds;
 * an unknown project or slide: 404); a browser that is not there is a 503
 * naming the path tried and how to give one, and the emulator goes on. All
 * with the real emulator and its real slide checker (`createEmulator`), with
 * `CHROMIUM_PATH` naming a file that does not exist. The pictures
 * themselves, the layout findings and the browser's hygiene are in the
 * browser tier (`test/browser/slide-pictures.test.ts`).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createControlClient } from '../../src/client/control.js'
import { ServiceApiError } from '../../src/client/errors.js'
import { Emulator } from '../../src/emulator.js'
import { createEmulator, type PresentationEmulator } from '../../src/index.js'
import { checkDeck } from '../../src/model/deck-check.js'
import type { SlideCheckInput, SlideCheckResult, SlideInspectOptions } from '../../src/model/slide-checker.js'
import { MAX_PICTURE_WIDTH, MIN_PICTURE_WIDTH } from '../../src/model/slide-checks.js'
import { layoutFindings, summaryLine } from '../../src/cli/check-report.js'
import { pictureFileName } from '../../src/cli/check.js'
import { ALICE, ORIGIN, rejection, slideIdsOf } from '../support/slide-checks.js'
import { chromiumArgs, chromiumPath, DEFAULT_CHROMIUM_PATH, noteRootSandbox, USUAL_CHROMIUM_PATHS } from '../../web/check/browser.js'

const MISSING = '/nonexistent/presentation-emulator-test/chromium'

let saved: string | undefined
const emulators: PresentationEmulator[] = []
beforeEach(() => {
  saved = process.env.CHROMIUM_PATH
  process.env.CHROMIUM_PATH = MISSING
})
afterEach(async () => {
  if (saved === undefined) delete process.env.CHROMIUM_PATH
  else process.env.CHROMIUM_PATH = saved
  await Promise.all(emulators.splice(0).map((emulator) => emulator.close()))
})

function emulatorOf(options: { adminToken?: string } = {}): PresentationEmulator {
  const emulator = createEmulator({ clock: 'manual', ...options })
  emulators.push(emulator)
  return emulator
}

async function picture(emulator: PresentationEmulator, path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await emulator.fetch(`${ORIGIN}/_emulator${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  })
  const type = response.headers.get('content-type') ?? ''
  return {
    status: response.status,
    code: response.headers.get('x-service-error-code'),
    type,
    body: type.startsWith('application/json') ? ((await response.json()) as { error: string; hint?: string }) : undefined,
  }
}

describe('a slide picture: bad input', () => {
  it('answers a width out of range with 400 PICTURE_WIDTH_OUT_OF_RANGE naming the bounds, over HTTP and in-process', async () => {
    const emulator = emulatorOf()
    const slide = (await slideIdsOf(emulator))[0]!
    for (const width of [MIN_PICTURE_WIDTH - 1, MAX_PICTURE_WIDTH + 1, 640.5, '640', 0, -1280, null]) {
      const reply = await picture(emulator, `/projects/welcome-deck/slides/${slide}/picture`, { width })
      expect({ status: reply.status, code: reply.code }, String(width)).toEqual({ status: 400, code: 'PICTURE_WIDTH_OUT_OF_RANGE' })
      expect(reply.body?.hint).toContain(`from ${MIN_PICTURE_WIDTH} to ${MAX_PICTURE_WIDTH}`)
    }
    const error = await rejection(emulator.control.slidePicture('welcome-deck', slide, { width: 100 }))
    expect([error.status, error.code]).toEqual([400, 'PICTURE_WIDTH_OUT_OF_RANGE'])
    expect(error.hint).toMatch(/from 320 to 3840 .*got 100/)
  })

  it('answers a field it does not know with 400 VALIDATION_ERROR naming it', async () => {
    const emulator = emulatorOf()
    const slide = (await slideIdsOf(emulator))[0]!
    const reply = await picture(emulator, `/projects/welcome-deck/slides/${slide}/picture`, { width: 640, height: 360 })
    expect({ status: reply.status, code: reply.code }).toEqual({ status: 400, code: 'VALIDATION_ERROR' })
    expect(reply.body?.hint).toContain('height')
  })

  it('answers an unknown project or slide with 404, over HTTP, in-process and through the typed client', async () => {
    const emulator = emulatorOf()
    const slide = (await slideIdsOf(emulator))[0]!
    const noSlide = await picture(emulator, '/projects/welcome-deck/slides/sld_nope/picture', {})
    expect({ status: noSlide.status, code: noSlide.code }).toEqual({ status: 404, code: 'NOT_FOUND' })
    expect(noSlide.body?.hint).toContain('sld_nope')
    const noProject = await picture(emulator, `/projects/no-such-deck/slides/${slide}/picture`, {})
    expect({ status: noProject.status, code: noProject.code }).toEqual({ status: 404, code: 'NOT_FOUND' })
    const error = await rejection(emulator.control.slidePicture('welcome-deck', 'sld_nope'))
    expect(error.status).toBe(404)
    const client = createControlClient({ url: ORIGIN, fetch: emulator.fetch })
    const refused = await client.slidePicture('welcome-deck', 'sld_nope', { width: 640 }).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(ServiceApiError)
    expect((refused as ServiceApiError).status).toBe(404)
    const wide = await client.slidePicture('welcome-deck', slide, { width: 5000 }).catch((e: unknown) => e)
    expect((wide as ServiceApiError).status).toBe(400)
    expect((wide as ServiceApiError).code).toBe('PICTURE_WIDTH_OUT_OF_RANGE')
  })

  it('is guarded like the rest of the control plane: the admin token', async () => {
    const emulator = emulatorOf({ adminToken: 'admin-secret' })
    const slide = (await slideIdsOf(emulator))[0]!
    const refused = await picture(emulator, `/projects/welcome-deck/slides/${slide}/picture`, { width: 5000 })
    expect(refused.status).toBe(401)
    const admitted = await picture(
      emulator,
      `/projects/welcome-deck/slides/${slide}/picture`,
      { width: 5000 },
      { authorization: 'Bearer admin-secret' },
    )
    expect(admitted.status).toBe(400)
  })
})

describe('a slide picture without a browser', () => {
  it('answers 503 SLIDE_CHECKER_UNAVAILABLE naming the browser path tried and how to give one; the emulator goes on', async () => {
    const emulator = emulatorOf()
    const slide = (await slideIdsOf(emulator))[0]!
    const reply = await picture(emulator, `/projects/welcome-deck/slides/${slide}/picture`, {})
    expect({ status: reply.status, code: reply.code }).toEqual({ status: 503, code: 'SLIDE_CHECKER_UNAVAILABLE' })
    expect(reply.body?.hint).toContain(MISSING)
    expect(reply.body?.hint).toContain('CHROMIUM_PATH')
    expect(reply.body?.hint).toContain('executablePath')
    expect(reply.body?.hint).toContain(DEFAULT_CHROMIUM_PATH)
    // The same again (a failed start is not kept), and the emulator answers as before.
    const again = await rejection(emulator.control.slidePicture('welcome-deck', slide))
    expect([again.status, again.code]).toEqual([503, 'SLIDE_CHECKER_UNAVAILABLE'])
    const list = await emulator.fetch(`${ORIGIN}/v1/projects`, { headers: { authorization: `Bearer ${ALICE}` } })
    expect(list.status).toBe(200)
  })

  it('takes the browser from createEmulator’s chromiumPath option before CHROMIUM_PATH, and refuses one that is not a path', async () => {
    const given = '/nonexistent/given-by-option/chromium'
    const emulator = createEmulator({ clock: 'manual', chromiumPath: given })
    emulators.push(emulator)
    const slide = (await slideIdsOf(emulator))[0]!
    const error = await rejection(emulator.control.slidePicture('welcome-deck', slide))
    expect([error.status, error.code]).toEqual([503, 'SLIDE_CHECKER_UNAVAILABLE'])
    expect(error.hint).toContain(given)
    expect(error.hint).not.toContain(MISSING)
    expect(() => createEmulator({ chromiumPath: '' })).toThrow(/chromiumPath must be/)
  })

  it('a build without a checker (new Emulator()) says so: 503', async () => {
    const emulator = new Emulator({ clock: 'manual' })
    await emulator.ready()
    const project = emulator.world.projectBySlug('welcome-deck')!
    const slide = emulator.world.slidesOf(project.id)[0]!.id
    const error = await rejection(emulator.control.slidePicture('welcome-deck', slide))
    expect([error.status, error.code]).toEqual([503, 'SLIDE_CHECKER_UNAVAILABLE'])
    emulator.close()
  })

  it('finds Chromium through the option, CHROMIUM_PATH, then the usual install locations in order', () => {
    expect(chromiumPath('/opt/given/chromium')).toBe('/opt/given/chromium')
    expect(chromiumPath()).toBe(MISSING)
    delete process.env.CHROMIUM_PATH
    expect(chromiumPath(undefined, (path) => path === '/usr/bin/google-chrome' || path === '/snap/bin/chromium')).toBe('/snap/bin/chromium')
    expect(chromiumPath(undefined, () => false)).toBe(DEFAULT_CHROMIUM_PATH)
    expect(USUAL_CHROMIUM_PATHS[0]).toBe(DEFAULT_CHROMIUM_PATH)
  })

  it('keeps Chromium’s sandbox unless the process runs as root, and then says so on stderr once', () => {
    expect(chromiumArgs().includes('--no-sandbox')).toBe(process.getuid?.() === 0)
    expect(chromiumArgs()).toEqual(expect.arrayContaining(['--headless', '--disable-background-networking', '--disable-sync']))
    const written: string[] = []
    noteRootSandbox((text) => written.push(text), 1000)
    expect(written).toEqual([])
    noteRootSandbox((text) => written.push(text), 0)
    noteRootSandbox((text) => written.push(text), 0)
    // Once per process (no browser starts in this tier, so none has said it before).
    expect(written).toHaveLength(1)
    expect(written[0]).toMatch(/--no-sandbox because this process runs as root/)
  })
})

describe('a deck’s pictures and layout findings through the deck loop (a double of the port only)', () => {
  const rendered = (text: string): SlideCheckResult => ({
    status: 'rendered',
    text,
    elements: 1,
    notes: [],
    layout: text === 'small' ? [{ code: 'text-too-small', message: 'p has text 8 px high', element: 'p', text: 'small' }] : [],
  })
  const input = (tsx: string): SlideCheckInput => ({
    files: { 'slide.tsx': tsx, 'slide.content.json': '{}', 'slide.controls.json': '{"controls":[]}' },
    config: {},
  })

  it('hands each rendered slide’s picture to onPicture, once per slide, with its report; a slide that fails has none', async () => {
    const asked: SlideInspectOptions[] = []
    const checker = {
      check: async () => rendered('unused'),
      inspect: async (slide: SlideCheckInput, options: SlideInspectOptions) => {
        asked.push(options)
        const text = slide.files['slide.tsx']
        if (text === 'broken') {
          return {
            result: {
              status: 'error' as const,
              error: { kind: 'runtime', message: 'x', file: 'slide.tsx' as const },
              text: '',
              elements: 0,
              notes: [],
            },
          }
        }
        return { result: rendered(text), png: new Uint8Array([text.length]) }
      },
    }
    const got: Array<[string, number, number]> = []
    const result = await checkDeck(
      checker,
      'deck',
      ['fine', 'broken', 'small'].map((tsx, i) => ({ slideId: `s${i}`, load: async () => input(tsx) })),
      { layout: true, pictures: { width: 640, onPicture: (report, png) => void got.push([report.slideId, report.position, png[0]!]) } },
    )
    expect(got).toEqual([
      ['s0', 1, 4],
      ['s2', 3, 5],
    ])
    expect(asked).toEqual([
      { layout: true, pictureWidth: 640 },
      { layout: true, pictureWidth: 640 },
      { layout: true, pictureWidth: 640 },
    ])
    expect([result.rendered, result.failed]).toEqual([2, 1])
    expect(layoutFindings(result)).toBe(1)
    expect(summaryLine(result)).toBe('2 rendered, 1 failed, 1 layout finding, of 3 slides in deck')
  })

  it('names each picture file by position and slide id, safe for a file name', () => {
    expect(pictureFileName({ position: 3, slideId: 'sld_abc123' })).toBe('03-sld_abc123.png')
    expect(pictureFileName({ position: 12, slideId: 'slides/intro' })).toBe('12-slides_intro.png')
    expect(pictureFileName({ position: 1, slideId: '../../etc' })).toBe('01-etc.png')
  })
})
