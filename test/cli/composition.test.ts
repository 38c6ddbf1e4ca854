import { readFile, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect } from 'vitest'
import { createEmulator as createBrowserEmulator } from '../../src/browser.js'
import { createEmulator, type PresentationEmulator, type RunningServer } from '../../src/index.js'
import { CliLauncher, type CliServer, ensureBuilt, it, killAll, tempDir } from '../support/cli.js'
import { parseBody, requestInit, type SendOptions } from '../support/http.js'

/**
 * The CLI and the library build their emulators through one composition
 * (`createEmulator`, then `listen()`): started with the same options, they
 * answer the same requests with the same state and serve the same pages.
 * And the library's `stateFile` option, which is the CLI's `--state`.
 */

/** One server to compare, the CLI's or the library's, by its origin. */
interface Target {
  origin: string
}

async function send(target: Target, method: string, path: string, options: SendOptions = {}) {
  const response = await fetch(`${target.origin}${path}`, requestInit(method, options))
  const text = await response.text()
  return { status: response.status, type: response.headers.get('content-type'), text, body: parseBody(text) }
}

/** A page as the test compares it: its status, its type and its text with the server's origin written `ORIGIN`. */
async function page(target: Target, path: string) {
  const { status, type, text } = await send(target, 'GET', path, { key: null, headers: { accept: 'text/html' } })
  return { status, type, text: text.replaceAll(target.origin, 'ORIGIN') }
}

let dir: Awaited<ReturnType<typeof tempDir>>

beforeAll(async () => {
  await ensureBuilt()
  dir = await tempDir('presentation-emulator-composition-')
})

afterAll(async () => {
  await killAll()
  await dir?.remove()
})

describe('the CLI and the library, started with the same options', () => {
  const launcher = new CliLauncher()
  let cli: CliServer
  let library: PresentationEmulator
  let server: RunningServer

  beforeAll(async () => {
    cli = await launcher.start(['--clock', 'manual', '--seed', '7', '--time-scale', '0.02', '--rate-limit', '50', '--quiet'])
    library = createEmulator({ clock: 'manual', seed: 7, timeScale: 0.02, rateLimit: 50 })
    server = await library.listen({ port: 0 })
  })

  afterAll(async () => {
    await launcher.killAll()
    await library?.close()
  })

  it.for(['/editor/welcome-deck', '/_emulator'])(
    'serve the same page at %s (before any request: the dashboard shows the journal, with durations)',
    async (path) => {
      const [fromCli, fromLibrary] = await Promise.all([page(cli, path), page(server, path)])
      expect(fromCli.status).toBe(200)
      expect(fromCli.type).toMatch(/^text\/html/)
      expect(fromLibrary).toEqual(fromCli)
    },
  )

  it('hold the same state after the same requests', async () => {
    const targets: Target[] = [cli, server]
    const before = await Promise.all(targets.map((target) => send(target, 'GET', '/_emulator/state')))
    expect(before.map((reply) => reply.status)).toEqual([200, 200])
    expect(before[0]!.text).toBe(before[1]!.text)

    for (const target of targets) {
      expect((await send(target, 'POST', '/v1/projects', { json: { name: 'Same deck' } })).status).toBe(200)
      const job = await send(target, 'POST', '/v1/projects/generate', { key: 'pres_test_alice_acme', json: { prompt: 'Otters' } })
      expect(job.status).toBe(200)
      expect((await send(target, 'POST', '/_emulator/clock/advance', { json: { ms: 600_000 } })).status).toBe(200)
      const done = await send(target, 'GET', `/v1/projects/jobs/${job.body.jobId}`, { key: 'pres_test_alice_acme' })
      expect(done.body.status).toBe('completed')
    }
    const after = await Promise.all(targets.map((target) => send(target, 'GET', '/_emulator/state')))
    expect(after[0]!.text).not.toBe(before[0]!.text)
    expect(after[0]!.text.replaceAll(cli.origin, 'ORIGIN')).toBe(after[1]!.text.replaceAll(server.origin, 'ORIGIN'))
    // And the editor of the deck the job made is the same page.
    const slug = (await send(cli, 'GET', '/v1/projects?limit=1', { key: 'pres_test_alice_acme' })).body.projects[0].slug
    const [fromCli, fromLibrary] = await Promise.all([page(cli, `/editor/${slug}`), page(server, `/editor/${slug}`)])
    expect(fromCli.status).toBe(200)
    expect(fromLibrary).toEqual(fromCli)
  })
})

describe('the stateFile option of createEmulator', () => {
  it('writes the seeded world to a new file, saves changes, and a second emulator loads them', async () => {
    const file = join(dir.path, 'library-state.json')
    const first = createEmulator({ clock: 'manual', stateFile: file })
    await first.ready()
    expect(first.stateFileLoaded).toBe(false)
    // Written before anything is answered, as the CLI writes it before it listens.
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(await first.control.getState())
    const created = await first.fetch('http://127.0.0.1:4010/v1/projects', {
      method: 'POST',
      headers: { authorization: 'Bearer pres_test_alice', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Kept in a file' }),
    })
    expect(created.status).toBe(200)
    const { projectSlug: slug } = (await created.json()) as { projectSlug: string }
    // Saved at the latest by close().
    await first.close()
    const saved = JSON.parse(await readFile(file, 'utf8'))
    expect(JSON.stringify(saved)).toContain(slug)

    const second = createEmulator({ clock: 'manual', stateFile: { path: file } })
    await second.ready()
    expect(second.stateFileLoaded).toBe(true)
    expect(await second.control.getState()).toEqual(saved)
    const found = await second.fetch(`http://127.0.0.1:4010/v1/projects/${slug}`, { headers: { authorization: 'Bearer pres_test_alice' } })
    expect(found.status).toBe(200)
    await second.close()
  })

  it('rejects ready() with the file named when it cannot be loaded, answers 500, and leaves the file as it was', async () => {
    const file = join(dir.path, 'not-json.json')
    await writeFile(file, '{"format": ')
    const before = await stat(file)
    const emulator = createEmulator({ stateFile: file })
    await expect(emulator.ready()).rejects.toMatchObject({ name: 'StateFileError', message: expect.stringContaining(`state file ${file}`) })
    const reply = await emulator.fetch('http://127.0.0.1:4010/v1/teams', { headers: { authorization: 'Bearer pres_test_alice' } })
    expect(reply.status).toBe(500)
    await emulator.close()
    expect(await readFile(file, 'utf8')).toBe('{"format": ')
    expect((await stat(file)).mtimeMs).toBe(before.mtimeMs)
  })

  it('rejects ready() when a new file cannot be written', async () => {
    const file = join(dir.path, 'no-such-folder', 'state.json')
    const emulator = createEmulator({ stateFile: file })
    await expect(emulator.ready()).rejects.toMatchObject({
      name: 'StateFileError',
      message: expect.stringContaining(`cannot write state file ${file}`),
    })
    await emulator.close()
  })

  it('is refused with persist, and without a path, before anything is built', () => {
    const storage = { getItem: () => null, setItem: () => undefined, removeItem: () => undefined }
    expect(() => createEmulator({ stateFile: join(dir.path, 'x.json'), persist: { storage } })).toThrow(/persist and stateFile/)
    expect(() => createEmulator({ stateFile: '' })).toThrow(TypeError)
    expect(() => createEmulator({ stateFile: {} as never })).toThrow(/stateFile must be a file path/)
    // The browser entry has no file system: it says so rather than ignore the option.
    expect(() => createBrowserEmulator({ stateFile: join(dir.path, 'x.json') } as never)).toThrow(/stateFile needs a file system/)
  })
})
