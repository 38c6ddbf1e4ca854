/**
 * Issue 24: the validating proxy. A fixed script of ordinary calls through
 * it gives no finding against the emulator and each spec-legal server, and
 * the defect each of the kit's defect servers has whenever the traffic
 * touches it; interleaved clients and a write made directly to the target
 * give notes, not MUSTs; what passes through is untouched.
 */
import { request } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { createEmulator, type PresentationEmulator } from '../../src/index.js'
import { startProxy, type RunningProxy } from '../../conformance/proxy/server.js'
import type { Judgement } from '../../conformance/proxy/judge.js'
import { brokenEmulator, DEFECTS, SPEC_LEGAL_SERVERS } from '../conformance/variants.js'
import { call, ordinaryTraffic, type TrafficKeys } from './traffic.js'

const PRES_KEYS: TrafficKeys = { main: 'pres_test_alice_acme', other: 'pres_test_bob', revoked: 'pres_test_revoked' }

const cleanups: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** The server listening, and a proxy in front of it that collects what it judged. */
async function proxied(server: PresentationEmulator, keys: TrafficKeys) {
  const listening = await (server as PresentationEmulator & { listen(o: { port: number }): Promise<{ origin: string }> }).listen({
    port: 0,
  })
  cleanups.push(() => server.close())
  const judgements: Judgement[] = []
  const proxy = await startProxy({
    baseUrl: `${listening.origin}/v1`,
    apiKey: keys.main,
    otherTeamKey: keys.other,
    revokedKey: keys.revoked,
    onJudgement: (j) => judgements.push(j),
  })
  cleanups.push(() => proxy.close())
  return { proxy, judgements, target: `${listening.origin}/v1` }
}

const findings = (judgements: Judgement[]) => judgements.filter((j) => j.level !== 'note')
const musts = (judgements: Judgement[]) => judgements.filter((j) => j.level === 'MUST')
const describeAll = (judgements: Judgement[]) =>
  judgements.map((j) => `${j.level} ${j.factId} ${j.operation} expected ${j.expected} seen ${j.actual}`)

describe('the proxy on ordinary traffic', () => {
  it('finds nothing against the emulator', async () => {
    const server = createEmulator({ clock: 'manual', rateLimit: 50, onError: () => undefined })
    const { proxy, judgements } = await proxied(server, PRES_KEYS)
    await ordinaryTraffic(proxy.url, PRES_KEYS, server)
    await proxy.idle()
    expect(describeAll(findings(judgements))).toEqual([])
    // It judged: every exchange, the script's mistakes among them.
    expect(proxy.judge.exchanges).toBeGreaterThan(40)
    const report = proxy.judge.report(proxy.startedAt, 0, 'x')
    expect(report.scenarios.find((s) => s.id === 'request.bound')?.checks).toBeGreaterThanOrEqual(6)
    expect(report.scenarios.find((s) => s.id === 'version.latest')?.checks).toBeGreaterThanOrEqual(1)
    expect(report.summary.failed).toBe(0)
  })

  for (const legal of SPEC_LEGAL_SERVERS) {
    it(`finds nothing against ${legal.name}`, async () => {
      const server = legal.make()
      const keys = { main: legal.keys.main, other: legal.keys.other, revoked: legal.keys.revoked }
      const { proxy, judgements } = await proxied(server, keys)
      await ordinaryTraffic(proxy.url, keys, server)
      await proxy.idle()
      expect(describeAll(findings(judgements))).toEqual([])
      expect(proxy.judge.exchanges).toBeGreaterThan(40)
    })
  }
})

/**
 * The defects ordinary traffic shows, and the fact that names each. The
 * others need traffic an app does not make: 51 requests in a minute (the
 * 429 without its headers, the limit per key), a list walked while nothing
 * else writes (nextCursor on the last page: the proxy does not judge list
 * walks, another client may write between pages), a job polled past a
 * timeout (jobs never complete: a job may legally take long), another
 * team's template or shared fixtures (collaborator and team projects).
 */
const SHOWN: Record<string, string> = {
  '403 for another team’s project': 'isolation.not-found',
  'config replaced instead of merged': 'config.merge',
  'a 21st reference image accepted': 'request.bound',
  'revoked keys accepted': 'auth.revoked',
  'a rename changes the slug': 'project.reachable',
  'a duplicate starts published': 'project.published',
  'errors without X-Service-Error-Code': 'error.code',
  'a 201-character name accepted on create (cut to 200)': 'request.bound',
  'a config write answers a versionId that is not the latest version': 'version.latest',
  'unpublishing keeps publishedUrl': 'detail.unpublished-no-url',
  'the published filter ignored': 'list.filter',
  'a slide update that resets the files it was not sent': 'slide.kept-files',
  'date-times without an offset': 'response.shape',
  'a missing prompt accepted (defaulted)': 'request.bound',
  'a key whose prefix differs accepted': 'auth.prefix',
}

