/**
 * Slides rendered as their components, in Chromium: what a component
 * computes and how its props and the project's tokens style it, in the
 * editor, the overview and the published site; live updates; the controls
 * panel; the Component / Content toggle; and each kind of bad component
 * showing its own message while the rest of the deck renders.
 */
import type { Browser } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium, screenshotPath } from './support/browser.js'
import { serveEmulator, type ServedEmulator } from './support/emulator.js'
import {
  ALICE,
  displayFrame,
  errorOf,
  foreignRequests,
  layer,
  makeDeck,
  type ObservedPage,
  observedPage,
  settled,
  shown,
} from './support/render.js'

/** Renders take a worker each: on a busy machine, seconds. */
const POLL = { timeout: 30_000 }

const TITLE_CONTENT = { title: 'Quarterly review', blocks: [{ type: 'bullets', items: ['Revenue up', 'Costs down', 'Churn flat'] }] }

/** A component that computes its output, and is styled by a prop and a token. */
const COMPUTED = `import content from "./slide.content.json";

type Props = { accent?: string; shout?: boolean };

export default function Computed({ accent = "red", shout = false }: Props) {
  const items: string[] = content.blocks[0].items;
  const title = shout ? content.title.toUpperCase() : content.title;
  return (
    <section className="slide" style={{ borderTop: "12px solid var(--brand-blue)" }}>
      <h1 id="title" style={{ color: accent }}>{title}</h1>
      <p id="count">{items.length} points, {items.map((item) => item.length).reduce((a, b) => a + b, 0)} characters</p>
      <ul>{items.map((item, i) => <li key={i}>{i + 1}. {item}</li>)}</ul>
    </section>
  );
}
`
const COMPUTED_CONTROLS = {
  controls: [
    { id: 'accent', type: 'color', label: 'Accent colour', default: '#0a7f3f' },
    { id: 'shout', type: 'toggle', label: 'Shout the title', default: false },
  ],
}

