/**
 * Slide pictures and layout findings (issue 33), in headless Chromium, with
 * the emulator the Node entry builds (`createEmulator`, its real slide
 * checker): pictures through `emulator.control.slidePicture`, the control
 * plane's `POST …/slides/{slideId}/picture` and `check --pictures`, that
 * decode (`support/png.ts`), have the size asked for and are not a flat
 * colour; each layout finding on a slide made to trigger it, and none on
 * the seeded world's slides, and `toRenderSlides(…, { layout: true })`
 * failing on one; the hostile corpus pictured without any
 * request leaving the checker's origin (counted at the browser: every
 * request it made, by origin, and a canary server that counts connections).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { mkdtemp, readdir, readFile, rm, writeFile, mkdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { runCheck } from '../../src/cli/check.js'
import { createControlClient } from '../../src/client/control.js'
import { createEmulator, type PresentationEmulator } from '../../src/index.js'
import type { LayoutFinding, SlideCheckInput } from '../../src/model/slide-checker.js'
import type { SlideFiles } from '../../src/schemas/index.js'
import { ServiceError } from '../../src/core/errors.js'
// Importing the helpers adds `toRenderSlides` to `expect`, as a user's test file does.
import '../../src/vitest/index.js'
import { displaySlots } from '../../web/check/browser.js'
import { CHECK_ORIGIN, SlideNotRenderedError } from '../../web/check/index.js'
import type { LazySlideChecker } from '../../web/check/lazy.js'
import { CHROMIUM_PATH } from './support/browser.js'
import { addressed, HOSTILE_CORPUS, type HostileSlide } from './support/hostile-corpus.js'
import { colourStats, decodePng, pixelAt } from './support/png.js'
import { type Canary, startCanary } from './support/render.js'

const ORIGIN = 'http://127.0.0.1:4010'
const ALICE = 'pres_test_alice'

const files = (tsx: string, content: unknown = {}, controls: unknown = { controls: [] }): SlideFiles => ({
  'slide.tsx': tsx,
  'slide.content.json': JSON.stringify(content),
  'slide.controls.json': JSON.stringify(controls),
})
const input = (tsx: string, content?: unknown): SlideCheckInput => ({ files: files(tsx, content), config: {} })

/** A slide in two colours: a red band on the left half, the theme's white on the right, and a heading. */
const COLOURED = `export default function Coloured() {
  return (
    <section style={{ position: "absolute", inset: 0, display: "flex" }}>
      <div style={{ width: 640, height: 720, background: "#d11a2a" }} />
      <h1 style={{ fontSize: 64, margin: 40 }}>Half red</h1>
    </section>
  );
}
`

const CLEAN = `export default function Clean() {
  return (
    <section style={{ padding: 48 }}>
      <h1 style={{ fontSize: 48 }}>Plain and tidy</h1>
      <p style={{ fontSize: 24 }}>Everything fits.</p>
    </section>
  );
}
`

/** One slide per finding, each made to trigger it (and nothing else). */
const TRIGGERS: Record<LayoutFinding['code'], string> = {
  'outside-slide': `export default function Off() {
  return <h1 style={{ position: "absolute", left: 1100, top: 40, width: 400, fontSize: 40, margin: 0 }}>Runs off the edge</h1>;
}
`,
  'text-clipped': `export default function Clipped() {
  return (
    <div style={{ position: "absolute", left: 40, top: 40, width: 240, height: 40, overflow: "hidden", fontSize: 24 }}>
      <p style={{ margin: 0 }}>A sentence far too long for the little box it was given to live in</p>
    </div>
  );
}
`,
  'image-failed': `export default function Broken() {
  return (
    <section style={{ padding: 40 }}>
      <h1 style={{ fontSize: 40 }}>A picture</h1>
      <img src="data:image/png;base64,bm90IGFuIGltYWdl" alt="" width="200" height="100" />
    </section>
  );
}
`,
  'text-too-small': `export default function Tiny() {
  return (
    <section style={{ padding: 40 }}>
      <h1 style={{ fontSize: 40 }}>Readable</h1>
      <p style={{ fontSize: 9 }}>fine print nobody reads</p>
    </section>
  );
}
`,
}

