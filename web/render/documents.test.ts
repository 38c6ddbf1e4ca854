import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEmulator, type PresentationEmulator } from '../../src/index.js'
import { createHash } from 'node:crypto'
import { DISPLAY_JS, RENDER_VERSION, RENDERER_JS } from '../generated/render-scripts.js'
import { displayPolicy, imageSource, imageSources, rendererPolicy, requestOrigin } from './documents.js'
import { RENDER_ASSET_NAMES } from './limits.js'

const ORIGIN = 'http://127.0.0.1:4010'
const hashOf = (script: string) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`
const request = (host?: string) => ({ method: 'GET', path: '/', query: '', headers: host === undefined ? {} : { host }, body: null })

/** The directives of a Content-Security-Policy. */
function directives(policy: string): Map<string, string> {
  return new Map(policy.split(';').map((part) => [part.trim().split(/\s+/)[0]!, part.trim().split(/\s+/).slice(1).join(' ')]))
}

describe('requestOrigin', () => {
  it('is the origin the browser used: its Host, with the public URL’s scheme when it names the same host', () => {
    expect(requestOrigin(request('localhost:4010'), ORIGIN)).toBe('http://localhost:4010')
    expect(requestOrigin(request('emulator.example:8443'), 'https://emulator.example:8443')).toBe('https://emulator.example:8443')
    expect(requestOrigin(request('[::1]:4010'), ORIGIN)).toBe('http://[::1]:4010')
  })

  it('falls back to the public URL without a Host (msw, the socket-free fetch) or with one that could change a policy', () => {
    expect(requestOrigin(request(), 'http://127.0.0.1:4010/')).toBe(ORIGIN)
    for (const host of ["evil; script-src 'unsafe-eval'", 'a b', 'x/y', 'host:99999999', ''])
      expect(requestOrigin(request(host), ORIGIN)).toBe(ORIGIN)
  })
})

describe('imageSource', () => {
  it('is the exact path of a remote image (CSP ignores queries, so the sanitiser checks them), with ; , and quotes escaped', () => {
    expect(imageSource('https://images.example.com/a/b.png?w=1&h=2#x')).toBe('https://images.example.com/a/b.png')
    expect(imageSource("http://cdn.example:8080/x;y,z'.png")).toBe('http://cdn.example:8080/x%3By%2Cz%27.png')
  })

  it('refuses what is not an http(s) URL without credentials, and very long ones', () => {
    for (const url of [
      'data:image/png;base64,AA',
      'javascript:alert(1)',
      'ftp://x/y',
      'https://u:p@x/y',
      'not a url',
      `https://x/${'a'.repeat(3000)}`,
    ]) {
      expect(imageSource(url)).toBeUndefined()
    }
  })
})

describe('the frames’ policies', () => {
  it('sandbox the renderer frame, allow only its own inline script (by hash) and workers from blob:, and nothing else', () => {
    const policy = directives(rendererPolicy())
    expect(Object.fromEntries(policy)).toEqual({
      sandbox: 'allow-scripts',
      'default-src': "'none'",
      'connect-src': "'none'",
      'frame-src': "'none'",
      'form-action': "'none'",
      'base-uri': "'none'",
      'frame-ancestors': "'self'",
      'script-src': `${hashOf(RENDERER_JS)} blob:`,
      'worker-src': 'blob:',
      'style-src': "'unsafe-inline'",
    })
  })

  it('let a display frame load images from data: and exactly the paths it is given (remote ones only when allowed), and run no worker', () => {
    const none = directives(displayPolicy(ORIGIN))
    expect(none.get('img-src')).toBe('data:')
    expect(none.get('worker-src')).toBe("'none'")
    expect(none.get('connect-src')).toBe("'none'")
    expect(none.get('script-src')).toBe(hashOf(DISPLAY_JS))
    const images = [
      '/_emulator/assets/favicon.svg?v=1',
      'https://images.example.com/a.png?w=1',
      'javascript:x',
      '/v1/projects',
      '/',
      'x.png',
    ]
    expect(directives(displayPolicy(ORIGIN, images)).get('img-src')).toBe(`data: ${ORIGIN}/_emulator/assets/favicon.svg`)
    expect(directives(displayPolicy(ORIGIN, images, true)).get('img-src')).toBe(
      `data: ${ORIGIN}/_emulator/assets/favicon.svg https://images.example.com/a.png`,
    )
  })
})