describe('the proxy against the defect servers', () => {
  it('lists only defects the kit has', () => {
    const names = new Set(DEFECTS.map((d) => d.name))
    for (const name of Object.keys(SHOWN)) expect(names.has(name), name).toBe(true)
  })

  for (const defect of DEFECTS.filter((d) => SHOWN[d.name] !== undefined)) {
    it(`reports: ${defect.name}`, async () => {
      const server = brokenEmulator(defect)
      const { proxy, judgements } = await proxied(server, PRES_KEYS)
      await ordinaryTraffic(proxy.url, PRES_KEYS, server)
      await proxy.idle()
      expect(musts(judgements).map((j) => j.factId)).toContain(SHOWN[defect.name])
      expect(proxy.judge.failed).toBe(true)
    })
  }
})

describe('what the proxy cannot vouch for is a note', () => {
  it('two interleaved clients: a fact across overlapping exchanges is a note', async () => {
    const defect = DEFECTS.find((d) => d.name === 'a duplicate starts published')!
    const server = brokenEmulator(defect)
    const { proxy, judgements } = await proxied(server, PRES_KEYS)
    const { json } = await call(proxy.url, 'POST', '/projects', { key: PRES_KEYS.main, json: { name: 'Shared deck' } })
    const { json: copy } = await call(proxy.url, 'POST', `/projects/${json.projectSlug}/duplicate`, { key: PRES_KEYS.main })
    // Two clients at once: reads of the duplicate while the other client renames the source.
    await Promise.all([
      call(proxy.url, 'GET', `/projects/${copy.projectSlug}`, { key: PRES_KEYS.main }),
      call(proxy.url, 'PATCH', `/projects/${json.projectSlug}`, { key: PRES_KEYS.main, json: { name: 'Renamed meanwhile' } }),
      call(proxy.url, 'GET', `/projects/${copy.projectSlug}`, { key: PRES_KEYS.main }),
    ])
    await proxy.idle()
    const about = judgements.filter((j) => j.factId === 'project.published')
    expect(about.length).toBeGreaterThan(0)
    expect(about.every((j) => j.level === 'note' && j.because === 'the exchange overlapped another in time')).toBe(true)
    expect(proxy.judge.failed).toBe(false)
    // The same read alone is a MUST.
    await call(proxy.url, 'GET', `/projects/${copy.projectSlug}`, { key: PRES_KEYS.main })
    await proxy.idle()
    expect(musts(judgements).map((j) => j.factId)).toEqual(['project.published'])
  })

  it('a write made directly to the target: facts about that project are notes', async () => {
    const server = createEmulator({ clock: 'manual', rateLimit: 0, onError: () => undefined })
    const { proxy, judgements, target } = await proxied(server, PRES_KEYS)
    const { json } = await call(proxy.url, 'POST', '/projects', { key: PRES_KEYS.main, json: { name: 'Deck' } })
    const slug = json.projectSlug
    await call(proxy.url, 'GET', `/projects/${slug}`, { key: PRES_KEYS.main })
    // Another app writes to the target, not through the proxy.
    await server.control.advanceClock({ ms: 1000 })
    await call(target, 'PATCH', `/projects/${slug}`, { key: PRES_KEYS.main, json: { name: 'Renamed elsewhere' } })
    await call(target, 'PUT', `/projects/${slug}/config`, { key: PRES_KEYS.main, json: { config: { width: 'FULL' } } })
    await call(proxy.url, 'GET', `/projects/${slug}`, { key: PRES_KEYS.main })
    await call(proxy.url, 'GET', '/projects?limit=100', { key: PRES_KEYS.main })
    await proxy.idle()
    const name = judgements.filter((j) => j.factId === 'project.name')
    expect(name.length).toBeGreaterThan(0)
    expect(name.every((j) => j.level === 'note' && j.because?.includes('outside the proxy'))).toBe(true)
    expect(findings(judgements)).toEqual([])
  })
})

