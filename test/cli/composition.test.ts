import { readFile, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEmulator as createBrowserEmulator } from '../../src/browser.js'
import { createEmulator } from '../../src/index.js'
import { tempDir } from '../support/cli.js'

let dir: Awaited<ReturnType<typeof tempDir>>

beforeAll(async () => {
  dir = await tempDir('presentation-emulator-composition-')
})

afterAll(async () => {
  await dir?.remove()
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
