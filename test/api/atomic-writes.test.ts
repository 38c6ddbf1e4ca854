/**
 * Writes are all or nothing: every operation that writes more than one
 * record, made to fail at each of its writes (the last one included),
 * leaves the world exactly as it was (read through the control plane),
 * tells no listener (the pages' streams, `--state`) and saves nothing
 * (browser persistence); the same operation then succeeds as if the
 * failure never happened (ids included).
 */
import { describe, expect, it } from 'vitest'
import { createEmulator, type PresentationEmulator, type WebStorageLike } from '../../src/index.js'
import { TABLE_NAMES } from '../../src/store/world.js'

const BASE = 'http://127.0.0.1:4010'
const ACME = 'pres_test_alice_acme'

/** A Web Storage in memory that counts its saves. */
function memoryStorage(): WebStorageLike & { saves: number } {
  const items = new Map<string, string>()
  return {
    saves: 0,
    getItem: (key) => items.get(key) ?? null,
    setItem(key, value) {
      this.saves += 1
      items.set(key, value)
    },
    removeItem: (key) => void items.delete(key),
  }
}

/**
 * Counts the writes to the emulator's world from now on and makes the
 * `failAt`-th one throw (none when undefined). The world is reached
 * through `emulator.emulator`, the documented way in for advanced use.
 */
function instrument(emulator: PresentationEmulator, failAt: number | undefined): { writes: () => number } {
  let count = 0
  const world = emulator.emulator.world
  for (const name of TABLE_NAMES) {
    const table = world.table(name) as unknown as Record<'insert' | 'update' | 'remove', (...args: unknown[]) => unknown>
    for (const method of ['insert', 'update', 'remove'] as const) {
      const original = table[method].bind(table)
      table[method] = (...args: unknown[]) => {
        count += 1
        if (count === failAt) throw new Error(`injected failure of write ${count} (${name}.${method})`)
        return original(...args)
      }
    }
  }
  return { writes: () => count }
}

const json = (method: string, body?: unknown, key = ACME): RequestInit => ({
  method,
  headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
})

async function bodyOf(response: Response): Promise<any> {
  return response.json()
}

interface Case {
  name: string
  /** Prepares the world (not counted); returns what `act` needs. */
  setup?: (emulator: PresentationEmulator) => Promise<Record<string, string>>
  act: (emulator: PresentationEmulator, context: Record<string, string>) => Promise<Response>
  /** The clock moves whatever happens to the writes (it is not the world's state): compared without it. */
  movesClock?: boolean
}

const firstSlide = async (emulator: PresentationEmulator, slug: string) =>
  (await bodyOf(await emulator.fetch(`${BASE}/v1/projects/${slug}/slides`, json('GET')))).slides[0].id as string

const generated = async (emulator: PresentationEmulator) => ({
  jobId: (await bodyOf(await emulator.fetch(`${BASE}/v1/projects/generate`, json('POST', { prompt: 'Otters of the Pacific' })))).jobId,
})

