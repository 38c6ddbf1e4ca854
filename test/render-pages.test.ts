/**
 * What the pages hand the slide renderer, without a browser: each slide's
 * transpiled component and files in the page (a JSON data block that no
 * text can break out of) and in every live update; transpiling once per
 * text, so a second view of an unchanged slide transpiles nothing; and
 * every slide of the seeded world transpiles.
 */
import { describe, expect, it } from 'vitest'
import type { EmulatorRequest } from '../src/core/exchange.js'
import { Emulator } from '../src/emulator.js'
import { WEB_MOUNTS } from '../web/mounts.js'
import { transpilerOf } from '../web/pages/page-server.js'
import type { SlideRenderData } from '../web/render/slide-render.js'

const ALICE = 'pres_test_alice'

function get(path: string): EmulatorRequest {
  return { method: 'GET', path, query: '', headers: { host: '127.0.0.1:4010' }, body: null }
}

async function emulator(): Promise<Emulator> {
  const created = new Emulator({ clock: 'manual', rateLimit: 0 }, { mounts: WEB_MOUNTS })
  await created.ready()
  return created
}

async function api(host: Emulator, method: string, path: string, json?: unknown) {
  const response = await host.handle({
    method,
    path: `/v1${path}`,
    query: '',
    headers: { authorization: `Bearer ${ALICE}`, 'content-type': 'application/json' },
    body: json === undefined ? null : new TextEncoder().encode(JSON.stringify(json)),
  })
  return JSON.parse(response.body ?? 'null')
}

/** The render data block of a page. */
function renderData(html: string): { frameCss: string; renderVersion: string; slides: Array<{ id: string; render: SlideRenderData }> } {
  const block = /<script type="application\/json" id="deck-render">([\s\S]*?)<\/script>/.exec(html)
  expect(block, 'the page has its render data block').not.toBeNull()
  return JSON.parse(block![1]!)
}

describe('the pages’ render data', () => {
  it('holds each slide’s transpiled component, files, props and the frames’ stylesheet', async () => {
    const host = await emulator()
    const page = await host.handle(get('/editor/welcome-deck'))
    const data = renderData(page.body!)
    expect(data.slides.length).toBeGreaterThan(1)
    for (const { render } of data.slides) {
      expect(render.problem).toBeNull()
      expect(render.code).toContain('exports.default')
      expect(JSON.parse(render.content)).toHaveProperty('title')
      expect(render.props).toHaveProperty('accent')
    }
    expect(data.frameCss).toContain('.slide{')
    expect(data.frameCss).toMatch(/:root\{--[a-z-]+:/)
  })

  it('cannot be broken out of by any text a slide holds', async () => {
    const host = await emulator()
    const project = await api(host, 'POST', '/projects', { name: 'Escapes' })
    const title = '</script><script>alert(1)</script><!--'
    await api(host, 'POST', `/projects/${project.projectSlug}/slides`, {
      files: { 'slide.content.json': JSON.stringify({ title, blocks: [] }) },
    })
    const html = (await host.handle(get(`/editor/${project.projectSlug}`))).body!
    const block = /<script type="application\/json" id="deck-render">([\s\S]*?)<\/script>/.exec(html)![1]!
    expect(block).not.toContain('<')
    expect(JSON.parse(JSON.parse(block).slides[0].render.content).title).toBe(title)
  })

  it('transpiles a text once: a second view, a reload and a live update of an unchanged slide transpile nothing', async () => {
    const host = await emulator()
    const transpiler = transpilerOf(host)
    await host.handle(get('/editor/welcome-deck'))
    const first = transpiler.stats
    expect(first.transpiled).toBeGreaterThan(0)
    await host.handle(get('/editor/welcome-deck'))
    await host.handle(get('/sites/welcome-deck.sites.localhost/'))
    expect(transpiler.stats.transpiled).toBe(first.transpiled)
    // A change to one slide's content: its component text is unchanged, so still nothing to transpile.
    const slides = (await api(host, 'GET', '/projects/welcome-deck/slides')).slides
    await api(host, 'PUT', `/projects/welcome-deck/slides/${slides[0].id}`, { files: { 'slide.content.json': '{"title":"New"}' } })
    await host.handle(get('/editor/welcome-deck'))
    expect(transpiler.stats.transpiled).toBe(first.transpiled)
    // A new component text is transpiled, once.
    await api(host, 'PUT', `/projects/welcome-deck/slides/${slides[0].id}`, { files: { 'slide.tsx': 'export default () => <p>new</p>' } })
    await host.handle(get('/editor/welcome-deck'))
    await host.handle(get('/editor/welcome-deck'))
    expect(transpiler.stats.transpiled).toBe(first.transpiled + 1)
    // Another emulator has its own transpiler.
    expect(transpilerOf(await emulator())).not.toBe(transpiler)
  })

  it('transpiles every slide of the seeded world', async () => {
    const host = await emulator()
    const projects = host.world.projects.all()
    expect(projects.length).toBeGreaterThan(20)
    for (const project of projects) {
      const html = (await host.handle(get(`/editor/${encodeURIComponent(project.slug)}`))).body!
      for (const { id, render } of renderData(html).slides) expect(render.problem, `${project.slug} ${id}`).toBeNull()
    }
  })
})
