import { watch } from 'node:fs'
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { afterAll, beforeAll, describe, expect } from 'vitest'
import { Emulator } from '../../src/emulator.js'
import { integrityProblems } from '../../src/store/integrity.js'
import { StateDocument } from '../../src/store/world.js'
import { ensureBuilt, it, killAll, tempDir, type CliServer } from '../support/cli.js'

/** `--state FILE`: the world survives restarts and crashes (issue 5, "Persistence"). */

/** Polling for what the CLI does on its own: long enough for a busy machine (only a hang takes this long). Concurrent tests poll with their context's `expect`. */
const PATIENT = { timeout: 120_000, interval: 20 }

let dir: Awaited<ReturnType<typeof tempDir>>
/** A valid state document of the built-in world, made in-process. */
let validState: StateDocument

beforeAll(async () => {
  const emulator = new Emulator({ clock: 'manual' })
  await Promise.all([ensureBuilt(), emulator.ready()])
  validState = await emulator.control.getState()
  emulator.close()
  dir = await tempDir('presentation-emulator-state-')
})

afterAll(async () => {
  await killAll()
  await dir?.remove()
})

/** A path for a state file that does not exist yet. */
let files = 0
const stateFile = () => join(dir.path, `state-${++files}.json`)

/** Parses a state file and checks it completely, as the CLI does when it loads one. */
async function readState(file: string): Promise<StateDocument> {
  const text = await readFile(file, 'utf8')
  const parsed = StateDocument.safeParse(JSON.parse(text))
  if (!parsed.success) throw new Error(`${file} is not a valid state document: ${parsed.error.message}`)
  expect(integrityProblems(parsed.data)).toEqual([])
  return parsed.data
}

async function createProject(server: CliServer, name: string): Promise<string> {
  const created = await server.request('POST', '/v1/projects', { json: { name } })
  expect(created.status).toBe(200)
  return created.body.projectSlug as string
}