async function api(emulator: PresentationEmulator, method: string, path: string, body?: unknown) {
  const response = await emulator.fetch(`${ORIGIN}/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${ALICE}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  return { status: response.status, body: (await response.json()) as any }
}

describe('slide pictures and layout findings, in Chromium', () => {
  let emulator: PresentationEmulator
  let checker: LazySlideChecker
  let canary: Canary
  let deck: { slug: string; ids: string[] }

  beforeAll(async () => {
    process.env.CHROMIUM_PATH ??= CHROMIUM_PATH
    canary = await startCanary({ images: true })
    emulator = createEmulator({ clock: 'manual' })
    await emulator.ready()
    // The Node entry's checker (web/check/lazy.ts), which says what its browser saw.
    checker = emulator.emulator.slideChecker as LazySlideChecker
    const project = (await api(emulator, 'POST', '/projects', { name: 'Pictures' })).body
    const ids: string[] = []
    for (const [name, tsx] of [['Coloured', COLOURED], ['Clean', CLEAN], ...Object.entries(TRIGGERS)]) {
      const created = await api(emulator, 'POST', `/projects/${project.projectSlug}/slides`, { name, files: { 'slide.tsx': tsx } })
      expect(created.status, JSON.stringify(created.body)).toBe(200)
      ids.push(created.body.slideId)
    }
    deck = { slug: project.projectSlug, ids }
  })
  afterAll(async () => {
    await emulator?.close()
    await canary?.close()
  })

  it('takes a picture of the size asked for (1280 × 720 by default) that decodes and is not a flat colour', async () => {
    const [coloured] = deck.ids
    const big = decodePng(await emulator.control.slidePicture(deck.slug, coloured!))
    expect([big.width, big.height]).toEqual([1280, 720])
    for (const width of [320, 640, 1000]) {
      const png = decodePng(await emulator.control.slidePicture(deck.slug, coloured!, { width }))
      expect([png.width, png.height]).toEqual([width, Math.round((width * 9) / 16)])
      expect(colourStats(png).variance).toBeGreaterThan(100)
      // The red band on the left, the theme's background on the right.
      const [r, g, b] = pixelAt(png, Math.round(width / 8), Math.round(png.height / 2))
      expect(r).toBeGreaterThan(180)
      expect(g + b).toBeLessThan(120)
      expect(pixelAt(png, width - 4, png.height - 4)).not.toEqual([r, g, b])
    }
  })

  it('answers the control plane’s POST …/picture with image/png bytes', async () => {
    const response = await emulator.fetch(`${ORIGIN}/_emulator/projects/${deck.slug}/slides/${deck.ids[0]}/picture`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ width: 480 }),
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('image/png')
    const png = decodePng(new Uint8Array(await response.arrayBuffer()))
    expect([png.width, png.height]).toEqual([480, 270])
    // Over a socket too, through the typed client: the same bytes' size, with their length.
    const server = await emulator.listen({ port: 0 })
    try {
      const overHttp = await fetch(`${server.origin}/_emulator/projects/${deck.slug}/slides/${deck.ids[0]}/picture`, {
        method: 'POST',
        body: JSON.stringify({ width: 320 }),
        headers: { 'content-type': 'application/json' },
      })
      expect(overHttp.headers.get('content-type')).toBe('image/png')
      const bytes = new Uint8Array(await overHttp.arrayBuffer())
      expect(Number(overHttp.headers.get('content-length'))).toBe(bytes.length)
      expect(decodePng(bytes).width).toBe(320)
      const client = createControlClient({ url: server.origin })
      expect(decodePng(await client.slidePicture(deck.slug, deck.ids[0]!, { width: 400 })).height).toBe(225)
    } finally {
      await server.close()
    }
  })

  it('reports each layout finding on a slide made to trigger it, with the element and its text, without changing status', async () => {
    const result = await emulator.control.checkSlides(deck.slug, { layout: true })
    const bySlide = new Map(result.slides.map((slide) => [slide.position, slide]))
    expect(result.rendered).toBe(result.slides.length)
    expect(bySlide.get(1)?.layout).toEqual([])
    expect(bySlide.get(2)?.layout).toEqual([])
    for (const [index, code] of Object.keys(TRIGGERS).entries()) {
      const slide = bySlide.get(index + 3)!
      expect(slide.status).toBe('rendered')
      expect(
        slide.layout?.map((finding) => finding.code),
        `${code}: ${JSON.stringify(slide.layout)}`,
      ).toEqual([code])
      const [finding] = slide.layout!
      expect(finding!.message.length).toBeGreaterThan(10)
      expect(finding!.element).toBeTypeOf('string')
      expect(finding!.box).toBeDefined()
    }
    const [off, clipped, image, tiny] = [3, 4, 5, 6].map((position) => bySlide.get(position)!.layout![0]!)
    expect(off).toMatchObject({ element: 'h1', text: 'Runs off the edge' })
    expect(off!.box!.x + off!.box!.width).toBeGreaterThan(1280)
    expect(clipped).toMatchObject({ element: 'div' })
    expect(clipped!.text).toContain('A sentence far too long')
    expect(image).toMatchObject({ element: 'section > img' })
    expect(tiny).toMatchObject({ element: 'section > p', text: 'fine print nobody reads' })
    // Without `layout`, no findings are measured (and no browser is needed).
    const plain = await emulator.control.checkSlides(deck.slug, { slideIds: [deck.ids[2]!] })
    expect(plain.slides[0]!.layout).toBeUndefined()
  })

  it('fails toRenderSlides with layout: true on a finding, listing it under its slide; passes a clean slide', async () => {
    const [clean, tiny] = [deck.ids[1]!, deck.ids[5]!]
    await expect(emulator).toRenderSlides(deck.slug, { slideIds: [clean], layout: true })
    // Without `layout` the tiny text is no failure: the slide renders.
    await expect(emulator).toRenderSlides(deck.slug, { slideIds: [tiny] })
    const failure = await expect(emulator)
      .toRenderSlides(deck.slug, { slideIds: [clean, tiny], layout: true })
      .then(
        () => undefined,
        (error: Error) => error,
      )
    expect(failure).toBeInstanceOf(Error)
    expect(failure!.message).toMatch(
      new RegExp(
        `^expected every slide of "${deck.slug}" to render with no layout finding, but 0 of 2 slides did not render, and 1 layout finding was found:\n {2}6\\. ${tiny}: layout: text-too-small: section > p has text \\d+ px high`,
      ),
    )
  })

  it('finds nothing on the seeded world’s slides', async () => {
    const projects = emulator.emulator.world.projects.all()
    const found: string[] = []
    let slides = 0
    for (const project of projects) {
      if (project.slug === deck.slug) continue
      const result = await emulator.control.checkSlides(project.slug, { layout: true })
      for (const slide of result.slides) {
        slides += 1
        for (const finding of slide.layout ?? []) found.push(`${project.slug} ${slide.position}: ${finding.code}: ${finding.message}`)
      }
    }
    expect(slides).toBeGreaterThan(0)
    expect(found.join('\n')).toBe('')
  }, 300_000)

  it('pictures a whole deck in one call, with one browser and one renderer frame', async () => {
    const before = (await checker.diagnostics()).documentLoads
    const { result, pictures } = await emulator.control.slidePictures(deck.slug, { width: 320 })
    const after = (await checker.diagnostics()).documentLoads
    const renderer = Object.keys(after).find((path) => path.endsWith('/renderer.html'))!
    const display = Object.keys(after).find((path) => path.endsWith('/slide.html'))!
    // One renderer frame served every check and picture of the browser's life; a display frame per page shown at once, at most.
    expect(after[renderer]).toBe(1)
    expect((after[display] ?? 0) - (before[display] ?? 0)).toBeLessThanOrEqual(Math.min(deck.ids.length, displaySlots(320, 180)))
    expect(result.rendered).toBe(deck.ids.length)
    expect(pictures.map((picture) => picture.position)).toEqual(deck.ids.map((_, i) => i + 1))
    for (const picture of pictures) expect(decodePng(picture.png).width).toBe(320)
  })

  it('gives each slide its own picture when a deck has more slides than are shown at once', async () => {
    const slots = displaySlots(640, 360)
    const colours = Array.from({ length: slots + 3 }, (_, i) => [20 + i * 17, 230 - i * 13, (90 + i * 41) % 256] as const)
    const project = (await api(emulator, 'POST', '/projects', { name: 'Colours' })).body
    for (const [i, [r, g, b]] of colours.entries()) {
      const tsx = `export default function Colour${i}() {\n  return <section style={{ position: "absolute", inset: 0, background: "rgb(${r}, ${g}, ${b})" }} />;\n}\n`
      expect(
        (await api(emulator, 'POST', `/projects/${project.projectSlug}/slides`, { name: `Colour ${i}`, files: { 'slide.tsx': tsx } }))
          .status,
      ).toBe(200)
    }
    const before = (await checker.diagnostics()).documentLoads
    const { result, pictures } = await emulator.control.slidePictures(project.projectSlug, { width: 640 })
    const after = (await checker.diagnostics()).documentLoads
    const display = Object.keys(after).find((path) => path.endsWith('/slide.html'))!
    expect(result.rendered).toBe(colours.length)
    // The pages' display frames are shown again for the slides after the first look's: no frame per slide.
    expect((after[display] ?? 0) - (before[display] ?? 0)).toBeLessThanOrEqual(slots)
    // Each picture is its own slide's, in deck order: a page photographed for another slide would show another colour.
    const seen = pictures.map(({ png }) => {
      const decoded = decodePng(png)
      expect([decoded.width, decoded.height]).toEqual([640, 360])
      return pixelAt(decoded, 320, 180)
    })
    expect(seen.map((rgb, i) => rgb.every((value, channel) => Math.abs(value - colours[i]![channel]!) <= 3))).toEqual(
      colours.map(() => true),
    )
  })

  it('refuses a picture of a slide that does not render, with its error', async () => {
    const refusal = checker.picture(input('export default function T() {\n  throw new Error("no");\n}\n'), { width: 320 })
    await expect(refusal).rejects.toBeInstanceOf(SlideNotRenderedError)
  })

  it('pictures the hostile corpus without a request leaving the checker’s origin', async () => {
    const before = (await checker.diagnostics()).requestsByOrigin
    let pictured = 0
    for (const base of HOSTILE_CORPUS) {
      const slide = addressed(base as HostileSlide, canary.origin)
      try {
        const png = await checker.picture(
          { files: files(slide.tsx, slide.content ?? {}, slide.controls ?? { controls: [] }), config: {} },
          { width: 320 },
        )
        expect(decodePng(png).width).toBe(320)
        pictured += 1
      } catch (error) {
        if (!(error instanceof SlideNotRenderedError)) throw error
      }
    }
    expect(pictured).toBeGreaterThan(HOSTILE_CORPUS.length / 3)
    const diagnostics = await checker.diagnostics()
    expect(Object.keys(diagnostics.requestsByOrigin)).toEqual([CHECK_ORIGIN])
    expect(diagnostics.requestsByOrigin[CHECK_ORIGIN]).toBeGreaterThan(before[CHECK_ORIGIN] ?? 0)
    expect(diagnostics.blockedRequests).toEqual([])
    expect(canary.connections).toBe(0)
    expect(canary.requests).toEqual([])
  }, 600_000)
})

/** A process's parent, from /proc (undefined once it is gone). */
function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
  } catch {
    return undefined
  }
}

/** The checker's Chromium started by this test process (its main process, a descendant of ours), found by its profile's name. */
function checkerBrowserPids(): number[] {
  const pids: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    let cmdline: string
    try {
      cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8')
    } catch {
      continue
    }
    if (!cmdline.includes('presentation-emulator-check-') || cmdline.includes('--type=')) continue
    let ancestor = parentOf(Number(entry))
    for (let depth = 0; ancestor !== undefined && ancestor > 1 && ancestor !== process.pid && depth < 10; depth++)
      ancestor = parentOf(ancestor)
    if (ancestor === process.pid) pids.push(Number(entry))
  }
  return pids
}

describe('a browser that dies', () => {
  it('leaves the emulator answering, and the next picture starts another browser', async () => {
    const emulator = createEmulator({ clock: 'manual' })
    try {
      await emulator.ready()
      const project = emulator.emulator.world.projectBySlug('welcome-deck')!
      const slide = emulator.emulator.world.slidesOf(project.id)[0]!.id
      expect(decodePng(await emulator.control.slidePicture('welcome-deck', slide, { width: 320 })).width).toBe(320)
      const pids = checkerBrowserPids()
      expect(pids).toHaveLength(1)
      // Its fresh profile, which must not outlive it.
      const profile = /--user-data-dir=([^\0]+)/.exec(readFileSync(`/proc/${pids[0]}/cmdline`, 'utf8'))?.[1]
      expect(profile).toContain('presentation-emulator-check-')
      process.kill(pids[0]!, 'SIGKILL')
      // Whether the next picture meets the dying browser (a 503 naming its path) or a new one, the emulator answers.
      const next = await emulator.control.slidePicture('welcome-deck', slide, { width: 320 }).catch((error: unknown) => error)
      if (next instanceof Uint8Array) expect(decodePng(next).width).toBe(320)
      else expect(next).toMatchObject({ status: 503, code: 'SLIDE_CHECKER_UNAVAILABLE' })
      expect((await api(emulator, 'GET', '/projects')).status).toBe(200)
      expect(decodePng(await emulator.control.slidePicture('welcome-deck', slide, { width: 320 })).width).toBe(320)
      expect(checkerBrowserPids().filter((pid) => pid !== pids[0])).toHaveLength(1)
      // The killed browser's profile is removed once the checker sees it gone, not when the process exits.
      await vi.waitFor(() => expect(existsSync(profile!)).toBe(false), { timeout: 15_000, interval: 100 })
    } finally {
      await emulator.close()
    }
    expect(checkerBrowserPids()).toEqual([])
  })
})

describe('a browser that dies during a deck’s pictures', () => {
  it('answers a 503 naming the browser path or finishes with a new browser; the emulator answers and its profile goes', async () => {
    const emulator = createEmulator({ clock: 'manual' })
    try {
      await emulator.ready()
      const project = (await api(emulator, 'POST', '/projects', { name: 'Dies midway' })).body
      for (let i = 0; i < 12; i++) {
        const tsx = `export default function S${i}() {\n  return <section style={{ padding: 48 }}><h1>Slide ${i}</h1></section>;\n}\n`
        expect(
          (await api(emulator, 'POST', `/projects/${project.projectSlug}/slides`, { name: `S${i}`, files: { 'slide.tsx': tsx } })).status,
        ).toBe(200)
      }
      let killed: { pid: number; profile: string } | undefined
      // The browser is killed when the first slide is done, with the deck's other looks in flight.
      const outcome = await emulator.control
        .slidePictures(project.projectSlug, {
          width: 640,
          onProgress: (done) => {
            if (done !== 1 || killed !== undefined) return
            const [pid] = checkerBrowserPids()
            const profile = /--user-data-dir=([^\0]+)/.exec(readFileSync(`/proc/${pid}/cmdline`, 'utf8'))?.[1]
            killed = { pid: pid!, profile: profile! }
            process.kill(pid!, 'SIGKILL')
          },
        })
        .catch((error: unknown) => error)
      expect(killed?.profile).toContain('presentation-emulator-check-')
      if (outcome instanceof Error) {
        // The deck's answer names the browser that died, as the control plane's 503 does.
        expect(outcome).toMatchObject({ status: 503, code: 'SLIDE_CHECKER_UNAVAILABLE' })
        expect(String((outcome as { hint?: string }).hint ?? outcome.message)).toContain(CHROMIUM_PATH)
      } else {
        // Or the slides not yet rendered were rendered again in a new browser: every picture is still there and decodes.
        const { pictures } = outcome as { pictures: Array<{ png: Uint8Array }> }
        expect(pictures).toHaveLength(12)
        for (const { png } of pictures) expect(decodePng(png).width).toBe(640)
      }
      expect((await api(emulator, 'GET', '/projects')).status).toBe(200)
      const again = await emulator.control.slidePictures(project.projectSlug, { width: 640 })
      expect(again.pictures).toHaveLength(12)
      expect(checkerBrowserPids().filter((pid) => pid !== killed!.pid)).toHaveLength(1)
      await vi.waitFor(() => expect(existsSync(killed!.profile)).toBe(false), { timeout: 15_000, interval: 100 })
    } finally {
      await emulator.close()
    }
    expect(checkerBrowserPids()).toEqual([])
  })
})

describe('a browser that fails to start', () => {
  it('is a 503 naming the browser path and how to give one; the emulator and its data checks go on', async () => {
    // An executable that exits at once: found, started, and gone before Playwright can speak to it.
    const emulator = createEmulator({ clock: 'manual', chromiumPath: '/bin/false' })
    try {
      await emulator.ready()
      const project = emulator.emulator.world.projectBySlug('welcome-deck')!
      const slide = emulator.emulator.world.slidesOf(project.id)[0]!.id
      const response = await emulator.fetch(`${ORIGIN}/_emulator/projects/welcome-deck/slides/${slide}/picture`, { method: 'POST' })
      expect(response.status).toBe(503)
      expect(response.headers.get('x-service-error-code')).toBe('SLIDE_CHECKER_UNAVAILABLE')
      const body = (await response.json()) as { hint: string }
      expect(body.hint).toContain('/bin/false')
      expect(body.hint).toContain('CHROMIUM_PATH')
      // The matcher with layout: the same 503, naming its option.
      const refused = await expect(emulator)
        .toRenderSlides('welcome-deck', { layout: true })
        .then(
          () => undefined,
          (error: unknown) => error,
        )
      expect(refused).toBeInstanceOf(ServiceError)
      expect((refused as ServiceError).code).toBe('SLIDE_CHECKER_UNAVAILABLE')
      expect((refused as ServiceError).message).toMatch(
        /toRenderSlides\("welcome-deck", \{ layout: true \}\) measures layout in a browser.*\/bin\/false/,
      )
      const data = await emulator.control.checkSlides('welcome-deck')
      expect(data.rendered).toBe(data.slides.length)
      expect((await api(emulator, 'GET', '/projects')).status).toBe(200)
    } finally {
      await emulator.close()
    }
  })
})

describe('check --pictures DIR', () => {
  let dir: string
  beforeAll(async () => {
    process.env.CHROMIUM_PATH ??= CHROMIUM_PATH
    dir = await mkdtemp(join(tmpdir(), 'pictures-cli-'))
    for (const [name, tsx] of [
      ['a-clean', CLEAN],
      ['b-tiny', TRIGGERS['text-too-small']],
    ]) {
      await mkdir(join(dir, 'slides', name!), { recursive: true })
      await writeFile(join(dir, 'slides', name!, 'slide.tsx'), tsx!)
    }
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  const run = async (flags: Record<string, unknown>) => {
    const out: string[] = []
    const err: string[] = []
    const code = await runCheck(
      {
        target: join(dir, 'slides'),
        slideIds: [],
        flags: { budget: 120_000, ...flags },
        reporter: { name: 'human' },
        fileFlag: '--reporter',
        apiKeyOnCommandLine: false,
      },
      { out: (text) => out.push(text), err: (text) => err.push(text), progress: false },
    )
    return { code, out: out.join(''), err: err.join('') }
  }

  it('writes one PNG per slide at the width asked for, reports the findings, and fails only with --fail-on layout', async () => {
    const pictures = join(dir, 'pictures')
    const reported = await run({ pictures, pictureWidth: 400 })
    expect(reported.err).not.toContain('cannot')
    expect(reported.code).toBe(0)
    expect((await readdir(pictures)).sort()).toEqual(['01-a-clean.png', '02-b-tiny.png'])
    const png = decodePng(new Uint8Array(await readFile(join(pictures, '01-a-clean.png'))))
    expect([png.width, png.height]).toEqual([400, 225])
    expect(reported.out).toContain('layout: text-too-small')
    expect(reported.out).toContain('2 rendered, 0 failed, 1 layout finding, of 2 slides')
    const failing = await run({ failOn: 'layout' })
    expect(failing.code).toBe(1)
  })
})