describe('slides rendered as their components, in Chromium', () => {
  let browser: Browser
  let served: ServedEmulator
  let observed: ObservedPage | undefined

  beforeAll(async () => {
    browser = await launchChromium()
    served = await serveEmulator()
  })
  afterAll(async () => {
    await browser?.close()
    await served?.close()
  })
  afterEach(async () => {
    if (observed === undefined) return
    // Nothing but the page, its stream and assets, and the renderer's workers; no error, no dialog.
    expect(foreignRequests(observed.requests, served.origin)).toEqual([])
    expect(observed.dialogs).toEqual([])
    expect(observed.errors).toEqual([])
    await observed.close()
    observed = undefined
  })

  const open = async (path: string) => {
    observed = await observedPage(browser)
    await observed.page.goto(`${served.origin}${path}`)
    return observed.page
  }

  it('shows what a component computes, styled by its props and the project’s tokens, in the editor, the overview and the published site', async () => {
    const { slug, ids } = await makeDeck(served, 'Computed deck', [{ tsx: COMPUTED, content: TITLE_CONTENT, controls: COMPUTED_CONTROLS }])
    await served.api('PUT', `/projects/${slug}/config`, ALICE, {
      config: { tokens: { palette: [{ name: '--brand-blue', value: '#1e40af' }], fonts: [] } },
    })
    const page = await open(`/editor/${slug}`)
    await settled(page)
    const stage = await displayFrame(page, ids[0]!, 'stage')
    expect(await stage.locator('#count').textContent()).toBe('3 points, 30 characters')
    expect(await stage.locator('li').allTextContents()).toEqual(['1. Revenue up', '2. Costs down', '3. Churn flat'])
    expect(await stage.locator('#title').evaluate((el) => getComputedStyle(el).color)).toBe('rgb(10, 127, 63)')
    expect(await stage.locator('section').evaluate((el) => getComputedStyle(el).borderTopColor)).toBe('rgb(30, 64, 175)')
    // The content rendering is underneath, hidden while the component shows.
    expect(await page.locator(`#stage .slide-frame[data-slide-id="${ids[0]}"] > .slide`).isVisible()).toBe(false)
    await page.screenshot({ path: screenshotPath('render-editor-component') })

    await page.keyboard.press('o')
    expect(await layer(page, ids[0]!, 'thumb').isVisible()).toBe(true)
    expect((await shown(page, ids[0]!, 'thumb')).text).toContain('3 points, 30 characters')
    // A thumbnail is a picture (an SVG image runs nothing and loads nothing), drawn at its size: no frame per thumbnail.
    const picture = layer(page, ids[0]!, 'thumb').locator('img.slide-picture')
    expect(await picture.getAttribute('src')).toMatch(/^data:image\/svg\+xml;charset=utf-8,/)
    expect(await picture.evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth)).toBe(1280)
    expect(await page.locator('#thumbs iframe').count()).toBe(0)
    await page.screenshot({ path: screenshotPath('render-overview') })

    const published = (await served.api('POST', `/projects/${slug}/publish`, ALICE)).body
    await page.goto(published.publishedUrl)
    await settled(page)
    expect((await shown(page, ids[0]!, 'stage')).text).toContain('1. Revenue up')
    await page.screenshot({ path: screenshotPath('render-site') })
  })

  it('shows a PUT of slide.tsx while the editor is open, without a reload (the issue’s #112233 example)', async () => {
    const { slug, ids } = await makeDeck(served, 'Live deck', [
      { content: { title: 'Hello world', blocks: [] } },
      { content: { title: 'Second', blocks: [] } },
    ])
    const page = await open(`/editor/${slug}`)
    await settled(page)
    await expect.poll(() => page.locator('#live').textContent(), POLL).toBe('Live')
    const navigations: string[] = []
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) navigations.push(frame.url())
    })
    await page.screenshot({ path: screenshotPath('render-before-put') })
    const put = await served.api('PUT', `/projects/${slug}/slides/${ids[0]}`, ALICE, {
      files: {
        'slide.tsx':
          'import content from "./slide.content.json";\n\nexport default function Slide() {\n  return <div style={{ background: "#112233", color: "white", height: "100%" }}>{content.title.toUpperCase()}</div>;\n}\n',
      },
    })
    expect(put.status).toBe(200)
    await expect.poll(async () => (await shown(page, ids[0]!, 'stage')).text, { timeout: 30_000 }).toBe('HELLO WORLD')
    const stage = await displayFrame(page, ids[0]!, 'stage')
    expect(await stage.locator('#slide-root > div').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(17, 34, 51)')
    expect(navigations).toEqual([])
    await page.screenshot({ path: screenshotPath('render-after-put-112233') })
  })

  it('re-renders a slide with a control changed in the panel at once, and saves nothing', async () => {
    const { slug, ids } = await makeDeck(served, 'Controls deck', [{ tsx: COMPUTED, content: TITLE_CONTENT, controls: COMPUTED_CONTROLS }])
    const before = (await served.api('GET', `/projects/${slug}`, ALICE)).body.latestVersion.id
    const page = await open(`/editor/${slug}`)
    await settled(page)
    const panel = page.locator('#controls-panel')
    await expect.poll(() => panel.isVisible(), POLL).toBe(true)
    expect(await panel.textContent()).toContain('Nothing is saved')
    await panel.locator('[data-control-id="shout"] input[type="checkbox"]').check()
    await expect.poll(async () => (await shown(page, ids[0]!, 'stage')).text, POLL).toContain('QUARTERLY REVIEW')
    await panel.locator('[data-control-id="accent"] input[type="text"]').fill('#7c3aed')
    const stage = await displayFrame(page, ids[0]!, 'stage')
    await expect.poll(() => stage.locator('#title').evaluate((el) => getComputedStyle(el).color), POLL).toBe('rgb(124, 58, 237)')
    // A theme token as the value: the picker shows the colour it stands for (not black).
    const accent = panel.locator('[data-control-id="accent"]')
    await accent.locator('input[type="text"]').fill('var(--slide-decor)')
    await expect.poll(() => stage.locator('#title').evaluate((el) => getComputedStyle(el).color), POLL).not.toBe('rgb(124, 58, 237)')
    const token = await stage.locator('#title').evaluate((el) => getComputedStyle(el).color)
    const hex = `#${token
      .match(/\d+/g)!
      .slice(0, 3)
      .map((n) => Number(n).toString(16).padStart(2, '0'))
      .join('')}`
    expect(hex).not.toBe('#000000')
    expect(await accent.locator('input[type="color"]').inputValue()).toBe(hex)
    await accent.locator('input[type="text"]').fill('#7c3aed')
    // The thumbnail follows, and the reset goes back to the defaults.
    await expect.poll(async () => (await shown(page, ids[0]!, 'thumb')).text, POLL).toContain('QUARTERLY REVIEW')
    await page.screenshot({ path: screenshotPath('render-controls-changed') })
    await page.getByTestId('controls-reset').click()
    await expect.poll(async () => (await shown(page, ids[0]!, 'stage')).text, POLL).toContain('Quarterly review')
    // Nothing was written: the same version, the same controls file.
    const after = (await served.api('GET', `/projects/${slug}`, ALICE)).body.latestVersion.id
    expect(after).toBe(before)
  })

  it('switches between the components and the content rendering, and keeps the choice', async () => {
    const { slug, ids } = await makeDeck(served, 'Toggle deck', [{ tsx: COMPUTED, content: TITLE_CONTENT, controls: COMPUTED_CONTROLS }])
    const page = await open(`/editor/${slug}`)
    await settled(page)
    const content = page.locator(`#stage .slide-frame[data-slide-id="${ids[0]}"] > .slide`)
    expect(await content.isVisible()).toBe(false)
    await page.locator('#view-content').click()
    expect(await content.isVisible()).toBe(true)
    expect(await content.locator('h1').textContent()).toBe('Quarterly review')
    expect(await layer(page, ids[0]!, 'stage').isVisible()).toBe(false)
    expect(await page.locator('#controls-panel').isVisible()).toBe(false)
    expect(await page.locator('#view-content').getAttribute('aria-pressed')).toBe('true')
    await page.screenshot({ path: screenshotPath('render-toggle-content') })
    await page.reload()
    expect(await content.isVisible()).toBe(true)
    await page.locator('#view-component').click()
    await expect.poll(() => layer(page, ids[0]!, 'stage').getAttribute('data-state'), POLL).toBe('rendered')
    expect(await content.isVisible()).toBe(false)
  })

  it('renders statically: hooks give their initial state, effects and handlers never run', async () => {
    const { slug, ids } = await makeDeck(served, 'Hooks deck', [
      {
        tsx: `import { useEffect, useState } from "react";
export default function Counter() {
  const [count, setCount] = useState(41);
  useEffect(() => { setCount(1000); throw new Error("effects never run"); }, []);
  return <button id="b" onClick={() => setCount(count + 1)}>{count + 1}</button>;
}
`,
      },
    ])
    const page = await open(`/editor/${slug}`)
    await settled(page)
    expect(await layer(page, ids[0]!, 'stage').getAttribute('data-state')).toBe('rendered')
    const { text, html } = await shown(page, ids[0]!, 'stage')
    expect(text).toBe('42')
    expect(html).not.toContain('onclick')
  })

  it('shows each bad component’s own message over its content rendering, and renders the rest of the deck', async () => {
    const { slug, ids } = await makeDeck(served, 'Bad components', [
      { name: 'Fine', content: { title: 'Fine slide', blocks: [] } },
      { name: 'Throws', tsx: 'export default function S() {\n  const x: any = null;\n  return <p>{x.missing}</p>;\n}\n' },
      { name: 'Imports', tsx: 'import _ from "lodash";\nexport default function S() { return <p>{_.now()}</p> }\n' },
      { name: 'Object child', tsx: 'export default function S() {\n  return <p>{{ a: 1 } as any}</p>;\n}\n' },
      { name: 'Never returns', tsx: 'export default function S() {\n  while (true) {}\n}\n' },
      { name: 'Fine too', content: { title: 'Also fine', blocks: [] } },
    ])
    const before = (await served.api('GET', `/projects/${slug}`, ALICE)).body.latestVersion.id
    const journal = (await served.emulator.control.listRequests({})).requests.length
    const page = await open(`/editor/${slug}`)
    await settled(page)
    expect((await shown(page, ids[0]!)).text).toContain('Fine slide')
    expect((await shown(page, ids[5]!)).text).toContain('Also fine')
    const expected: Array<[number, RegExp]> = [
      [1, /Component error.*Cannot read properties of null \(reading 'missing'\).*slide\.tsx:3:\d+.*content rendering/s],
      [
        2,
        /slide\.tsx imports "lodash", which a slide cannot use\. A slide may import only: react, react\/jsx-runtime, \.\/slide\.content\.json, \.\/slide\.controls\.json\..*slide\.tsx:1:/s,
      ],
      [3, /Objects are not valid as a React child \(found: object with keys \{a\}\)/],
      [4, /Component stopped.*did not finish within 2 s/s],
    ]
    for (const [index, message] of expected) {
      expect(await layer(page, ids[index]!, 'thumb').getAttribute('data-state')).toBe('failed')
      expect(await errorOf(page, ids[index]!)).toMatch(message)
    }
    // On the stage: the error over the content rendering of the same slide, labelled.
    await page.keyboard.press('ArrowRight')
    const stage = layer(page, ids[1]!, 'stage')
    await expect.poll(() => stage.getAttribute('data-state'), POLL).toBe('failed')
    expect(await stage.locator('.component-error').isVisible()).toBe(true)
    expect(await page.locator(`#stage .slide-frame[data-slide-id="${ids[1]}"] > .slide`).isVisible()).toBe(true)
    await page.screenshot({ path: screenshotPath('render-component-error') })
    // The page still responds, and viewing changed nothing.
    await page.keyboard.press('End')
    expect(await page.locator('#counter').textContent()).toBe('6 / 6')
    expect((await served.emulator.control.listRequests({})).requests.length).toBe(journal)
    expect((await served.api('GET', `/projects/${slug}`, ALICE)).body.latestVersion.id).toBe(before)
  })

  it('says what is wrong with a controls file, and the other props still work', async () => {
    const tsx = 'export default function S(props: Record<string, unknown>) {\n  return <p id="props">{JSON.stringify(props)}</p>;\n}\n'
    const { slug, ids } = await makeDeck(served, 'Controls problems', [
      {
        tsx,
        controls: {
          controls: [
            { id: 'title', type: 'text', label: 'Title', default: 'kept' },
            { id: 'title', type: 'text', label: 'Again', default: 'dropped' },
            { id: '__proto__', default: { polluted: true } },
            { id: 'constructor', default: 1 },
            { id: 'key', default: 'k' },
            { id: 'ref', default: 'r' },
            { id: 'size', type: 'number', default: 3 },
          ],
        },
      },
      { tsx, controls: { notControls: [] } },
    ])
    const page = await open(`/editor/${slug}`)
    await settled(page)
    expect((await shown(page, ids[0]!)).text).toBe('{"title":"kept","size":3}')
    const panel = page.locator('#controls-panel')
    await expect.poll(() => panel.locator('.panel-note').count(), POLL).toBe(5)
    const notes = await panel.locator('.panel-note').allTextContents()
    expect(notes[0]).toMatch(/Control 2 repeats the id "title" of control 1/)
    for (const [index, id] of ['__proto__', 'constructor', 'key', 'ref'].entries())
      expect(notes[index + 1]).toContain(`"${id}", which cannot be a prop`)
    await page.screenshot({ path: screenshotPath('render-controls-notes') })
    await page.keyboard.press('ArrowRight')
    expect((await shown(page, ids[1]!)).text).toBe('{}')
    await expect
      .poll(() => panel.locator('.panel-note').allTextContents(), POLL)
      .toEqual([expect.stringMatching(/is not \{"controls".*no props/)])
  })

  it('shows a stored slide.tsx that does not parse (a state import) with its line and column', async () => {
    const { slug, ids } = await makeDeck(served, 'Imported', [{ content: { title: 'Broken', blocks: [] } }])
    const state = await served.emulator.control.getState()
    const slide = (state as unknown as { slides: Array<{ id: string; files: Record<string, string> }> }).slides.find(
      (s) => s.id === ids[0],
    )!
    slide.files['slide.tsx'] = 'export default function S() {\n  return <div>\n}\n'
    await served.emulator.control.putState(state)
    const page = await open(`/editor/${slug}`)
    await settled(page)
    expect(await errorOf(page, ids[0]!, 'stage')).toMatch(/Unterminated JSX contents\..*slide\.tsx:2:15/s)
    expect(await page.locator(`#stage .slide-frame[data-slide-id="${ids[0]}"] > .slide h1`).textContent()).toBe('Broken')
  })
})