describe.concurrent('--state FILE', () => {
  // First, so that it runs alongside the tests below: it is long, but sequential inside.
  it('crash safety: always leaves a complete, loadable state file when killed with SIGKILL during bursts of writes', async ({
    cli,
    expect,
  }) => {
    const folder = join(dir.path, 'crash')
    await mkdir(folder)
    const file = join(folder, 'state.json')
    const kills: string[] = []
    let projects = validState.projects.length
    let grew = 0
    // Seeded, so a failing run's kill plan can be replayed (where a kill lands in time still varies).
    let seed = 20_261_125
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31
      return seed / 2 ** 31
    }
    for (let iteration = 0; iteration < 15; iteration++) {
      // Each run starts from what the previous crash left: starting at all proves the file loadable.
      const server = await cli.start(['--state', file, '--rate-limit', '0', '--quiet'])
      // Half the runs are killed at a random point of the burst (after its n-th answer); the other half
      // right at the k-th file event in the folder, i.e. while a save is being written (a random point of
      // the burst mostly falls between saves). Counted in answers and events, never in milliseconds.
      const atEvent = iteration % 2 === 0 ? 1 + Math.floor(random() * 8) : undefined
      const atAnswer = Math.floor(random() * 24)
      kills.push(atEvent === undefined ? `answer ${atAnswer}` : `event ${atEvent}`)
      let events = 0
      let killedAtEvent: () => void = () => undefined
      const eventReached = new Promise<void>((resolve) => {
        killedAtEvent = resolve
      })
      const watcher = watch(folder, () => {
        if (++events === atEvent) {
          server.kill('SIGKILL')
          killedAtEvent()
        }
      })
      let answers = 0
      let answerReached: () => void = () => undefined
      const answered = new Promise<void>((resolve) => {
        answerReached = resolve
      })
      const burst = Array.from({ length: 24 }, (_, i) => {
        const request =
          i % 4 === 3
            ? server.request('POST', '/v1/projects/welcome-deck/duplicate')
            : i % 4 === 2
              ? server.request('PATCH', '/v1/projects/welcome-deck', { json: { name: `Renamed ${iteration}.${i}` } })
              : server.request('POST', '/v1/projects', { json: { name: `Crash ${iteration}.${i}` } })
        return request
          .catch(() => undefined)
          .finally(() => {
            if (++answers > atAnswer) answerReached()
          })
      })
      if (atEvent === undefined) await Promise.race([answered, server.exited])
      else {
        // Fewer than k file events in the whole burst: kill once its changes are saved (the file has grown).
        await Promise.race([eventReached, server.exited, Promise.all(burst)])
        if (!server.hasExited && events < atEvent) {
          // Until the burst's changes are saved, or the watcher killed the server in the middle of that save.
          const saved = async () => server.hasExited || JSON.parse(await readFile(file, 'utf8')).projects.length > projects
          await expect.poll(saved, PATIENT).toBe(true)
        }
      }
      expect(await server.stop('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' })
      watcher.close()
      await Promise.all(burst)

      const text = await readFile(file, 'utf8')
      const context = `run ${iteration}, killed at ${kills.at(-1)}`
      expect(text.endsWith('}\n'), `${context}: torn file`).toBe(true)
      const doc = await readState(file)
      // Never older than what the run started from.
      expect(doc.projects.length, context).toBeGreaterThanOrEqual(projects)
      if (doc.projects.length > projects) grew++
      projects = doc.projects.length
    }
    // The last file loads too.
    const last = await cli.start(['--state', file, '--quiet'])
    expect((await last.request('GET', '/_emulator/state')).body.projects.length).toBe(projects)
    expect(await last.stop('SIGTERM')).toEqual({ code: 0, signal: null })
    // Some runs saved before their kill (else this test proved little), and the folder holds only
    // the state file and temporary files of writes cut short.
    expect(grew, `kills: ${kills.join(', ')}`).toBeGreaterThan(0)
    for (const name of await readdir(folder)) expect(name === basename(file) || /^state\.json\.\d+$/.test(name), name).toBe(true)
  }, 900_000)

  it('creates the file at start, and a restart after SIGTERM finds a project created just before it', async ({ cli }) => {
    const file = stateFile()
    const first = await cli.start(['--state', file])
    expect(first.stdout).toContain(`state ${file} (new)`)
    expect((await readState(file)).projects.length).toBe(validState.projects.length)
    // SIGTERM at once, well within the save debounce: the shutdown itself must save.
    const slug = await createProject(first, 'Survives a restart')
    expect(await first.stop('SIGTERM')).toEqual({ code: 0, signal: null })

    const second = await cli.start(['--state', file])
    expect(second.stdout).toContain(`state ${file} (loaded)`)
    const project = await second.request('GET', `/v1/projects/${slug}`)
    expect(project.status).toBe(200)
    expect(project.body.name).toBe('Survives a restart')
  })

  it('removes temporaries a killed process left beside the file, once the file has loaded', async ({ cli }) => {
    const file = stateFile()
    await writeFile(file, JSON.stringify(validState))
    const stale = `${file}.123456789`
    await writeFile(stale, '{"half": ')
    const server = await cli.start(['--state', file, '--quiet'])
    expect(await readdir(dir.path)).not.toContain(basename(stale))
    expect(await server.stop('SIGTERM')).toEqual({ code: 0, signal: null })
  })

  it('exits 0 with everything saved when SIGTERM comes in the middle of a save', async ({ cli }) => {
    const file = stateFile()
    const server = await cli.start(['--state', file, '--quiet'])
    // The save after the change below writes a temporary file next to the state file: signal right then.
    let signalled = false
    const watcher = watch(dir.path, (_event, name) => {
      if (!signalled && name?.startsWith(`${basename(file)}.`)) {
        signalled = true
        server.kill('SIGTERM')
      }
    })
    try {
      const slug = await createProject(server, 'Saved at shutdown')
      expect(await server.waitForExit()).toEqual({ code: 0, signal: null })
      expect(signalled).toBe(true)
      expect((await readState(file)).projects.some((p) => p.slug === slug)).toBe(true)
    } finally {
      watcher.close()
    }
  })

  it('saves a change shortly after it happens, without a shutdown', async ({ cli, expect }) => {
    const file = stateFile()
    const server = await cli.start(['--state', file, '--quiet'])
    const slug = await createProject(server, 'Saved while running')
    // No request, no signal: the change alone makes it save (after its debounce; how soon is not measured).
    await expect.poll(async () => (await readFile(file, 'utf8')).includes(`"slug":"${slug}"`), PATIENT).toBe(true)
    // Killed without a chance to save: what is on disk is all there is, and it is complete.
    expect(await server.stop('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' })
    expect((await readState(file)).projects.some((p) => p.slug === slug)).toBe(true)
  })

  it('saves a whole world replaced by PUT /_emulator/state or POST /_emulator/reset', async ({ cli }) => {
    const file = stateFile()
    // A whole world is a large body: on a busy machine a client may take longer than the default 60 s to send it.
    const patient = ['--request-timeout', '600']
    const server = await cli.start(['--state', file, '--quiet', ...patient])
    const doc = {
      ...validState,
      seed: 42,
      projects: validState.projects.map((p) => (p.slug === 'welcome-deck' ? { ...p, name: 'Put in place' } : p)),
    }
    expect((await server.request('PUT', '/_emulator/state', { json: doc })).status).toBe(200)
    expect(await server.stop('SIGTERM')).toEqual({ code: 0, signal: null })
    const saved = await readState(file)
    expect(saved.seed).toBe(42)
    expect(saved.projects.find((p) => p.slug === 'welcome-deck')?.name).toBe('Put in place')

    const restarted = await cli.start(['--state', file, '--quiet', ...patient])
    expect((await restarted.request('GET', '/v1/projects/welcome-deck')).body.name).toBe('Put in place')
    expect((await restarted.request('POST', '/_emulator/reset')).status).toBe(200)
    expect(await restarted.stop('SIGTERM')).toEqual({ code: 0, signal: null })
    const reset = await readState(file)
    expect(reset.seed).toBe(1)
    expect(reset.projects.find((p) => p.slug === 'welcome-deck')?.name).toBe('Welcome deck')
  })

  it('exits 1 on a file that is not JSON, naming the file, and leaves it byte-identical', async ({ cli }) => {
    const file = stateFile()
    const bytes = Buffer.from('{"format":"presentation-emulator/state@1","seed":1,')
    await writeFile(file, bytes)
    const result = await cli.run(['--port', '0', '--state', file])
    expect(result.code).toBe(1)
    expect(result.stderr).toContain(`state file ${file} is not valid JSON`)
    expect(result.stdout).toBe('')
    expect(await readFile(file)).toEqual(bytes)
  })

  it('exits 1 on an invalid state document, naming the field, and leaves it byte-identical', async ({ cli }) => {
    const file = stateFile()
    const doc = structuredClone(validState) as unknown as { projects: Array<Record<string, unknown>> }
    doc.projects[2]!.name = 42
    const bytes = Buffer.from(JSON.stringify(doc, null, 2))
    await writeFile(file, bytes)
    const result = await cli.run(['--port', '0', '--state', file])
    expect(result.code).toBe(1)
    expect(result.stderr).toContain(`state file ${file} cannot be loaded: not a valid state document`)
    expect(result.stderr).toMatch(/projects\[2\]\.name: /)
    expect(await readFile(file)).toEqual(bytes)
  })

  it('exits 1 on an inconsistent state document, naming the broken reference, and leaves it byte-identical', async ({ cli }) => {
    const file = stateFile()
    const doc = structuredClone(validState)
    doc.projects[0]!.teamId = 'team_nobody'
    const bytes = Buffer.from(JSON.stringify(doc))
    await writeFile(file, bytes)
    const result = await cli.run(['--port', '0', '--state', file])
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('not a consistent state document')
    expect(result.stderr).toContain('team_nobody')
    expect(await readFile(file)).toEqual(bytes)
  })

  it('exits 1 when the state file cannot be written', async ({ cli }) => {
    const file = join(dir.path, 'no-such-folder', 'state.json')
    const result = await cli.run(['--port', '0', '--state', file])
    expect(result.code).toBe(1)
    expect(result.stderr).toContain(`cannot write state file ${file}`)
    expect(result.stdout).toBe('')
  })

  it('exits 1 when the state path is a folder', async ({ cli }) => {
    const folder = join(dir.path, 'a-folder.json')
    await mkdir(folder)
    const result = await cli.run(['--port', '0', '--state', folder])
    expect(result.code).toBe(1)
    expect(result.stderr).toContain(`cannot read state file ${folder}`)
  })
})
