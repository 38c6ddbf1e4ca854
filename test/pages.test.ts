import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { contrastRatio, MIN_TEXT_CONTRAST } from '../web/pages/theme.js'
import { createEmulator, type EmulatorOptions, type PresentationEmulator } from '../src/index.js'
import { worldOf } from './support/state.js'

const ORIGIN = 'http://127.0.0.1:4010'
const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='

function pages(options: EmulatorOptions = {}) {
  const emulator = createEmulator({ clock: 'manual', rateLimit: 0, ...options })
  const page = async (path: string, init?: RequestInit) => {
    const response = await emulator.fetch(`${ORIGIN}${path}`, init)
    return { status: response.status, headers: response.headers, type: response.headers.get('content-type'), html: await response.text() }
  }
  const api = (method: string, path: string, json?: unknown, key = 'pres_test_alice') =>
    emulator.fetch(`${ORIGIN}/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${key}` },
      body: json === undefined ? undefined : JSON.stringify(json),
    })
  return { emulator, page, api }
}

/** The directives of a Content-Security-Policy header. */
function csp(header: string | null): Map<string, string[]> {
  expect(header, 'Content-Security-Policy header').toBeTruthy()
  return new Map(
    header!.split(';').map((part) => {
      const [name, ...values] = part.trim().split(/\s+/)
      return [name!, values]
    }),
  )
}

/** A page's inline scripts (any `<script>` without `src`) and the texts of its inline styles. */
function inline(html: string) {
  return {
    // Executable ones: the JSON data block for the slide renderer is not run (and no CSP applies to it).
    scripts: [...html.matchAll(/<script(?![^>]*\bsrc=)(?![^>]*type="application\/json")[^>]*>/g)].map((m) => m[0]),
    styles: [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]!),
    styleAttributes: [...html.matchAll(/<[^>]+\sstyle=/g)].map((m) => m[0]),
    handlers: [...html.matchAll(/<[^>]+\son[a-z]+=/g)].map((m) => m[0]),
  }
}

