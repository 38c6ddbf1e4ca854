/**
 * `proxy --record FILE.har`: HAR 1.2, valid after every exchange (written
 * whole and renamed over), mode 0600, keys replaced by stable labels,
 * bodies kept up to a cap and marked when cut; and the emulator's journal
 * as HAR (`GET /_emulator/requests.har`).
 */
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { HarRecorder } from '../../conformance/har/recorder.js'
import { readHar } from '../../conformance/har/read.js'
import { startProxy } from '../../conformance/proxy/server.js'
import { Har, HarEntry } from '../../src/schemas/index.js'
import { createEmulator } from '../../src/index.js'
import { call } from './traffic.js'

const ALICE = 'pres_test_alice_acme'
const BOB = 'pres_test_bob'

const cleanups: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'proxy-har-'))
  cleanups.push(() => rm(dir, { recursive: true, force: true }))
  return dir
}

async function recording(bodyLimit?: number) {
  const server = createEmulator({ clock: 'manual', rateLimit: 0, onError: () => undefined })
  const { origin } = await server.listen({ port: 0 })
  cleanups.push(() => server.close())
  const file = join(await tempDir(), 'session.har')
  const recorder = await HarRecorder.create(file, bodyLimit)
  const proxy = await startProxy({ baseUrl: `${origin}/v1`, recorder })
  cleanups.push(() => proxy.close())
  return { proxy, file, origin }
}

/** The file as it is on disk: a HAR whose every entry parses. */
async function onDisk(file: string) {
  const json = JSON.parse(await readFile(file, 'utf8'))
  expect(Har.safeParse(json).success).toBe(true)
  expect(json.log.version).toBe('1.2')
  for (const entry of json.log.entries) expect(HarEntry.safeParse(entry).success).toBe(true)
  return json as { log: { entries: HarEntry[] } }
}

describe('proxy --record', () => {
  it('is a valid HAR with mode 0600 from the start and after every exchange', async () => {
    const { proxy, file } = await recording()
    expect((await onDisk(file)).log.entries).toEqual([])
    expect((await stat(file)).mode & 0o777).toBe(0o600)
    const calls: Array<[string, string, unknown?]> = [
      ['POST', '/projects', { name: 'Recorded deck' }],
      ['GET', '/projects?limit=5'],
      ['GET', '/teams'],
    ]
    for (const [i, [method, path, json]] of calls.entries()) {
      await call(proxy.url, method, path, { key: ALICE, ...(json === undefined ? {} : { json }) })
      await proxy.idle()
      const entries = (await onDisk(file)).log.entries
      expect(entries).toHaveLength(i + 1)
      expect(entries[i]!.request.method).toBe(method)
      expect(new URL(entries[i]!.request.url).pathname + new URL(entries[i]!.request.url).search).toBe(`/v1${path}`)
      expect((await stat(file)).mode & 0o777).toBe(0o600)
    }
    const [created] = (await onDisk(file)).log.entries
    expect(JSON.parse(created!.request.postData!.text!)).toEqual({ name: 'Recorded deck' })
    expect(JSON.parse(created!.response.content.text!).projectSlug).toEqual(expect.any(String))
  })

  it('replaces each key by a stable label in order of first appearance, and never writes a key', async () => {
    const { proxy, file } = await recording()
    await call(proxy.url, 'GET', '/teams', { key: BOB })
    await call(proxy.url, 'GET', '/teams', { key: ALICE })
    await call(proxy.url, 'GET', '/teams', { key: BOB })
    await call(proxy.url, 'GET', '/teams', { key: null })
    await proxy.idle()
    const text = await readFile(file, 'utf8')
    expect(text).not.toContain(ALICE)
    expect(text).not.toContain(BOB)
    const authorization = (await onDisk(file)).log.entries.map(
      (e) => e.request.headers.find((h) => h.name.toLowerCase() === 'authorization')?.value,
    )
    expect(authorization).toEqual(['Bearer <key-1>', 'Bearer <key-2>', 'Bearer <key-1>', undefined])
  })

  it('keeps bodies up to the cap and marks the ones it cut', async () => {
    const { proxy, file } = await recording(40)
    await call(proxy.url, 'POST', '/projects', { key: ALICE, json: { name: 'A name long enough to be cut by the cap' } })
    await call(proxy.url, 'POST', '/projects', { key: ALICE, json: { name: 'Short' } })
    await proxy.idle()
    const [long, short] = (await onDisk(file)).log.entries
    expect(long!.request.postData!.text).toHaveLength(40)
    expect(long!.request.postData!.comment).toMatch(/^truncated: the first 40 of \d+ bytes are kept$/)
    expect(long!.request.bodySize).toBeGreaterThan(40)
    expect(long!.response.content.comment).toMatch(/^truncated/)
    expect(short!.request.postData!.comment).toBeUndefined()
    // Replay reads a cut body as cut: it will skip the entry.
    expect(readHar(await readFile(file, 'utf8')).map((e) => e.cut)).toEqual([true, true])
  })
})

