/**
 * `presentation-conformance replay`: a recording made through the proxy
 * against one target replays against the emulator with no divergence, and
 * against a defect server with the divergence shown; ids are rewritten,
 * what cannot be sent is skipped and listed; bad files are refused clearly.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { readHar } from '../../conformance/har/read.js'
import { HarRecorder } from '../../conformance/har/recorder.js'
import { startProxy } from '../../conformance/proxy/server.js'
import { replayMain } from '../../conformance/replay/cli.js'
import { type ReplayOptions, replay } from '../../conformance/replay/replay.js'
import { createEmulator, type PresentationEmulator } from '../../src/index.js'
import { brokenEmulator, DEFECTS, specLegalEmulator, LIVE_KEYS } from '../conformance/variants.js'
import { ordinaryTraffic, type TrafficKeys } from './traffic.js'

const PRES_KEYS: TrafficKeys = { main: 'pres_test_alice_acme', other: 'pres_test_bob', revoked: 'pres_test_revoked' }

const cleanups: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'proxy-replay-'))
  cleanups.push(() => rm(dir, { recursive: true, force: true }))
  return dir
}

/** The fixed script of ordinary calls, recorded through the proxy in front of `server`: the HAR's text and the labels of the keys. */
async function record(
  server: PresentationEmulator,
  keys: TrafficKeys,
): Promise<{ text: string; labels: Map<string, string>; file: string }> {
  const { origin } = await server.listen({ port: 0 })
  cleanups.push(() => server.close())
  const file = join(await tempDir(), 'session.har')
  const recorder = await HarRecorder.create(file)
  const proxy = await startProxy({ baseUrl: `${origin}/v1`, recorder })
  await ordinaryTraffic(proxy.url, keys, server)
  await proxy.close()
  const labels = new Map<string, string>()
  for (const key of [keys.main, keys.other, keys.revoked, `zz${keys.main.slice(keys.main.indexOf('_'))}`])
    labels.set(recorder.labels.of(key), key)
  return { text: await readFile(file, 'utf8'), labels, file }
}

/** Replay options against `target`'s in-process fetch, the keys by label, moving its clock to wait. */
function against(target: PresentationEmulator, keys: Map<string, string>): ReplayOptions {
  return {
    baseUrl: 'http://127.0.0.1:4010/v1',
    fetch: target.fetch,
    keys,
    map: new Map(),
    allowWrites: true,
    allowGeneration: true,
    dryRun: false,
    sleep: async (ms) => void (await target.control.advanceClock({ ms })),
    jobTimeoutMs: 600_000,
  }
}

/** The recording's labels, sent as the target's keys (`live_` keys map to the emulator's `pres_` ones). */
const relabel = (labels: Map<string, string>, to: (key: string) => string) => new Map([...labels].map(([label, key]) => [label, to(key)]))