describe('pages', () => {
  let emulator: PresentationEmulator
  let page: ReturnType<typeof pages>['page']
  let api: ReturnType<typeof pages>['api']

  beforeAll(async () => {
    ;({ emulator, page, api } = pages())
    await emulator.ready()
  })
  afterAll(() => emulator.close())

  const slidesOf = async (slug: string) => {
    const world = await worldOf(emulator)
    return world.slidesOf(world.projectBySlug(slug)!.id)
  }

  it('serves the editor with the project’s slides in order, rendered from slide.content.json', async () => {
    const { status, type, html } = await page('/editor/welcome-deck')
    expect(status).toBe(200)
    expect(type).toMatch(/^text\/html/)
    let position = html.indexOf('id="stage-slides"')
    for (const slide of await slidesOf('welcome-deck')) {
      const title = JSON.parse(slide.files['slide.content.json']).title as string
      const at = html.indexOf(`<article class="slide-frame" data-slide-id="${slide.id}">`)
      expect(at).toBeGreaterThan(position)
      expect(html).toContain(title)
      position = at
    }
    // A thumbnail per slide, a counter, and the live stream the page listens to.
    expect(html.match(/<button type="button" class="thumb/g)).toHaveLength((await slidesOf('welcome-deck')).length)
    expect(html).toContain(`<span id="counter" class="counter" aria-live="polite">1 / ${(await slidesOf('welcome-deck')).length}</span>`)
    expect(html).toContain('data-events="/editor/welcome-deck/events"')
  })

  it('escapes content, so a slide cannot inject markup into the page', async () => {
    const [slide] = await slidesOf('welcome-deck')
    const evil = { title: '<script>alert(1)</script>', blocks: [{ type: 'text', text: '<img src=x onerror=alert(1)>' }] }
    expect(
      (await api('PUT', `/projects/welcome-deck/slides/${slide!.id}`, { files: { 'slide.content.json': JSON.stringify(evil) } })).status,
    ).toBe(200)
    for (const path of ['/editor/welcome-deck', '/editor/welcome-deck/live']) {
      const { html } = await page(path)
      expect(html).not.toContain('<script>alert(1)</script>')
      expect(html).not.toContain('<img src=x')
      expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    }
    const renamed = await api('PATCH', '/projects/welcome-deck', { name: '</title><script>alert(2)</script>' })
    expect(renamed.status).toBe(200)
    const { html } = await page('/editor/welcome-deck')
    expect(html).not.toContain('<script>alert(2)</script>')
    expect(inline(html).scripts).toEqual([])
  })

  it('shows and clears the editing indicator, on the slide and on its thumbnail', async () => {
    const [, second] = await slidesOf('welcome-deck')
    await api('POST', `/projects/welcome-deck/slides/${second!.id}/editing`, { agentName: 'Deck Bot', editPrompt: 'Tighten the copy' })
    const on = (await page('/editor/welcome-deck')).html
    const frame = new RegExp(`<article class="slide-frame" data-slide-id="${second!.id}">[\\s\\S]*?</article>`).exec(on)![0]
    expect(frame).toContain('data-testid="editing-indicator"')
    expect(frame).toContain('Deck Bot is editing this slide')
    expect(frame).toContain('Tighten the copy')
    expect(on.match(/data-testid="editing-indicator"/g)).toHaveLength(1)
    const thumb = new RegExp(`<button type="button" class="thumb is-editing" data-slide-id="${second!.id}"[\\s\\S]*?</button>`).exec(on)
    expect(thumb?.[0]).toContain('data-testid="thumb-editing"')
    await api('DELETE', `/projects/welcome-deck/slides/${second!.id}/editing`)
    const off = (await page('/editor/welcome-deck')).html
    expect(off).not.toContain('editing-indicator')
    expect(off).not.toContain('is-editing')
  })

  it('renders an image block: a data: image as <img>, a remote one as a placeholder with its alt text', async () => {
    const created = await (
      await api('POST', '/projects/welcome-deck/slides', {
        name: 'Pictures',
        files: {
          'slide.content.json': JSON.stringify({
            title: 'Pictures',
            blocks: [
              { type: 'image', url: PNG, alt: 'A pixel' },
              { type: 'image', url: 'https://images.example.com/team.jpg', alt: 'Our team at the offsite' },
            ],
          }),
        },
      })
    ).json()
    const { html } = await page('/editor/welcome-deck/live')
    const frame = new RegExp(`<article class="slide-frame" data-slide-id="${created.slideId}">[\\s\\S]*?</article>`).exec(html)![0]
    expect(frame).toContain(`<img src="${PNG}" alt="A pixel"`)
    expect(frame).toContain('data-testid="image-placeholder"')
    expect(frame).toContain('Our team at the offsite')
    expect(frame).not.toContain('team.jpg')
  })

  it('applies the align control of slide.controls.json', async () => {
    const created = await (
      await api('POST', '/projects/welcome-deck/slides', {
        files: {
          'slide.content.json': '{"title":"Centred","blocks":[{"type":"text","text":"x"},{"type":"bullets","items":["a"]}]}',
          'slide.controls.json': '{"controls":[{"id":"align","type":"select","options":["left","center"],"default":"center"}]}',
        },
      })
    ).json()
    const { html } = await page('/editor/welcome-deck/live')
    expect(html).toMatch(new RegExp(`data-slide-id="${created.slideId}"><div class="slide layout-content align-center">`))
  })

  it('keeps every theme text colour readable: Acme’s pale titles get an AA-contrast colour', async () => {
    const { html } = await page('/editor/q3-business-review')
    const style = inline(html).styles[0]!
    const vars = Object.fromEntries([...style.matchAll(/(--[a-z0-9-]+):([^;}]+)/g)].map((m) => [m[1]!, m[2]!]))
    const primary = (await worldOf(emulator)).projectBySlug('q3-business-review')!.config.theme!.colors.default.primary
    expect(contrastRatio(primary, vars['--slide-bg']!)).toBeLessThan(MIN_TEXT_CONTRAST)
    for (const name of ['--slide-title', '--slide-fg', '--slide-muted']) {
      expect(contrastRatio(vars[name]!, vars['--slide-bg']!), name).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST)
    }
  })

  it('answers an unknown editor project with a 404 that says no such project exists', async () => {
    const { status, html } = await page('/editor/no-such-deck')
    expect(status).toBe(404)
    expect(html).toContain('No such project')
    expect(html).toContain('No project with the slug <code>no-such-deck</code> exists')
    expect(html).not.toContain('published')
    expect((await page('/editor/welcome-deck/nope')).status).toBe(404)
    expect((await page('/editor/welcome-deck', { method: 'POST' })).status).toBe(405)
  })

  it('serves a published site by subdomain and by custom domain, and says nothing is published elsewhere', async () => {
    expect((await page('/sites/welcome-deck.sites.localhost/')).status).toBe(200)
    const domain = await page('/sites/decks.acme.example/q3-business-review')
    expect(domain.status).toBe(200)
    expect(domain.html).toContain('Q3 business review')
    expect(domain.html).toContain('id="present"')
    for (const path of ['/sites/decks.acme.example/other', '/sites/unknown.sites.localhost/']) {
      const missing = await page(path)
      expect(missing.status).toBe(404)
      expect(missing.html).toContain('Nothing is published at')
    }
  })

  it('shows the published snapshot on the site, and answers 404 once unpublished', async () => {
    const project = await (await api('POST', '/projects', { name: 'Snapshot' })).json()
    await api('POST', `/projects/${project.projectSlug}/slides`, { files: { 'slide.content.json': '{"title":"Before","blocks":[]}' } })
    const published = await (await api('POST', `/projects/${project.projectSlug}/publish`)).json()
    const sitePath = new URL(published.publishedUrl).pathname
    const [slide] = await slidesOf(project.projectSlug)
    await api('PUT', `/projects/${project.projectSlug}/slides/${slide!.id}`, {
      files: { 'slide.content.json': '{"title":"After","blocks":[]}' },
    })
    const site = await page(sitePath)
    expect(site.html).toContain('<h1>Before</h1>')
    expect(site.html).not.toContain('After')
    expect((await page(`/editor/${project.projectSlug}`)).html).toContain('<h1>After</h1>')
    await api('DELETE', `/projects/${project.projectSlug}/publish`)
    const gone = await page(sitePath)
    expect(gone.status).toBe(404)
    expect(gone.html).toContain('Nothing is published at')
  })

  it('says in the editor that a generation is running, and that it failed, with the error', async () => {
    const job = await (await api('POST', '/projects/generate', { prompt: 'Launch plan' }, 'pres_test_alice_acme')).json()
    const running = (await page(`/editor/${job.projectSlug}`)).html
    expect(running).toContain('data-testid="generation-status"')
    expect(running).toContain('Generating your presentation…')
    await emulator.control.failJob(job.jobId, { error: 'GPU on fire' })
    const failed = (await page(`/editor/${job.projectSlug}`)).html
    expect(failed).toContain('Generation failed')
    expect(failed).toContain('GPU on fire')
    expect(failed).not.toContain('This project has no slides yet')
  })

  it('says "Generation failed" once when the job\'s own error starts with it (an emulator:fail prompt)', async () => {
    const job = await (await api('POST', '/projects/generate', { prompt: 'emulator:fail please' }, 'pres_test_alice_acme')).json()
    await emulator.control.advanceClock({ ms: 600_000 })
    const status = await (await api('GET', `/projects/jobs/${job.jobId}`, undefined, 'pres_test_alice_acme')).json()
    expect(status.error).toMatch(/^Generation failed: /)
    const failed = (await page(`/editor/${job.projectSlug}`)).html
    expect(failed).toContain('the prompt asked for a failure')
    expect(failed).not.toMatch(/Generation failed:?(<\/[a-z0-9]+>|\s|<[^>]+>)*Generation failed/)
  })
})