describe('pass-through', () => {
  it('answers byte for byte, drops hop-by-hop headers, rewrites Host', async () => {
    const seen: Array<Record<string, string | undefined>> = []
    const server = createEmulator({ clock: 'manual', rateLimit: 0, onError: () => undefined })
    const { proxy, target } = await proxied(server, PRES_KEYS)
    const direct = await fetch(`${target}/projects/templates?limit=2`, { headers: { authorization: `Bearer ${PRES_KEYS.main}` } })
    // node:http, since fetch refuses to send a Connection header.
    const through = await new Promise<{ status: number; body: Buffer }>((resolve, reject) => {
      const sent = request(
        `${proxy.url}/projects/templates?limit=2`,
        {
          headers: { authorization: `Bearer ${PRES_KEYS.main}`, connection: 'keep-alive, x-private', 'x-private': 'hop', 'x-app': 'kept' },
        },
        (answer) => {
          const chunks: Buffer[] = []
          answer.on('data', (c: Buffer) => chunks.push(c))
          answer.on('end', () => resolve({ status: answer.statusCode ?? 0, body: Buffer.concat(chunks) }))
        },
      )
      sent.on('error', reject)
      sent.end()
    })
    expect(through.status).toBe(direct.status)
    expect(through.body).toEqual(Buffer.from(await direct.arrayBuffer()))
    await proxy.idle()
    const [last] = await server.control.listRequests({ limit: 1 }).requests
    seen.push(last!.request.headers)
    expect(seen[0]!.host).toBe(new URL(target).host)
    expect(seen[0]!['x-app']).toBe('kept')
    expect(seen[0]!['x-private']).toBeUndefined()
    // The proxy's own connection to the target may say keep-alive; the client's Connection is not forwarded.
    expect(seen[0]!.connection ?? '').not.toContain('x-private')
  })

  it('passes a server error through; its error body and code are still judged', async () => {
    const server = createEmulator({ clock: 'manual', rateLimit: 0, onError: () => undefined })
    const { proxy, judgements } = await proxied(server, PRES_KEYS)
    server.control.addFault({ operationId: 'listTeams', status: 500 })
    const answer = await call(proxy.url, 'GET', '/teams', { key: PRES_KEYS.main })
    expect(answer.status).toBe(500)
    await proxy.idle()
    expect(findings(judgements)).toEqual([])
    expect(proxy.judge.report(proxy.startedAt, 0, 'x').scenarios.find((s) => s.id === 'error.code')?.checks).toBe(1)
  })

  it('passes a non-JSON answer through untouched and reports it clearly', async () => {
    const { createServer } = await import('node:http')
    const html = createServer((_, res) => {
      res.writeHead(200, { 'content-type': 'text/html' })
      res.end('<html>maintenance</html>')
    })
    await new Promise<void>((resolve) => html.listen(0, '127.0.0.1', resolve))
    cleanups.push(() => new Promise((resolve) => html.close(() => resolve())))
    const judgements: Judgement[] = []
    const proxy = await startProxy({
      baseUrl: `http://127.0.0.1:${(html.address() as { port: number }).port}/v1`,
      onJudgement: (j) => judgements.push(j),
    })
    cleanups.push(() => proxy.close())
    const answer = await fetch(`${proxy.url}/teams`, { headers: { authorization: 'Bearer pres_x' } })
    expect(await answer.text()).toBe('<html>maintenance</html>')
    await proxy.idle()
    const json = judgements.find((j) => j.factId === 'json.body')
    expect(json?.level).toBe('MUST')
    expect(json?.actual).toContain('text/html')
    expect(json?.curl).toMatch(/^curl -i -X GET 'http:\/\/127\.0\.0\.1:\d+\/v1\/teams' -H "Authorization: Bearer \$PRESENTATION_API_KEY"/)
  })

  it('answers 502 with X-Conformance-Proxy: upstream-error when the target is unreachable, and keeps running', async () => {
    const problems: string[] = []
    const proxy: RunningProxy = await startProxy({ baseUrl: 'http://127.0.0.1:1/v1', onProblem: (m) => problems.push(m) })
    cleanups.push(() => proxy.close())
    for (let i = 0; i < 2; i++) {
      const answer = await fetch(`${proxy.url}/teams`, { headers: { authorization: 'Bearer pres_x' } })
      expect(answer.status).toBe(502)
      expect(answer.headers.get('x-conformance-proxy')).toBe('upstream-error')
      expect((await answer.json()).error).toMatch(/could not reach/)
    }
    expect(proxy.judge.exchanges).toBe(0)
    expect(problems).toHaveLength(2)
  })

  it('answers 404 outside /v1 without forwarding', async () => {
    const proxy = await startProxy({ baseUrl: 'http://127.0.0.1:1/v1' })
    cleanups.push(() => proxy.close())
    const answer = await fetch(proxy.url.replace(/\/v1$/, '/other'))
    expect(answer.status).toBe(404)
    expect(answer.headers.get('x-conformance-proxy')).toBe('outside-base')
  })
})