describe('GET /_emulator/requests.har', () => {
  it('exports the journal oldest first, with its filters, bodies marked where the cap cut them', async () => {
    const emulator = createEmulator({ clock: 'manual', rateLimit: 0, onError: () => undefined })
    cleanups.push(() => emulator.close())
    const send = (method: string, path: string, body?: unknown) =>
      emulator.fetch(`http://127.0.0.1:4010/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${ALICE}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
    await send('POST', '/projects', { name: 'First' })
    await send('GET', '/teams')
    await send('POST', '/projects', { name: 'Second, with a longer name' })
    await send('GET', '/projects/missing-one')
    const all = emulator.control.requestsHar()
    expect(Har.safeParse(all).success).toBe(true)
    const entries = all.log.entries as HarEntry[]
    expect(entries.map((e) => `${e.request.method} ${new URL(e.request.url).pathname}`)).toEqual([
      'POST /v1/projects',
      'GET /v1/teams',
      'POST /v1/projects',
      'GET /v1/projects/missing-one',
    ])
    for (const entry of entries) expect(HarEntry.safeParse(entry).success).toBe(true)
    // The journal's redaction: a key id, never the key.
    expect(JSON.stringify(all)).not.toContain(ALICE)
    expect(entries[0]!.request.headers.find((h) => h.name === 'authorization')?.value).toMatch(/^Bearer <key_/)

    const created = emulator.control.requestsHar({ operationId: 'createProject' }).log.entries as HarEntry[]
    expect(created.map((e) => JSON.parse(e.request.postData!.text!).name)).toEqual(['First', 'Second, with a longer name'])
    const newest = emulator.control.requestsHar({ operationId: 'createProject', limit: 1 }).log.entries as HarEntry[]
    expect(newest.map((e) => JSON.parse(e.request.postData!.text!).name)).toEqual(['Second, with a longer name'])
    const errors = emulator.control.requestsHar({ status: '4xx' }).log.entries as HarEntry[]
    expect(errors.map((e) => e.response.status)).toEqual([404])

    const cut = emulator.control.requestsHar({ operationId: 'createProject', bodyLimit: 10 }).log.entries as HarEntry[]
    expect(cut[1]!.request.postData!.text).toHaveLength(10)
    expect(cut[1]!.request.postData!.comment).toMatch(/^truncated: the first 10 of \d+ bytes are kept$/)
    expect(cut[1]!.response.content.comment).toMatch(/^truncated/)

    // Over HTTP, with the same query as the listing; a bad filter is a 400 and nothing else.
    const over = await emulator.fetch('http://127.0.0.1:4010/_emulator/requests.har?operationId=getProject')
    expect(over.status).toBe(200)
    const har = await over.json()
    expect(har.log.entries.map((e: HarEntry) => e.response.status)).toEqual([404])
    const bad = await emulator.fetch('http://127.0.0.1:4010/_emulator/requests.har?status=abc')
    expect(bad.status).toBe(400)
    expect(JSON.stringify(await bad.json())).toMatch(/status/)
    // A recording of the emulator replays: replay's reader understands every entry.
    expect(readHar(JSON.stringify(all)).every((e) => e.problem === undefined && !e.cut)).toBe(true)
  })
})
