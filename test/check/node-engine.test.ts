/**
 * The Node slide checker (`web/check/node/`): slides checked as data in a
 * process of its own, without a browser. What it reports for a slide that
 * renders and for each way one fails (with the editor's slide.tsx line and
 * column), what the global scope gives a slide (Date, Math.random, Intl,
 * console), that one slide cannot change the next one's result, that a
 * process ended for its time or memory is replaced, and that the Node
 * entry's emulator checks through it with no Chromium.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Emulator } from '../../src/emulator.js'
import { generateDeck } from '../../src/content/deck.js'
import { SLIDE_DESIGNS } from '../../src/content/designs.js'
import { createFaker } from '../../src/content/faker-en.js'
import type { SlideCheckResult } from '../../src/model/slide-checker.js'
import { NodeSlideChecker } from '../../web/check/node/checker.js'
import { type BoundsExpectation, LEFTOVERS } from '../browser/support/hostile-corpus.js'
import { renderSlide } from '../support/render-slide.js'
import { childPids, input, running, showing } from './support.js'

const RENDERS = input(
  `import content from "./slide.content.json";

export default function Review({ accent }: { accent: string }) {
  const items: string[] = content.items;
  return (
    <section className="slide" style={{ color: accent }}>
      <h1>{content.title}</h1>
      <p>{items.length}   points:</p>
      <ul>{items.map((item, i) => <li key={i}>{i + 1}. {item}</li>)}</ul>
      <script>{"never read"}</script>
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

const THROWS = input(`export default function Broken() {
  const items: string[] = [];
  throw new Error("no items: " + items.length);
}
`)

describe('the Node slide checker', () => {
  let emulator: Emulator
  let checker: NodeSlideChecker

  beforeAll(async () => {
    emulator = new Emulator({ clock: 'manual' }, {})
    await emulator.ready()
    checker = new NodeSlideChecker(emulator)
  })
  afterAll(async () => {
    await checker?.close()
    emulator?.close()
  })

  it('starts nothing until the first check', () => {
    expect(checker.pid).toBeUndefined()
    expect(childPids()).toEqual([])
  })

  it('reports a slide that renders: what a reader sees (sanitised: no script), its elements and the controls’ notes', async () => {
    const { result, html } = await checker.render(RENDERS)
    expect(result.error).toBeUndefined()
    expect(result).toMatchObject({ status: 'rendered', text: 'Quarterly review 2 points: 1. Revenue up 2. Costs down', elements: 6 })
    expect(result.notes).toHaveLength(1)
    expect(result.notes[0]).toContain('"ref"')
    expect(html).toContain('<script>never read</script>')
    expect(checker.pid).toBeGreaterThan(0)
  })

  it('reports a component that throws as a runtime error at its line and column in slide.tsx', async () => {
    const result = await checker.check(THROWS)
    expect(result).toMatchObject({
      status: 'error',
      text: '',
      elements: 0,
      error: { kind: 'runtime', file: 'slide.tsx', line: 3, column: 9, message: 'no items: 0' },
    })
  })

  it('reports an unknown import (left-pad) as an import error naming it', async () => {
    const result = await checker.check(
      input('import leftPad from "left-pad";\n\nexport default function P() {\n  return <p>{leftPad("x", 3)}</p>;\n}\n'),
    )
    // At the import declaration's `import` keyword, not in the code the transpiler wrote for it on that line.
    expect(result).toMatchObject({ status: 'error', error: { kind: 'import', file: 'slide.tsx', line: 1, column: 1 } })
    expect(result.error?.message).toContain('"left-pad"')
    const second = await checker.check(
      input(
        'import content from "./slide.content.json";\n  import { padStart } from \'left-pad\'\nexport default function P() {\n  return <p>{padStart(content.title, 3)}</p>;\n}\n',
      ),
    )
    expect(second).toMatchObject({ status: 'error', error: { kind: 'import', file: 'slide.tsx', line: 2, column: 3 } })
  })

  it('reports no default export, as the emulator finds it before running anything', async () => {
    const result = await checker.check(input('export function Slide() {\n  return <p>x</p>;\n}\n'))
    expect(result).toMatchObject({ status: 'error', error: { kind: 'source', file: 'slide.tsx' } })
    const nullish = await checker.check(input('const Slide = null;\nexport default Slide;\n'))
    expect(nullish).toMatchObject({ status: 'error', error: { kind: 'no-default-export', file: 'slide.tsx' } })
  })

  it('spells out React’s production errors, at their place', async () => {
    const result = await checker.check(input('export default function S() {\n  return <p>{{ an: "object" } as any}</p>;\n}\n'))
    expect(result).toMatchObject({ status: 'error', error: { kind: 'runtime' } })
    expect(result.error?.message).toMatch(/^Objects are not valid as a React child \(found: object with keys \{an\}\)/)
  })

  it('stops an endless loop after 2 s by ending its process: timeout, and the next slide renders in a fresh one', async () => {
    const before = checker.pid!
    const result = await checker.check(input('export default function Forever() {\n  for (;;) {}\n}\n'))
    expect(result).toMatchObject({ status: 'timeout', error: { kind: 'timeout', file: 'slide.tsx' }, text: '', elements: 0 })
    await expect.poll(() => running(before)).toBe(false)
    expect((await checker.check(RENDERS)).status).toBe('rendered')
    expect(checker.pid).not.toBe(before)
  })

  it('refuses markup over the limit before it leaves the process: too-large', async () => {
    const result = await checker.check(input('export default function S() {\n  return <p>{"x".repeat(1_200_000)}</p>;\n}\n'))
    expect(result).toMatchObject({ status: 'too-large', error: { kind: 'too-large' } })
    expect(result.error?.message).toMatch(/markup is 1,200,007 characters, over the 1,000,000 a slide may have/)
    const grows = await checker.check(input('export default function S() {\n  return <p>{"\\u00a0".repeat(900_000)}</p>;\n}\n'))
    expect(grows.error?.message).toMatch(/markup grows to 5,400,007 characters once sanitised/)
    const picture = await checker.check(
      input('export default function S() {\n  return <>{Array.from({ length: 80000 }, (_, i) => <svg key={i} />)}</>;\n}\n'),
    )
    expect(picture.error?.message).toMatch(/markup grows to 3,280,000 characters as the picture of the slide/)
  })

  it('ends a process that grows past its heap ceiling: crashed, the process gone, the next check in a fresh one', async () => {
    // A low ceiling, so that the hog reaches it well within its 2 s.
    const small = new NodeSlideChecker(emulator, { heapMb: 64 })
    try {
      await small.check(RENDERS)
      const before = small.pid!
      const result = await small.check(
        input(
          'export default function Hog() {\n  const all: number[][] = [];\n  for (let i = 0; ; i++) all.push(new Array(1_000_000).fill(i + 0.5));\n}\n',
        ),
      )
      expect(result).toMatchObject({ status: 'crashed', error: { kind: 'crashed', file: 'slide.tsx' } })
      expect(result.error?.message).toMatch(/memory ceiling is 64 MB/)
      await expect.poll(() => running(before)).toBe(false)
      expect((await small.check(RENDERS)).status).toBe('rendered')
      expect(small.pid).not.toBe(before)
    } finally {
      await small.close()
    }
  })

  it('ends a process whose memory outside the heap (array buffers) grows past its ceiling: crashed', async () => {
    const small = new NodeSlideChecker(emulator, { rssLimitBytes: 400 * 1024 * 1024 })
    try {
      const result = await small.check(
        input(
          'export default function Hog() {\n  const all: Uint8Array[] = [];\n  for (;;) all.push(new Uint8Array(50_000_000).fill(1));\n}\n',
        ),
      )
      expect(result).toMatchObject({ status: 'crashed', error: { kind: 'crashed' } })
      expect(result.error?.message).toMatch(/more than 400 MB of memory/)
    } finally {
      await small.close()
    }
  })

  it('gives a slide Date, Math.random, Intl (frozen, as a locked worker does) and a console that writes nowhere', async () => {
    const result = await checker.check(
      showing(
        '[typeof Date.now(), new Date(0).toISOString(), Math.random() < 1, typeof Intl, new Intl.NumberFormat("en-US").format(1234.5), Object.isFrozen(Intl.NumberFormat.prototype), typeof console.log, String(console.log("hi")), new Date(2020, 0, 2).toLocaleDateString("en-US")].join("|")',
      ),
    )
    expect(result.error).toBeUndefined()
    expect(result.text).toBe('number|1970-01-01T00:00:00.000Z|true|object|1,234.5|true|function|undefined|1/2/2020')
  })

  it('gives a slide none of Node’s own globals, and nothing of the worker’s that is not the language’s', async () => {
    const names = ['process', 'require', 'module', 'Buffer', 'fetch', 'setTimeout', 'setImmediate', 'setInterval', 'WebAssembly', 'global']
    const result = await checker.check(
      showing(`${JSON.stringify(names)}.map((name) => name + ":" + typeof (globalThis as any)[name]).join(" ")`),
    )
    expect(result.text).toBe(names.map((name) => `${name}:${name === 'global' ? 'object' : 'undefined'}`).join(' '))
  })

  it('keeps one slide from changing the next one’s result', async () => {
    const tries = `const tries: string[] = [];
function t(name: string, run: () => void) { try { run(); tries.push(name + ": done"); } catch { tries.push(name + ": refused"); } }
t("Array.prototype", () => { (Array.prototype as any).map = () => ["changed"]; });
t("globalThis", () => { (globalThis as any).leftover = "left"; });
t("JSON", () => { (JSON as any).parse = () => ({}); });
t("Error.prepareStackTrace", () => { (Error as any).prepareStackTrace = () => "SET"; });
t("Error.stackTraceLimit", () => { (Error as any).stackTraceLimit = 0; });`
    const first = await checker.check(showing('tries.join("; ")', tries))
    expect(first.text).toBe(
      'Array.prototype: refused; globalThis: refused; JSON: refused; Error.prepareStackTrace: refused; Error.stackTraceLimit: refused',
    )
    const next = await checker.check(
      showing(
        '[[1].map((n) => n + 1).join(), String((globalThis as any).leftover), String(new Error("e").stack).split("\\n").length > 1].join("|")',
      ),
    )
    expect(next.text).toBe('2|undefined|true')
    expect((await checker.check(THROWS)).error).toMatchObject({ line: 3, column: 9 })
  })

  it('holds against the hostile corpus’s leftovers: each shows what it shows in a browser, and the slide after it is untouched', async () => {
    const meets = (result: SlideCheckResult, expected: BoundsExpectation, name: string) => {
      if (expected.state === 'rendered') {
        expect(result.status, `${name}: ${result.error?.message}`).toBe('rendered')
        // A browser worker's scope reaches more frozen objects than Node's (the audit counts them): what matters is what changed or is unfrozen.
        if (expected.text !== undefined) expect(result.text.replace(/^walked only \d+/, 'walked'), name).toMatch(expected.text)
      } else if (expected.orRendered !== true) {
        expect(result.status, name).not.toBe('rendered')
        expect(result.error?.message, name).toMatch(expected.error)
      }
    }
    for (const slide of LEFTOVERS) {
      meets(await checker.check(input(slide.tsx)), slide.expect, slide.name)
      if (slide.next !== undefined) meets(await checker.check(input(slide.next.tsx)), slide.next.expect, `after ${slide.name}`)
    }
  })

  it('renders the eight generated designs to the very markup React gives them in this process', async () => {
    for (const design of SLIDE_DESIGNS) {
      const [generated] = generateDeck(createFaker(3), { prompt: 'Harbour logistics', designs: [design] })
      const { result, html } = await checker.render({ files: generated!.files, config: {} })
      expect(result.status, `${design}: ${result.error?.message}`).toBe('rendered')
      expect(html, design).toBe(renderSlide(generated!.files))
      expect(result.text.length, design).toBeGreaterThan(0)
    }
  })

  it('checks slides given at once one after another, each its own outcome', async () => {
    const results = await Promise.all([RENDERS, THROWS, RENDERS, THROWS].map((slide) => checker.check(slide)))
    expect(results.map((result) => result.error?.kind ?? result.status)).toEqual(['rendered', 'runtime', 'rendered', 'runtime'])
  })

  it('ends its process when closed, and answers no more checks', async () => {
    await checker.check(RENDERS)
    const pid = checker.pid!
    expect(running(pid)).toBe(true)
    await checker.close()
    expect(running(pid)).toBe(false)
    expect(childPids()).toEqual([])
    await expect(checker.check(RENDERS)).rejects.toThrow('closed')
  })
})

describe('the slide checker the Node entry wires (createEmulator), with no Chromium', () => {
  it('checks through the port on the Node engine, loaded on the first check', async () => {
    const { createEmulator } = await import('../../src/index.js')
    const chromium = process.env.CHROMIUM_PATH
    process.env.CHROMIUM_PATH = '/nonexistent/chromium'
    const emulator = createEmulator({ clock: 'manual' })
    try {
      expect(childPids()).toEqual([])
      const result = await emulator.emulator.slideChecker.check(RENDERS)
      expect(result).toMatchObject({ status: 'rendered', text: 'Quarterly review 2 points: 1. Revenue up 2. Costs down' })
      expect(childPids()).toHaveLength(1)
    } finally {
      await emulator.close()
      if (chromium === undefined) delete process.env.CHROMIUM_PATH
      else process.env.CHROMIUM_PATH = chromium
    }
    expect(childPids()).toEqual([])
  })
})
