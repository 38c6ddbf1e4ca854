import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEmulator, type PresentationEmulator } from '../src/index.js'

describe('pages', () => {
  let emulator: PresentationEmulator
  const page = async (path: string, init?: RequestInit) => {
    const response = await emulator.fetch(`http://127.0.0.1:4010${path}`, init)
    return { status: response.status, type: response.headers.get('content-type'), html: await response.text() }
  }
  const api = (method: string, path: string, json?: unknown) =>
    emulator.fetch(`http://127.0.0.1:4010/v1${path}`, {
      method,
      headers: { authorization: 'Bearer pres_test_alice' },
      body: json === undefined ? undefined : JSON.stringify(json),
    })

  beforeAll(async () => {
    emulator = createEmulator({ clock: 'manual', rateLimit: 0 })
    await emulator.ready()
  })
  afterAll(() => emulator.close())

  it('serves the editor with the project’s slides in order, rendered from slide.content.json', async () => {
    const { status, type, html } = await page('/editor/welcome-deck')
    expect(status).toBe(200)
    expect(type).toMatch(/^text\/html/)
    const world = emulator.emulator.world
    const slides = world.slidesOf(world.projectBySlug('welcome-deck')!.id)
    let position = -1
    for (const slide of slides) {
      const title = JSON.parse(slide.files['slide.content.json']).title as string
      const at = html.indexOf(`data-slide-id="${slide.id}"`)
      expect(at).toBeGreaterThan(position)
      expect(html).toContain(title)
      position = at
    }
  })

  it('escapes content, so a slide cannot inject markup into the page', async () => {
    const project = emulator.emulator.world.projectBySlug('welcome-deck')!
    const [slide] = emulator.emulator.world.slidesOf(project.id)
    const evil = { title: '<script>alert(1)</script>', blocks: [{ type: 'text', text: '<img src=x onerror=alert(1)>' }] }
    expect((await api('PUT', `/projects/welcome-deck/slides/${slide!.id}`, { files: { 'slide.content.json': JSON.stringify(evil) } })).status).toBe(200)
    const { html } = await page('/editor/welcome-deck/live')
    expect(html).not.toContain('<script>alert(1)</script>')
    expect(html).not.toContain('<img src=x')
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
  })

  it('shows and clears the editing indicator with agent name and prompt', async () => {
    const project = emulator.emulator.world.projectBySlug('welcome-deck')!
    const [, second] = emulator.emulator.world.slidesOf(project.id)
    await api('POST', `/projects/welcome-deck/slides/${second!.id}/editing`, { agentName: 'Deck Bot', editPrompt: 'Tighten the copy' })
    const on = (await page('/editor/welcome-deck/live')).html
    expect(on).toContain('data-testid="editing-indicator"')
    expect(on).toContain('Deck Bot is editing this slide')
    expect(on).toContain('Tighten the copy')
    await api('DELETE', `/projects/welcome-deck/slides/${second!.id}/editing`)
    expect((await page('/editor/welcome-deck/live')).html).not.toContain('editing-indicator')
  })

  it('answers 404 for an unknown project and 405 for a write to a page', async () => {
    expect((await page('/editor/no-such-deck')).status).toBe(404)
    expect((await page('/editor/welcome-deck', { method: 'POST' })).status).toBe(405)
  })

  it('serves a published site by subdomain and by custom domain, and 404 elsewhere', async () => {
    expect((await page('/sites/welcome-deck.sites.localhost/')).status).toBe(200)
    const domain = await page('/sites/decks.acme.example/q3-business-review')
    expect(domain.status).toBe(200)
    expect(domain.html).toContain('Q3 business review')
    expect((await page('/sites/decks.acme.example/other')).status).toBe(404)
    expect((await page('/sites/unknown.sites.localhost/')).status).toBe(404)
  })

  it('serves the dashboard with teams, keys, projects, jobs, faults and requests', async () => {
    await emulator.control.addFault({ operationId: 'listTeams', status: 500, times: 0 })
    const { status, html } = await page('/_emulator')
    expect(status).toBe(200)
    for (const text of ['Teams', 'API keys', 'Projects', 'Jobs', 'Faults', 'Requests', 'pres_test_alice_acme', 'Acme', 'listTeams']) {
      expect(html).toContain(text)
    }
    emulator.control.clearFaults()
  })
})

describe('dashboard with an admin token', () => {
  it('requires the token, as a header or as ?token=', async () => {
    const emulator = createEmulator({ adminToken: 'sesame' })
    const get = (path: string, headers: Record<string, string> = {}) => emulator.fetch(`http://127.0.0.1:4010${path}`, { headers })
    expect((await get('/_emulator')).status).toBe(401)
    expect((await get('/_emulator?token=wrong')).status).toBe(401)
    expect((await get('/_emulator?token=sesame')).status).toBe(200)
    expect((await get('/_emulator', { authorization: 'Bearer sesame' })).status).toBe(200)
    expect((await get('/_emulator/health?token=sesame')).status).toBe(401)
  })
})
