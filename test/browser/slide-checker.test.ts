/**
 * The slide checker through the core's port (`emulator.slideChecker`), in
 * headless Chromium: what a check reports for a slide that renders and for
 * each way one fails, pictures of the requested size, and that nothing
 * reaches any origin but the emulator's (a canary server counts every
 * connection made to it).
 */
import { readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Emulator } from '../../src/emulator.js'
import type { SlideCheckInput } from '../../src/model/slide-checker.js'
import { type ProjectConfig, REQUIRED_COLOR_KEYS, type SlideFiles } from '../../src/schemas/index.js'
import type { EmulatorRequest } from '../../src/core/exchange.js'
import { createSlideChecker, type SlideCheckHost, SlideNotRenderedError, type WebSlideChecker } from '../../web/check/index.js'
import { RENDER_ASSET_PATH, RENDER_ASSETS } from '../../web/render/limits.js'
import { WEB_MOUNTS } from '../../web/mounts.js'
import { CHROMIUM_PATH } from './support/browser.js'
import { type Canary, startCanary } from './support/render.js'

const slide = (tsx: string, content: unknown = { title: 'Quarterly review' }, controls: unknown = { controls: [] }): SlideFiles => ({
  'slide.tsx': tsx,
  'slide.content.json': JSON.stringify(content),
  'slide.controls.json': JSON.stringify(controls),
})

const input = (files: SlideFiles, config: ProjectConfig = {}): SlideCheckInput => ({ files, config })

/** A component that computes its output from its content and a prop (the control's default). */
const RENDERS = slide(
  `import content from "./slide.content.json";

export default function Review({ accent }: { accent: string }) {
  const items: string[] = content.items;
  return (
    <section className="slide" style={{ color: accent }}>
      <h1>{content.title}</h1>
      <p>{items.length}   points:</p>
      <ul>{items.map((item, i) => <li key={i}>{i + 1}. {item}</li>)}</ul>
    </section>
  );
}
`,
  { title: 'Quarterly review', items: ['Revenue up', 'Costs down'] },
  {
    controls: [
      { id: 'accent', type: 'color', label: 'Accent', default: '#0a7f3f' },
      { id: 'ref', type: 'text', label: 'Ref', default: 'x' },
    ],
  },
)

const THROWS = slide(`export default function Broken() {
  const items: string[] = [];
  throw new Error("no items: " + items.length);
}
`)

const IMPORTS = slide(`import leftPad from "left-pad";

export default function Padded() {
  return <p>{leftPad("x", 3)}</p>;
}
`)

const LOOPS = slide(`export default function Forever() {
  for (;;) {}
  return <p>never</p>;
}
`)

const SYNTAX = slide(`export default function Typo() {
  return <p>unclosed</p
}
`)