describe('page headers', () => {
  const { emulator, page } = pages()
  afterAll(() => emulator.close())

  const PAGES = [
    '/editor/welcome-deck',
    '/editor/no-such-deck',
    '/sites/welcome-deck.sites.localhost/',
    '/sites/nowhere.sites.localhost/',
    '/_emulator',
  ]

  it.each(PAGES)('%s has a strict CSP (same-origin scripts only, no inline script), nosniff and no referrer', async (path) => {
    const { headers, html } = await page(path)
    const policy = csp(headers.get('content-security-policy'))
    expect(policy.get('default-src')).toEqual(["'none'"])
    expect(policy.get('script-src')).toEqual(["'self'"])
    expect(policy.get('img-src')).toEqual(["'self'", 'data:'])
    expect(policy.get('connect-src')).toEqual(["'self'"])
    expect(policy.get('base-uri')).toEqual(["'none'"])
    expect(policy.get('form-action')).toEqual(["'none'"])
    // Invariant 4: the slide renderer adds only frame-src (its own path), and only to pages that show slides.
    const showsSlides = !path.includes('no-such') && !path.includes('nowhere') && path !== '/_emulator'
    expect(policy.get('frame-src')).toEqual(showsSlides ? [`${ORIGIN}/_emulator/assets/render/`] : undefined)
    expect(headers.get('x-content-type-options')).toBe('nosniff')
    expect(headers.get('referrer-policy')).toBe('no-referrer')
    const found = inline(html)
    expect(found.scripts).toEqual([])
    expect(found.styleAttributes).toEqual([])
    expect(found.handlers).toEqual([])
    // Each inline style is allowed by its hash, and nothing else inline is.
    const hashes = found.styles.map((style) => `'sha256-${createHash('sha256').update(style).digest('base64')}'`)
    expect(policy.get('style-src')).toEqual(["'self'", ...hashes])
  })

  it('keeps the dashboard out of frames', async () => {
    expect(csp((await page('/_emulator')).headers.get('content-security-policy')).get('frame-ancestors')).toEqual(["'none'"])
  })

  it('serves the pages’ scripts and stylesheet as same-origin assets, typed, nosniff, with an ETag', async () => {
    for (const [name, type] of [
      ['viewer.js', 'text/javascript'],
      ['dashboard.js', 'text/javascript'],
      ['pages.css', 'text/css'],
      ['favicon.svg', 'image/svg+xml'],
    ]) {
      const response = await emulator.fetch(`${ORIGIN}/_emulator/assets/${name}`)
      expect(response.status, name).toBe(200)
      expect(response.headers.get('content-type')!.startsWith(type!)).toBe(true)
      expect(response.headers.get('x-content-type-options')).toBe('nosniff')
      const etag = response.headers.get('etag')!
      expect((await emulator.fetch(`${ORIGIN}/_emulator/assets/${name}`, { headers: { 'if-none-match': etag } })).status).toBe(304)
    }
    expect((await emulator.fetch(`${ORIGIN}/_emulator/assets/secret.js`)).status).toBe(404)
  })

  it('widens img-src to http(s) only when remote images are allowed, and then loads them', async () => {
    const online = pages({ allowRemoteImages: true })
    const slug = 'welcome-deck'
    await online.emulator.ready()
    const world = await worldOf(online.emulator)
    const [slide] = world.slidesOf(world.projectBySlug(slug)!.id)
    await online.api('PUT', `/projects/${slug}/slides/${slide!.id}`, {
      files: {
        'slide.content.json': JSON.stringify({
          title: 'R',
          blocks: [{ type: 'image', url: 'https://images.example.com/a.png', alt: 'Remote' }],
        }),
      },
    })
    const { headers, html } = await online.page(`/editor/${slug}`)
    expect(csp(headers.get('content-security-policy')).get('img-src')).toEqual(["'self'", 'data:', 'https:', 'http:'])
    expect(html).toContain('<img src="https://images.example.com/a.png" alt="Remote"')
    await online.emulator.close()
  })

  it('rejects a non-boolean allowRemoteImages option', () => {
    expect(() => createEmulator({ allowRemoteImages: 'yes' as never })).toThrow(/allowRemoteImages must be a boolean/)
  })
})