describe('imageSources', () => {
  it('names no folder and no whole origin, so the API and the control plane stay out whatever the address asks for', () => {
    const asked = [
      '/v1/projects',
      '/v1',
      '/_emulator/requests',
      '/x/../v1/projects',
      'http://localhost:4010/v1/projects',
      '/',
      '/editor/',
      '//evil.example/x.png',
      '/\\evil.example/x.png',
      `${ORIGIN}/_emulator/state`,
    ]
    expect(imageSources(ORIGIN, asked, true)).toEqual([])
    // A path is written as CSP needs it: what would end or split a source escaped.
    expect(imageSources(ORIGIN, ["/a;b,c'd.png", '/img/x.png?q=1'], false)).toEqual([`${ORIGIN}/a%3Bb%2Cc%27d.png`, `${ORIGIN}/img/x.png`])
  })
})

describe('serving the renderer’s assets', () => {
  let emulator: PresentationEmulator
  let guarded: PresentationEmulator
  let online: PresentationEmulator

  beforeAll(() => {
    emulator = createEmulator({ clock: 'manual' })
    guarded = createEmulator({ clock: 'manual', adminToken: 'secret' })
    online = createEmulator({ clock: 'manual', allowRemoteImages: true })
  })
  afterAll(async () => {
    await Promise.all([emulator.close(), guarded.close(), online.close()])
  })

  it('serves each document, typed, nosniff, with its script inline, without the admin token (they hold no data)', async () => {
    expect(RENDER_ASSET_NAMES).toEqual(['renderer.html', 'slide.html'])
    for (const [name, script] of [
      ['renderer.html', RENDERER_JS],
      ['slide.html', DISPLAY_JS],
    ] as const) {
      const response = await guarded.fetch(`${ORIGIN}/_emulator/assets/render/${name}?v=${RENDER_VERSION}`)
      expect(response.status, name).toBe(200)
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(response.headers.get('x-content-type-options')).toBe('nosniff')
      expect(response.headers.get('referrer-policy')).toBe('no-referrer')
      const html = await response.text()
      expect(html).toContain(`<script>${script}</script>`)
      // Nothing in the script ends its element early: the first "</script" is the element's own end, and no "<!--" comes before it.
      expect(html.search(/<\/script/i)).toBe(html.indexOf(script) + script.length)
      expect(script).not.toMatch(/<!--/)
    }
    expect(RENDERER_JS).toContain('renderToStaticMarkup')
    expect((await guarded.fetch(`${ORIGIN}/_emulator/assets/render/react.js`)).status).toBe(401)
    expect((await emulator.fetch(`${ORIGIN}/_emulator/assets/render/react.js`)).status).toBe(404)
    expect((await emulator.fetch(`${ORIGIN}/_emulator/assets/render/slide.html`, { method: 'POST' })).status).toBe(405)
  })

  it('sends each document with its own policy, cached only for its exact versioned address (the policy depends on the address)', async () => {
    const renderer = await emulator.fetch(`${ORIGIN}/_emulator/assets/render/renderer.html?v=${RENDER_VERSION}`)
    expect(renderer.headers.get('cache-control')).toBe('private, max-age=31536000, immutable')
    expect((await emulator.fetch(`${ORIGIN}/_emulator/assets/render/renderer.html`)).headers.get('cache-control')).toBe('no-store')
    expect(renderer.headers.get('x-dns-prefetch-control')).toBe('off')
    expect(directives(renderer.headers.get('content-security-policy')!).get('sandbox')).toBe('allow-scripts')
    const images = ['https://images.example.com/a.png?w=1', '/_emulator/assets/favicon.svg', '/v1/projects']
    const query = images.map((image) => `img=${encodeURIComponent(image)}`).join('&')
    const offline = await emulator.fetch(`${ORIGIN}/_emulator/assets/render/slide.html?${query}`)
    expect(directives(offline.headers.get('content-security-policy')!).get('img-src')).toBe(`data: ${ORIGIN}/_emulator/assets/favicon.svg`)
    const allowed = await online.fetch(`${ORIGIN}/_emulator/assets/render/slide.html?${query}`)
    expect(directives(allowed.headers.get('content-security-policy')!).get('img-src')).toBe(
      `data: https://images.example.com/a.png ${ORIGIN}/_emulator/assets/favicon.svg`,
    )
  })
})