describe('replay', () => {
  it('a recording made through the proxy against a spec-legal server replays against the emulator with no divergence', async () => {
    const { text, labels } = await record(specLegalEmulator(), LIVE_KEYS)
    const emulator = createEmulator({ clock: 'manual', rateLimit: 0, onError: () => undefined })
    cleanups.push(() => emulator.close())
    const toPres = (key: string) => key.replace(/^live_/, 'pres_')
    const result = await replay(readHar(text), against(emulator, relabel(labels, toPres)))
    expect(result.divergences).toEqual([])
    expect(result.sent).toBeGreaterThan(35)
    // Only what it could not send is skipped, each with its reason.
    for (const { reason } of result.skipped) expect(reason).toMatch(/did not introduce|an earlier poll/)
    expect(result.skipped.find((s) => s.what.includes('no-such-project-anywhere'))?.reason).toMatch(/--map no-such-project-anywhere=NEW/)
  })

  it('against a defect server, the divergence is shown', async () => {
    const { text, labels } = await record(createEmulator({ clock: 'manual', rateLimit: 50, onError: () => undefined }), PRES_KEYS)
    const defect = DEFECTS.find((d) => d.name === 'a duplicate starts published')!
    const broken = brokenEmulator(defect)
    cleanups.push(() => broken.close())
    const result = await replay(readHar(text), { ...against(broken, labels) })
    expect(result.divergences.map((d) => d.what)).toContainEqual(expect.stringMatching(/^project\.published: /))
    const shown = result.divergences.find((d) => d.what.startsWith('project.published'))!
    expect(shown.operation).toMatch(/getProject/)
    expect(shown).toMatchObject({ expected: '"unpublished"' })
  })

  it('rewrites the ids the recording introduced and sends a foreign id only when --map names it', async () => {
    const emulator = createEmulator({ clock: 'manual', rateLimit: 0, onError: () => undefined })
    const { text, labels } = await record(emulator, PRES_KEYS)
    const fresh = createEmulator({ clock: 'manual', rateLimit: 0, onError: () => undefined })
    cleanups.push(() => fresh.close())
    // Something on the target already, so its new ids are not the recording's.
    await fresh.fetch('http://127.0.0.1:4010/v1/projects', {
      method: 'POST',
      headers: { authorization: `Bearer ${PRES_KEYS.main}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Quarterly review' }),
    })
    const recordedSlug = JSON.parse(readHar(text).find((e) => e.recorded?.method === 'POST')!.recorded!.responseBody).projectSlug
    const sent: string[] = []
    const result = await replay(readHar(text), {
      ...against(fresh, labels),
      map: new Map([['no-such-project-anywhere', 'still-not-there']]),
      onStep: (step) => {
        if (step.kind === 'sent') sent.push(`${step.request.method} ${new URL(step.request.url).pathname}`)
      },
    })
    expect(result.divergences).toEqual([])
    expect(sent).toContain('GET /v1/projects/still-not-there')
    // The replay's own project is the one renamed, published and duplicated.
    const renamed = sent.filter((s) => s.startsWith('PATCH '))
    expect(renamed.length).toBeGreaterThan(0)
    expect(renamed.every((s) => !s.includes(recordedSlug))).toBe(true)
    const state = await fresh.control.getState()
    const names = (state as unknown as { projects: Array<{ name: string }> }).projects.map((p) => p.name)
    // Its own copy renamed; the project that was there before, with the same first name, untouched.
    expect(names).toContain('Quarterly review, final')
    expect(names).toContain('Quarterly review')
  })

  it('without --allow-writes sends only reads; a dry run sends nothing', async () => {
    const { text, labels } = await record(createEmulator({ clock: 'manual', rateLimit: 0, onError: () => undefined }), PRES_KEYS)
    const target = createEmulator({ clock: 'manual', rateLimit: 0, onError: () => undefined })
    cleanups.push(() => target.close())
    const reads = await replay(readHar(text), { ...against(target, labels), allowWrites: false, allowGeneration: false })
    expect(reads.skipped.some((s) => s.reason.includes('--allow-writes'))).toBe(true)
    expect(reads.skipped.some((s) => s.reason.includes('--allow-generation'))).toBe(true)
    expect(reads.steps.every((s) => s.request.method === 'GET')).toBe(true)
    target.control.clearRequests()
    const planned: string[] = []
    const dry = await replay(readHar(text), {
      ...against(target, labels),
      dryRun: true,
      onStep: (step) => {
        if (step.kind === 'planned') planned.push(step.request.method)
      },
    })
    expect(dry.sent).toBe(0)
    expect(planned.length).toBeGreaterThan(35)
    expect(target.control.listRequests().requests).toEqual([])
  })
})

describe('replay: the CLI and bad input', () => {
  const run = async (...args: string[]) => {
    const out: string[] = []
    const err: string[] = []
    const code = await replayMain(['node', 'presentation-conformance', ...args], { out: (t) => out.push(t), err: (t) => err.push(t) })
    return { code, out: out.join(''), err: err.join('') }
  }

  it('refuses a file that is not JSON or not HAR with a clear message (exit 2), and skips entries it cannot understand', async () => {
    const dir = await tempDir()
    const notJson = join(dir, 'a.har')
    await writeFile(notJson, '<html>')
    expect(await run(notJson)).toMatchObject({ code: 2, err: expect.stringMatching(/a\.har is not JSON/) })
    const notHar = join(dir, 'b.har')
    await writeFile(notHar, JSON.stringify({ entries: [] }))
    expect(await run(notHar)).toMatchObject({ code: 2, err: expect.stringMatching(/b\.har is not a HAR file: log/) })
    expect(await run(join(dir, 'missing.har'))).toMatchObject({ code: 2, err: expect.stringMatching(/cannot read .*ENOENT/) })
    expect(await run(notHar, '--key', 'nolabel')).toMatchObject({ code: 2 })
    const odd = join(dir, 'c.har')
    await writeFile(
      odd,
      JSON.stringify({
        log: { version: '1.2', creator: { name: 'x', version: '1' }, entries: [{ request: { method: 'GET' } }, 'nonsense'] },
      }),
    )
    const skipped = await run(odd, '--dry-run')
    expect(skipped.code).toBe(0)
    expect(skipped.out).toMatch(/#1 skipped: entry 1: not a HAR entry: /)
    expect(skipped.out).toMatch(/#2 skipped: entry 2: not a HAR entry/)
  })

  it('replays the emulator’s own journal export against the in-process emulator; a devtools HAR’s extra fields are ignored', async () => {
    const source = createEmulator({ clock: 'manual', rateLimit: 0, onError: () => undefined })
    cleanups.push(() => source.close())
    const send = (method: string, path: string, body?: unknown) =>
      source.fetch(`http://127.0.0.1:4010/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${PRES_KEYS.main}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
    const created = await (await send('POST', '/projects', { name: 'From the journal' })).json()
    await send('PATCH', `/projects/${created.projectSlug}`, { name: 'Renamed from the journal' })
    await send('GET', `/projects/${created.projectSlug}`)
    const har = source.control.requestsHar()
    // As a browser saves it: pages, private fields, an OPTIONS preflight and a request to another host.
    const entries = har.log.entries as Array<Record<string, any>>
    const devtools = {
      log: {
        ...har.log,
        pages: [{ id: 'page_1', title: 'app' }],
        entries: [
          { ...entries[0], request: { ...entries[0]!.request, method: 'OPTIONS' }, _resourceType: 'preflight' },
          { ...entries[0], request: { ...entries[0]!.request, url: 'https://fonts.example.com/v1/projects' } },
          ...entries.map((e) => ({ ...e, _initiator: { type: 'script' }, _priority: 'High' })),
        ],
      },
    }
    const file = join(await tempDir(), 'devtools.har')
    await writeFile(file, JSON.stringify(devtools))
    const keyId = /<(.+)>/.exec(entries[0]!.request.headers.find((h: { name: string }) => h.name === 'authorization').value)![1]!
    const result = await run(file, '--key', `${keyId}=${PRES_KEYS.main}`, '--allow-writes')
    expect(result.out).toContain('No divergence.')
    expect(result.out).toContain('3 sent, 2 skipped, 0 divergence(s)')
    expect(result.out).toMatch(/#1 skipped: .*OPTIONS/)
    expect(result.out).toMatch(/#2 skipped: .*another host/)
    expect(result.code).toBe(0)
  })

  it('writes a counterexample HAR and a curl script for a divergence, and exits 1', async () => {
    const source = createEmulator({ clock: 'manual', rateLimit: 0, onError: () => undefined })
    cleanups.push(() => source.close())
    await source.fetch('http://127.0.0.1:4010/v1/projects/gone', { headers: { authorization: `Bearer ${PRES_KEYS.main}` } })
    const har = source.control.requestsHar()
    // The recording says 200 where the emulator answers 404: a divergence on the status.
    const entries = har.log.entries as Array<Record<string, any>>
    entries[0]!.response.status = 200
    const dir = await tempDir()
    const file = join(dir, 'diverges.har')
    await writeFile(file, JSON.stringify(har))
    const keyId = /<(.+)>/.exec(entries[0]!.request.headers.find((h: { name: string }) => h.name === 'authorization').value)![1]!
    const counterexample = join(dir, 'ce.har')
    const result = await run(file, '--key', `${keyId}=${PRES_KEYS.main}`, '--map', 'gone=gone', '--counterexample', counterexample)
    expect(result.code).toBe(1)
    expect(result.out).toMatch(/entry #1 GET \/projects\/\{slug\} \(getProject\): the status\n\s+expected: "200"\n\s+actual:\s+"404"/)
    expect(readHar(await readFile(counterexample, 'utf8'))).toHaveLength(1)
    const script = await readFile(join(dir, 'ce.sh'), 'utf8')
    expect(script).toContain(
      `curl -i -X GET 'http://127.0.0.1:4010/v1/projects/gone' -H "Authorization: Bearer $PRESENTATION_KEY_${keyId.toUpperCase()}"`,
    )
    expect(script).not.toContain(PRES_KEYS.main)
  })
})
