import { watch } from 'node:fs'
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect } from 'vitest'
import { Emulator } from '../../src/emulator.js'
import { atomicWrite, StateFile } from '../../src/node/state-file.js'
import { ensureBuilt, it, PATIENCE_MS, tempDir } from '../support/cli.js'

/**
 * Issue 11: a `--state` file that cannot be written (read-only folder, full
 * disk) is reported once, the emulator keeps serving, the last good file
 * stays, and the save is retried until it works, without waiting for a new
 * change. Tests run as root here, where chmod does not stop a write: the
 * CLI test blocks the path with a folder, the in-process test puts a full
 * disk in front of the real atomic write.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

let dir: Awaited<ReturnType<typeof tempDir>>
beforeAll(async () => {
  await ensureBuilt()
  dir = await tempDir('presentation-emulator-state-failure-')
})
afterAll(() => dir?.remove())

/** Polls `check` until it holds (rejects after `timeoutMs`: a hang). */
async function waitUntil(check: () => Promise<boolean> | boolean, timeoutMs = PATIENCE_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await sleep(25)
  }
}

describe('a state file that cannot be written', () => {
  it('in-process, on a full disk: one report, the last good file kept, serving goes on, and a retry saves once the disk has room', async () => {
    const path = join(dir.path, 'full-disk.json')
    const emulator = new Emulator({ clock: 'manual' })
    await emulator.ready()
    let diskFull = false
    let writes = 0
    const reports: unknown[] = []
    let recovered = 0
    const file = new StateFile(path, emulator, {
      debounceMs: 10,
      retryMs: 40,
      maxRetryMs: 80,
      onError: (error) => reports.push(error),
      onRecover: () => recovered++,
      writeFile: async (target, data) => {
        writes++
        if (diskFull) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })
        await atomicWrite(target, data)
      },
    })
    await file.save()
    file.watch()
    const good = await readFile(path, 'utf8')

    diskFull = true
    const accounts: string[] = []
    for (let i = 0; i < 3; i++) {
      accounts.push((await emulator.control.createAccount({ name: `while full ${i}` })).userId)
      await sleep(60)
    }
    await waitUntil(() => writes >= 5)
    expect(reports).toHaveLength(1)
    expect((reports[0] as Error).message).toMatch(/ENOSPC/)
    expect(await readFile(path, 'utf8')).toBe(good)
    const served = await emulator.handle({
      method: 'GET',
      path: '/v1/teams',
      query: '',
      headers: { authorization: 'Bearer pres_test_alice' },
      body: null,
    })
    expect(served.status).toBe(200)

    // No new change: the retry alone writes everything made while the disk was full.
    // Waits for the recovery itself: the file is renamed into place a moment before the save that wrote it is
    // done, so a test that polled the file could look at `recovered` in between.
    diskFull = false
    await waitUntil(() => recovered > 0)
    const saved = JSON.parse(await readFile(path, 'utf8'))
    expect(accounts.every((id) => saved.users.some((user: { id: string }) => user.id === id))).toBe(true)
    expect(recovered).toBe(1)
    expect(reports).toHaveLength(1)
    await file.close()
    emulator.close()
  })

  it('from the CLI, on a path blocked by a folder: one message, still serving, and the file is back once the path is free', async ({
    cli,
  }) => {
    const path = join(dir.path, 'blocked.json')
    // Every save writes a temporary file of its own beside the path (then renames it): their names tell the attempts apart.
    const attempts = new Set<string>()
    const watcher = watch(dir.path, (_event, name) => {
      if (name?.startsWith('blocked.json.')) attempts.add(name)
    })
    const server = await cli.start(['--state', path, '--quiet', '--clock', 'manual'])
    expect((await stat(path)).isFile()).toBe(true)
    // Root ignores permissions, so block the rename with a non-empty folder in the file's place.
    await rm(path)
    await mkdir(path)
    await writeFile(join(path, 'keep'), 'x')
    for (let i = 0; i < 3; i++) {
      expect((await server.request('POST', '/_emulator/accounts', { key: null, json: { name: `blocked ${i}` } })).status).toBe(201)
      await sleep(200)
    }
    expect((await server.request('GET', '/v1/projects')).status).toBe(200)
    await waitUntil(() => /cannot save state/.test(server.stderr))
    // Retries after the report that fail again say nothing more. Two attempts not seen before the report: the
    // second starts only once the first has failed and been handled (it is scheduled by that handling).
    const reported = new Set(attempts)
    await waitUntil(() => [...attempts].filter((name) => !reported.has(name)).length >= 2)
    watcher.close()
    expect(server.stderr.match(/cannot save state/g)).toHaveLength(1)
    expect(server.stderr).toMatch(/The last saved file is kept; the emulator keeps serving and retries/)

    await rm(path, { recursive: true })
    await waitUntil(async () =>
      stat(path).then(
        (s) => s.isFile(),
        () => false,
      ),
    )
    const saved = JSON.parse(await readFile(path, 'utf8'))
    expect(saved.users.filter((user: { name: string }) => user.name.startsWith('blocked '))).toHaveLength(3)
    await waitUntil(() => /state saved to .* again/.test(server.stderr))
    expect(await server.stop()).toEqual({ code: 0, signal: null })
  })
})