describe('dashboard', () => {
  const { emulator, page, api } = pages()
  afterAll(() => emulator.close())

  it('shows teams, keys, projects, jobs, faults and requests, with every key value masked', async () => {
    await emulator.control.addFault({ operationId: 'listTeams', status: 500, times: 0 })
    const { status, html } = await page('/_emulator')
    expect(status).toBe(200)
    for (const text of [
      'Teams',
      'API keys',
      'Projects',
      'Generation jobs',
      'Faults',
      'Requests',
      'Acme',
      'listTeams',
      'key_alice_acme',
      'pres_••••••••acme',
    ]) {
      expect(html).toContain(text)
    }
    for (const key of (await worldOf(emulator)).all('apiKeys')) expect(html).not.toContain(key.key)
    emulator.control.clearFaults()
  })

  it('has a button or a form for every control-plane action, calling it with fetch (no form posts)', async () => {
    await api('POST', '/projects/generate', { prompt: 'x' }, 'pres_test_alice_acme')
    emulator.control.addFault({ operationId: 'getProject', status: 503 })
    const { html } = await page('/_emulator')
    for (const action of [
      'reset',
      'job-complete',
      'job-fail',
      'fault-remove',
      'faults-clear',
      'key-revoke',
      'key-reveal',
      'key-copy',
      'request-details',
      'prefill-credits',
      'journal-clear',
    ]) {
      expect(html, action).toContain(`data-action="${action}"`)
    }
    for (const form of ['form-advance', 'form-credits', 'form-key', 'form-fault', 'journal-filters']) expect(html).toContain(`id="${form}"`)
    expect(html).not.toMatch(/<form[^>]*\b(action|method)=/)
    expect(html).toContain('<script src="/_emulator/assets/dashboard.js" defer></script>')
  })

  it('says how many requests it shows out of how many, never more than there are', async () => {
    await emulator.control.reset()
    const count = async (query = '') => /data-section="requests-count">([^<]*)</.exec((await page(`/_emulator${query}`)).html)![1]
    expect(await count()).toBe('no requests')
    for (let i = 0; i < 29; i++) await api('GET', '/teams')
    expect(await count()).toBe('29 requests')
    for (let i = 0; i < 31; i++) await api('GET', '/projects', undefined, 'pres_test_bob')
    expect(await count()).toBe('newest 50 of 60')
    expect(await count('?limit=100')).toBe('60 requests')
  })

  it('shows the client report beside the journal, of the key the journal is filtered by', async () => {
    await emulator.control.reset()
    const section = async (query = '') => {
      const { html } = await page(`/_emulator/dashboard/fragment${query}`)
      return {
        count: /<div data-section="client-report-count">([^<]*)</.exec(html)![1],
        rules: [
          .../<div data-section="client-report">([\s\S]*?)<\/div>\n/
            .exec(html)![1]!
            .matchAll(/<span class="mono" title="[^"]*">([a-z0-9.-]+)<\/span>/g),
        ].map((m) => m[1]),
      }
    }
    expect(await section()).toEqual({ count: 'clean · 0 calls', rules: [] })
    await api('GET', '/projects?limit=500')
    await api('GET', '/teams', undefined, 'pres_test_bob')
    expect(await section()).toEqual({ count: '1 error · 0 warnings', rules: ['pagination.limit-out-of-range'] })
    expect(await section('?keyId=key_bob')).toEqual({ count: 'clean · 1 calls', rules: [] })
    const { html } = await page('/_emulator')
    expect(html).toContain('id="client-report-card"')
  })

  it('filters the journal by operation, status and key', async () => {
    await emulator.control.reset()
    await api('GET', '/teams')
    await api('GET', '/projects/no-such')
    await api('GET', '/projects', undefined, 'pres_test_bob')
    const rows = async (query: string) => {
      const { html } = await page(`/_emulator/dashboard/fragment?${query}`)
      const section = /<div data-section="requests">([\s\S]*?)<\/div>\n/.exec(html)![1]!
      return [...section.matchAll(/<span class="mono">(GET [^<]+)<\/span>/g)].map((m) => m[1])
    }
    expect(await rows('operationId=listTeams')).toEqual(['GET /v1/teams'])
    expect(await rows('status=4xx')).toEqual(['GET /v1/projects/no-such'])
    expect(await rows('status=200&keyId=key_bob')).toEqual(['GET /v1/projects'])
    expect(await rows('keyId=key_nobody')).toEqual([])
    for (const bad of ['operationId=nope', 'status=99', 'limit=0', 'limit=501']) {
      const reply = await emulator.fetch(`${ORIGIN}/_emulator/dashboard/fragment?${bad}`)
      expect(reply.status, bad).toBe(400)
      expect(reply.headers.get('x-service-error-code')).toBe('VALIDATION_ERROR')
    }
  })

  it('reads a key with its value for the reveal and copy buttons', async () => {
    const reply = await emulator.fetch(`${ORIGIN}/_emulator/keys/key_alice`)
    expect(reply.status).toBe(200)
    expect(await reply.json()).toMatchObject({
      keyId: 'key_alice',
      apiKey: 'pres_test_alice',
      userId: 'usr_alice',
      teamId: 'team_alice',
      revokedAt: null,
    })
    expect((await emulator.fetch(`${ORIGIN}/_emulator/keys/key_nobody`)).status).toBe(404)
    expect((await emulator.control.getKey('key_bob')).apiKey).toBe('pres_test_bob')
  })
})

