import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CONTROL_ROUTES } from '../../src/control/http-routes.js'
import { createEmulator, type PresentationEmulator } from '../../src/index.js'

/**
 * Issue 31, the weak spots about framing and published sites (the browser
 * side is `test/browser/site-isolation.test.ts`):
 *
 * - every page is `frame-ancestors 'none'` and `X-Frame-Options: DENY`;
 * - a published site's pages run in an opaque origin (`sandbox
 *   allow-scripts`, never `allow-same-origin`) and in a process of their
 *   own (`Document-Isolation-Policy`), the editor's do not (they read
 *   their live updates from the emulator's origin);
 * - the renderer's documents may be framed by the emulator's own pages
 *   only: `frame-ancestors 'self'`, or, asked for with the emulator's frame
 *   key (which only a site's page holds, for its opaque origin), none.
 */

const ORIGIN = 'http://127.0.0.1:4010'

function directives(csp: string | null): Map<string, string[]> {
  return new Map(
    (csp ?? '')
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0] !== '')
      .map((words) => [words[0]!, words.slice(1)]),
  )
}

describe('framing and the sites’ origin', () => {
  let emulator: PresentationEmulator
  const call = (path: string, init: RequestInit = {}) => emulator.fetch(`${ORIGIN}${path}`, init)
  const SITE = '/sites/welcome-deck.sites.localhost/'

  beforeAll(async () => {
    emulator = createEmulator({ clock: 'manual' })
    await emulator.ready()
  })
  afterAll(() => emulator.close())

  it('refuses to be framed on every page: frame-ancestors none and X-Frame-Options DENY', async () => {
    for (const path of [
      '/editor/welcome-deck',
      '/editor/welcome-deck/live',
      '/editor/no-such-project',
      SITE,
      '/sites/nothing.sites.localhost/',
      '/_emulator',
    ]) {
      const reply = await call(path)
      expect(reply.headers.get('content-type'), path).toMatch(/^text\/html/)
      expect(directives(reply.headers.get('content-security-policy')).get('frame-ancestors'), path).toEqual(["'none'"])
      expect(reply.headers.get('x-frame-options'), path).toBe('DENY')
    }
  })

  it('runs a published site’s pages in an opaque origin, and the editor’s and the dashboard in the emulator’s', async () => {
    for (const path of [SITE, '/sites/nothing.sites.localhost/']) {
      const reply = await call(path)
      expect(directives(reply.headers.get('content-security-policy')).get('sandbox'), path).toEqual(['allow-scripts'])
      // In a process of its own, apart from the sandboxed renderer frames it makes (decision 0203).
      expect(reply.headers.get('document-isolation-policy'), path).toBe('isolate-and-credentialless')
    }
    for (const path of ['/editor/welcome-deck', '/_emulator']) {
      const reply = await call(path)
      expect(directives(reply.headers.get('content-security-policy')).has('sandbox'), path).toBe(false)
      expect(reply.headers.get('document-isolation-policy'), path).toBeNull()
    }
  })

  it('lets only the emulator’s own pages frame the renderer’s documents: the same origin, or a site’s page with the frame key', async () => {
    const site = await (await call(SITE)).text()
    const key = /renderer\.html\?v=\w+&amp;k=([0-9a-f]{32})"/.exec(site)?.[1]
    expect(key).toMatch(/^[0-9a-f]{32}$/)
    // The key is in the data the site's script reads (for the frames it makes), and in no editor page.
    expect(site).toContain(`"frameKey":"${key}"`)
    expect(await (await call('/editor/welcome-deck')).text()).not.toContain(key)
    for (const name of ['renderer.html', 'slide.html']) {
      const policy = async (query: string) =>
        directives((await call(`/_emulator/assets/render/${name}${query}`)).headers.get('content-security-policy'))
      expect((await policy('')).get('frame-ancestors'), name).toEqual(["'self'"])
      expect((await policy('?k=00000000000000000000000000000000')).get('frame-ancestors'), name).toEqual(["'self'"])
      const keyed = await policy(`?k=${key}`)
      expect(keyed.has('frame-ancestors'), name).toBe(false)
      // Nothing else of the policy changes.
      expect(keyed.get('sandbox'), name).toEqual(['allow-scripts'])
      expect(keyed.get('connect-src'), name).toEqual(["'none'"])
    }
  })

  it('gives each emulator a frame key of its own', async () => {
    const other = createEmulator({ clock: 'manual' })
    try {
      await other.ready()
      const keyOf = async (e: PresentationEmulator) => /&amp;k=([0-9a-f]{32})"/.exec(await (await e.fetch(`${ORIGIN}${SITE}`)).text())?.[1]
      const [mine, theirs] = [await keyOf(emulator), await keyOf(other)]
      expect(mine).toBeDefined()
      expect(theirs).toBeDefined()
      expect(mine).not.toBe(theirs)
      // The same emulator keeps its key.
      expect(await keyOf(emulator)).toBe(mine)
    } finally {
      await other.close()
    }
  })

  it('refuses every control-plane write a site’s page can send (Origin: null), and changes nothing', async () => {
    const before = await (await call('/_emulator/state')).text()
    for (const [method, path] of [
      ['POST', '/_emulator/reset'],
      ['POST', '/_emulator/keys'],
      ['PUT', '/_emulator/state'],
      ['DELETE', '/_emulator/requests'],
      ['POST', '/_emulator/clock/advance'],
    ] as const) {
      const reply = await call(path, { method, headers: { origin: 'null', 'sec-fetch-site': 'cross-site' }, body: '{}' })
      expect(reply.status, `${method} ${path}`).toBe(403)
      expect(reply.headers.get('x-service-error-code')).toBe('FORBIDDEN')
      expect(reply.headers.get('access-control-allow-origin')).toBeNull()
    }
    const read = await call('/_emulator/state', { headers: { origin: 'null' } })
    expect(read.headers.get('access-control-allow-origin')).toBeNull()
    expect(await (await call('/_emulator/state')).text()).toBe(before)
  })

  it('lists every control-plane route in docs/security.md’s table, with what a site’s page can do with it', () => {
    const doc = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'security.md'), 'utf8')
    for (const route of CONTROL_ROUTES) {
      const row = doc.split('\n').find((line) => line.startsWith(`| \`${route.method} ${route.path}\` |`))
      expect(row, `${route.method} ${route.path}`).toBeDefined()
      expect(row, `${route.method} ${route.path}`).toMatch(route.method === 'GET' ? /\| not readable \|$/ : /\| \*\*403\*\* \|$/)
    }
  })
})