const CASES: Case[] = [
  {
    name: 'generateProject',
    act: (e) =>
      e.fetch(`${BASE}/v1/projects/generate`, json('POST', { prompt: 'Otters of the Pacific', templateId: 'tpl_acme_quarterly' })),
  },
  { name: 'duplicateProject', act: (e) => e.fetch(`${BASE}/v1/projects/welcome-deck/duplicate`, json('POST')) },
  { name: 'createProject', act: (e) => e.fetch(`${BASE}/v1/projects`, json('POST', { name: 'New' })) },
  {
    name: 'updateProjectConfig',
    act: (e) => e.fetch(`${BASE}/v1/projects/welcome-deck/config`, json('PUT', { config: { layout: 'CARD' } })),
  },
  { name: 'createSlide', act: (e) => e.fetch(`${BASE}/v1/projects/welcome-deck/slides`, json('POST', { name: 'One more' })) },
  {
    name: 'updateSlide',
    setup: async (e) => ({ slideId: await firstSlide(e, 'welcome-deck') }),
    act: (e, { slideId }) =>
      e.fetch(`${BASE}/v1/projects/welcome-deck/slides/${slideId}`, json('PUT', { files: { 'slide.content.json': '{"title":"Now"}' } })),
  },
  { name: 'publishProject', act: (e) => e.fetch(`${BASE}/v1/projects/welcome-deck/publish`, json('POST')) },
  {
    name: 'unpublishProject',
    setup: async (e) => {
      await e.fetch(`${BASE}/v1/projects/welcome-deck/publish`, json('POST'))
      return {}
    },
    act: (e) => e.fetch(`${BASE}/v1/projects/welcome-deck/publish`, json('DELETE')),
  },
  {
    name: 'a job completed by the control plane',
    setup: generated,
    act: (e, { jobId }) => e.fetch(`${BASE}/_emulator/jobs/${jobId}/complete`, { method: 'POST' }),
  },
  {
    name: 'a job failed by the control plane',
    setup: generated,
    act: (e, { jobId }) => e.fetch(`${BASE}/_emulator/jobs/${jobId}/fail`, { method: 'POST', body: '{}' }),
  },
  {
    name: 'a job that completes as the clock passes its due time (settled before the next operation)',
    setup: generated,
    act: (e) => e.fetch(`${BASE}/_emulator/clock/advance`, { method: 'POST', body: JSON.stringify({ ms: 3_600_000 }) }),
    movesClock: true,
  },
  { name: 'createAccount', act: (e) => e.fetch(`${BASE}/_emulator/accounts`, { method: 'POST', body: '{"credits":3}' }) },
  {
    name: 'createTeam',
    act: (e) =>
      e.fetch(`${BASE}/_emulator/teams`, { method: 'POST', body: JSON.stringify({ name: 'QA', memberUserIds: ['usr_alice', 'usr_bob'] }) }),
  },
]

/** The state document through the control plane (without the clock's time when the case moves it). */
async function stateOf(emulator: PresentationEmulator, testCase: Case) {
  const { clock: _clock, ...state } = await emulator.control.getState()
  return testCase.movesClock ? state : { ...state, clock: _clock }
}

async function fresh(testCase: Case) {
  const storage = memoryStorage()
  const errors: unknown[] = []
  const emulator = createEmulator({ clock: 'manual', persist: { storage }, onError: (error) => errors.push(error) })
  await emulator.ready()
  const context = (await testCase.setup?.(emulator)) ?? {}
  return { emulator, storage, errors, context }
}

describe('writes are all or nothing', () => {
  it.each(CASES)('$name: failing at any of its writes, the last one included, changes nothing and tells nobody', async (testCase) => {
    // A run that succeeds, counting the writes.
    const reference = await fresh(testCase)
    const counter = instrument(reference.emulator, undefined)
    const succeeded = await testCase.act(reference.emulator, reference.context)
    expect(succeeded.status).toBeLessThan(300)
    const writes = counter.writes()
    expect(writes).toBeGreaterThan(1)
    const after = await stateOf(reference.emulator, testCase)
    await reference.emulator.close()

    for (const failAt of [writes, ...Array.from({ length: writes - 1 }, (_, i) => i + 1)]) {
      const { emulator, storage, errors, context } = await fresh(testCase)
      const before = await stateOf(emulator, testCase)
      const saves = storage.saves
      const heard: unknown[] = []
      const unsubscribe = emulator.emulator.onChange((change) => heard.push(change))
      instrument(emulator, failAt)
      const failed = await testCase.act(emulator, context)
      expect(failed.status, `failing write ${failAt} of ${writes}`).toBe(500)
      expect((await bodyOf(failed)).error).toBe('Internal server error')
      expect(String(errors.at(-1))).toContain(`injected failure of write ${failAt}`)
      expect(await stateOf(emulator, testCase)).toEqual(before)
      expect(heard).toEqual([])
      expect(storage.saves).toBe(saves)
      unsubscribe()
      // Nothing half-done is left behind: the same request now does exactly what it did the first time.
      if (failAt === writes) {
        const again = instrument(emulator, undefined)
        expect((await testCase.act(emulator, context)).status).toBeLessThan(300)
        expect(again.writes()).toBe(writes)
        expect(await stateOf(emulator, testCase)).toEqual(after)
        expect(storage.saves).toBeGreaterThan(saves)
      }
      await emulator.close()
    }
  })
})