describe('dashboard with an admin token', () => {
  it('requires the token, as a header or as ?token=, on the page, its fragment and its events', async () => {
    const emulator = createEmulator({ adminToken: 'sesame' })
    const get = (path: string, headers: Record<string, string> = {}) => emulator.fetch(`${ORIGIN}${path}`, { headers })
    for (const path of ['/_emulator', '/_emulator/dashboard/fragment', '/_emulator/dashboard/events']) {
      expect((await get(path)).status).toBe(401)
      expect((await get(`${path}?token=wrong`)).status).toBe(401)
    }
    expect((await get('/_emulator?token=sesame')).status).toBe(200)
    expect((await get('/_emulator', { authorization: 'Bearer sesame' })).status).toBe(200)
    const events = await get('/_emulator/dashboard/events?token=sesame')
    expect(events.status).toBe(200)
    await events.body?.cancel()
    expect((await get('/_emulator/health?token=sesame')).status).toBe(401)
    expect((await get('/_emulator/keys/key_alice?token=sesame')).status).toBe(401)
    // The page hands its token to its event stream; the assets need none.
    expect(await (await get('/_emulator?token=sesame')).text()).toContain('data-events="/_emulator/dashboard/events?token=sesame"')
    expect((await get('/_emulator/assets/dashboard.js')).status).toBe(200)
    expect((await get('/_emulator/assets/unknown.js')).status).toBe(401)
    await emulator.close()
  })

  it('tells a browser without the token what to do, in a page with the same status and error code', async () => {
    const emulator = createEmulator({ adminToken: 'sesame' })
    const html = { accept: 'text/html,application/xhtml+xml' }
    for (const [path, says] of [
      ['/_emulator', 'started with an admin token'],
      ['/_emulator?token=wrong', 'not this emulator'],
    ] as const) {
      const reply = await emulator.fetch(`${ORIGIN}${path}`, { headers: html })
      expect(reply.status).toBe(401)
      expect(reply.headers.get('x-service-error-code')).toBe('UNAUTHORIZED')
      expect(reply.headers.get('content-type')).toContain('text/html')
      expect(reply.headers.get('content-security-policy')).toContain("default-src 'none'")
      const text = await reply.text()
      expect(text).toContain(says)
      expect(text).toContain('/_emulator?token=&lt;admin token&gt;')
      expect(text).not.toContain('sesame')
    }
    // Programs (no text/html in Accept) and the other routes keep the JSON error body.
    const json = await emulator.fetch(`${ORIGIN}/_emulator`)
    expect(json.headers.get('content-type')).toContain('application/json')
    expect(await json.json()).toMatchObject({ error: 'Authentication required' })
    expect((await emulator.fetch(`${ORIGIN}/_emulator/health`, { headers: html })).headers.get('content-type')).toContain(
      'application/json',
    )
    await emulator.close()
  })
})