/** PNG's signature, then the IHDR chunk's width and height (big-endian, at bytes 16 and 20). */
function pngSize(png: Uint8Array): { width: number; height: number } {
  expect([...png.slice(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength)
  expect(String.fromCharCode(...png.slice(12, 16))).toBe('IHDR')
  return { width: view.getUint32(16), height: view.getUint32(20) }
}

/** The checker's temporary profiles that exist now. */
const profiles = () => readdirSync(tmpdir()).filter((name) => name.startsWith('presentation-emulator-check-'))

describe('the slide checker, through the port, in Chromium', () => {
  let emulator: Emulator
  let canary: Canary
  let profilesBefore: string[]

  beforeAll(async () => {
    process.env.CHROMIUM_PATH ??= CHROMIUM_PATH
    canary = await startCanary({ images: true })
    profilesBefore = profiles()
    emulator = new Emulator({ clock: 'manual' }, { mounts: WEB_MOUNTS, slideChecker: createSlideChecker })
    await emulator.ready()
  })
  afterAll(async () => {
    await emulator?.slideChecker.close()
    emulator?.close()
    await canary?.close()
  })

  it('reports a slide that renders, with what a reader sees, its elements and the controls’ notes', async () => {
    const result = await emulator.slideChecker.check(input(RENDERS))
    expect(result.error).toBeUndefined()
    expect(result.status).toBe('rendered')
    expect(result.text).toBe('Quarterly review 2 points: 1. Revenue up 2. Costs down')
    expect(result.elements).toBe(6)
    expect(result.notes).toHaveLength(1)
    expect(result.notes[0]).toContain('"ref"')
  })

  it('reports a component that throws as a runtime error at its line in slide.tsx', async () => {
    const result = await emulator.slideChecker.check(input(THROWS))
    expect(result).toMatchObject({ status: 'error', text: '', elements: 0, error: { kind: 'runtime', file: 'slide.tsx', line: 3 } })
    expect(result.error?.message).toContain('no items: 0')
  })

  it('reports an import the renderer does not provide as an import error naming it', async () => {
    const result = await emulator.slideChecker.check(input(IMPORTS))
    expect(result).toMatchObject({ status: 'error', error: { kind: 'import', file: 'slide.tsx' } })
    expect(result.error?.message).toContain('left-pad')
  })

  it('stops an endless loop: timeout', async () => {
    const result = await emulator.slideChecker.check(input(LOOPS))
    expect(result).toMatchObject({ status: 'timeout', error: { kind: 'timeout', file: 'slide.tsx' }, text: '', elements: 0 })
  })

  it('reports a syntax error as a source error with its line and column', async () => {
    const result = await emulator.slideChecker.check(input(SYNTAX))
    expect(result).toMatchObject({ status: 'error', error: { kind: 'source', file: 'slide.tsx', line: 3 } })
    expect(result.error?.column).toBeGreaterThan(0)
  })

  it('checks several slides at once with one browser, each its own outcome', async () => {
    const results = await Promise.all([RENDERS, THROWS, RENDERS, IMPORTS].map((files) => emulator.slideChecker.check(input(files))))
    expect(results.map((result) => result.error?.kind ?? result.status)).toEqual(['rendered', 'runtime', 'rendered', 'import'])
  })

  it('takes a PNG of the requested width and 16:9 height, styled by the project’s theme', async () => {
    const png = await emulator.slideChecker.picture(input(RENDERS), { width: 640 })
    expect(pngSize(png)).toEqual({ width: 640, height: 360 })
    expect(pngSize(await emulator.slideChecker.picture(input(RENDERS), { width: 1600 }))).toEqual({ width: 1600, height: 900 })
    const dark = {
      theme: {
        fontFamily: 'Inter',
        radius: '0.5rem',
        colors: {
          default: Object.fromEntries(REQUIRED_COLOR_KEYS.map((key) => [key, key.endsWith('foreground') ? '#ffffff' : '#111111'])),
        },
      },
    } as ProjectConfig
    const themed = await emulator.slideChecker.picture(input(RENDERS, dark), { width: 640 })
    expect(pngSize(themed)).toEqual({ width: 640, height: 360 })
    expect(Buffer.from(themed).equals(Buffer.from(png))).toBe(false)
  })

  it('refuses a picture of a slide that does not render, with the check’s result', async () => {
    const refusal = emulator.slideChecker.picture(input(THROWS), { width: 640 })
    await expect(refusal).rejects.toBeInstanceOf(SlideNotRenderedError)
    await expect(refusal).rejects.toMatchObject({ result: { status: 'error', error: { kind: 'runtime' } } })
  })

  it('reaches no origin but the emulator’s, whatever a slide tries', async () => {
    const url = `${canary.origin}/leak`
    const reaching = slide(
      `import content from "./slide.content.json";

export default function Reach() {
  for (const attempt of [
    () => fetch(content.url),
    () => new XMLHttpRequest().open("GET", content.url),
    () => importScripts(content.url),
    () => new WebSocket(content.url.replace("http", "ws")),
    () => navigator.sendBeacon(content.url, "x"),
  ]) {
    try { attempt(); } catch {}
  }
  return (
    <section style={{ backgroundImage: "url(" + content.url + "/css)" }}>
      <style>{"@import url(" + content.url + "/import); h1 { background: url(" + content.url + "/h1) }"}</style>
      <img src={content.url + "/img"} alt="" />
      <img srcSet={content.url + "/srcset 1x"} alt="" />
      <svg><image href={content.url + "/svg"} /></svg>
      <link rel="stylesheet" href={content.url + "/link"} />
      <video poster={content.url + "/poster"} />
      <iframe src={content.url + "/frame"} />
      <h1>Still here</h1>
    </section>
  );
}
`,
      { url },
    )
    const result = await emulator.slideChecker.check(input(reaching))
    expect(result.status, JSON.stringify(result.error)).toBe('rendered')
    expect(result.text).toBe('Still here')
    expect(pngSize(await emulator.slideChecker.picture(input(reaching), { width: 800 }))).toEqual({ width: 800, height: 450 })
    expect(canary.connections).toBe(0)
    expect(canary.requests).toEqual([])
    const diagnostics = await (emulator.slideChecker as WebSlideChecker).diagnostics()
    expect(diagnostics.blockedRequests).toEqual([])
    expect(diagnostics.errors).toEqual([])
  })

  it('ends its browser and deletes its profile when closed, and answers no more checks', async () => {
    expect(profiles().length).toBeGreaterThan(profilesBefore.length)
    await emulator.slideChecker.close()
    expect(profiles()).toEqual(profilesBefore)
    await expect(emulator.slideChecker.check(input(RENDERS))).rejects.toThrow('closed')
  })
})

describe('the slide checker’s browser, when a document it is served tries to leave', () => {
  let emulator: Emulator
  let checker: WebSlideChecker
  let canary: Canary

  beforeAll(async () => {
    process.env.CHROMIUM_PATH ??= CHROMIUM_PATH
    canary = await startCanary({ images: true })
    emulator = new Emulator({ clock: 'manual' }, { mounts: WEB_MOUNTS })
    await emulator.ready()
    // The emulator, but its display document loads an image from the canary, with no policy to stop it:
    // only the checker's routing stands between the browser and the canary.
    const leaky = async (request: EmulatorRequest) => {
      const response = await emulator.handle(request)
      if (request.path !== `${RENDER_ASSET_PATH}${RENDER_ASSETS.slideDocument}` || response.body === null) return response
      const { 'content-security-policy': _policy, ...headers } = response.headers
      return { ...response, headers, body: response.body.replace('<body>', `<body><img src="${canary.origin}/display.png" alt="">`) }
    }
    const host = new Proxy(emulator, {
      get(target, property) {
        if (property === 'handle') return leaky
        const value = Reflect.get(target, property, target)
        return typeof value === 'function' ? value.bind(target) : value
      },
    }) as SlideCheckHost
    checker = createSlideChecker(host)
  })
  afterAll(async () => {
    await checker?.close()
    emulator?.close()
    await canary?.close()
  })

  it('aborts every request to another origin: none reaches it', async () => {
    expect(pngSize(await checker.picture(input(RENDERS), { width: 640 }))).toEqual({ width: 640, height: 360 })
    expect((await checker.diagnostics()).blockedRequests).toEqual([`${canary.origin}/display.png`])
    expect(canary.connections).toBe(0)
  })
})

describe('the slide checker the Node entry wires (createEmulator)', () => {
  it('renders a slide through the port and closes its browser with the emulator', async () => {
    const { createEmulator } = await import('../../src/index.js')
    const emulator = createEmulator({ clock: 'manual' })
    try {
      const result = await emulator.emulator.slideChecker.check(input(RENDERS))
      expect(result.status).toBe('rendered')
      expect(result.text).toContain('Quarterly review')
      expect(result.elements).toBeGreaterThan(0)
    } finally {
      await emulator.close()
    }
  })
})
