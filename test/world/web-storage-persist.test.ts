import { afterEach, describe, expect, it } from 'vitest'
import { DEFAULT_PERSIST_KEY, type WebStorageLike } from '../../src/adapters/web-storage.js'
import { createEmulator as createBrowserEmulator } from '../../src/browser.js'
import { createEmulator, type PresentationEmulatorBase } from '../../src/index.js'

/**
 * The `persist` option as a page uses it, with a Web Storage stand-in (the
 * real `sessionStorage` is exercised in headless Chromium, test/browser/).
 * A "reload" is a new emulator on the same storage.
 */
class MemoryStorage implements WebStorageLike {
  readonly items = new Map<string, string>()
  writes = 0
  failWith: Error | undefined
  getItem(key: string) {
    return this.items.get(key) ?? null
  }
  setItem(key: string, value: string) {
    if (this.failWith !== undefined) throw this.failWith
    this.writes += 1
    this.items.set(key, value)
  }
  removeItem(key: string) {
    this.items.delete(key)
  }
}

const open: PresentationEmulatorBase[] = []
afterEach(async () => {
  await Promise.all(open.splice(0).map((emulator) => emulator.close()))
})

function page(storage: WebStorageLike, options: { key?: string; onError?: (error: unknown) => void } = {}) {
  const emulator = createBrowserEmulator({ clock: 'manual', persist: { storage, key: options.key }, onError: options.onError })
  open.push(emulator)
  const call = (method: string, path: string, body?: unknown) =>
    emulator.fetch(`http://127.0.0.1:4010/v1${path}`, {
      method,
      headers: { authorization: 'Bearer pres_test_alice', 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  return { emulator, call }
}

const names = async (call: ReturnType<typeof page>['call']) =>
  ((await (await call('GET', '/projects?limit=100')).json()) as { projects: Array<{ name: string }> }).projects.map((p) => p.name)

describe('persist', () => {
  it('keeps the world across a reload: a change is saved before its answer is handed back', async () => {
    const storage = new MemoryStorage()
    const first = page(storage)
    expect((await first.call('POST', '/projects', { name: 'Survives a reload' })).status).toBe(200)
    // Saved by the time the answer arrived: no timer needs to run first.
    expect(JSON.parse(storage.items.get(DEFAULT_PERSIST_KEY)!).format).toBe('presentation-emulator/state@1')

    const reloaded = page(storage)
    expect(await names(reloaded.call)).toContain('Survives a reload')
    const clock = reloaded.emulator.control.clock()
    expect(clock.now).toBe('2026-01-01T00:00:00.000Z')
  })

  it('does not write when nothing changed', async () => {
    const storage = new MemoryStorage()
    const { call, emulator } = page(storage)
    await emulator.ready()
    await call('GET', '/teams')
    await call('GET', '/projects')
    expect(storage.writes).toBe(0)
  })

  it('puts the seeded world back, and saves it, on reset', async () => {
    const storage = new MemoryStorage()
    const first = page(storage)
    await first.call('POST', '/projects', { name: 'Gone after reset' })
    await first.emulator.control.reset()
    await first.emulator.close() // saves what is pending
    const reloaded = page(storage)
    expect(await names(reloaded.call)).not.toContain('Gone after reset')
  })

  it('keeps separate worlds under separate keys', async () => {
    const storage = new MemoryStorage()
    await page(storage, { key: 'a' }).call('POST', '/projects', { name: 'In a' })
    await page(storage, { key: 'b' }).call('GET', '/teams')
    expect(await names(page(storage, { key: 'b' }).call)).not.toContain('In a')
    expect(await names(page(storage, { key: 'a' }).call)).toContain('In a')
  })

  it('reports a saved document that no longer loads, and starts from the seeded world', async () => {
    const storage = new MemoryStorage()
    storage.items.set(DEFAULT_PERSIST_KEY, '{"format":"something else"}')
    const errors: unknown[] = []
    const { call } = page(storage, { onError: (error) => errors.push(error) })
    expect(await names(call)).toContain('Welcome deck')
    expect(String(errors[0])).toMatch(
      /the state saved under "presentation-emulator:state" cannot be loaded \(not a valid state document: format: /,
    )
    // The bad document was replaced by the seeded world.
    expect(JSON.parse(storage.items.get(DEFAULT_PERSIST_KEY)!).format).toBe('presentation-emulator/state@1')
  })

  it('reports a storage that refuses a save (over its quota) and still answers', async () => {
    const storage = new MemoryStorage()
    const errors: unknown[] = []
    const { call } = page(storage, { onError: (error) => errors.push(error) })
    storage.failWith = new Error('QuotaExceededError: the quota has been exceeded')
    expect((await call('POST', '/projects', { name: 'Too big' })).status).toBe(200)
    expect(String(errors[0])).toBe(
      'Error: cannot save the state under "presentation-emulator:state": QuotaExceededError: the quota has been exceeded',
    )
  })

  it.each([
    ['sessionStorage', /persist: sessionStorage is not available here \(it is a browser API\)/],
    ['cookies', /persist must be "sessionStorage", "localStorage" or \{ storage, key\? \}/],
  ])('refuses persist: %j where it cannot work', (persist, message) => {
    expect(() => createEmulator({ persist: persist as never })).toThrow(message)
  })

  it('refuses a storage without getItem / setItem', () => {
    expect(() => createEmulator({ persist: { storage: {} as never } })).toThrow(/persist: storage must have getItem and setItem/)
  })
})
