import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ensureBuilt, ROOT } from './cli.js'
import { createEmulator } from '../../src/index.js'
import { createHookedEmulator } from './hooked-emulator.js'

const BASE = 'http://127.0.0.1:4010/v1'
const ALICE = { authorization: 'Bearer pres_test_alice' }

async function declarationFiles(dir: string): Promise<string[]> {
  const files: string[] = []
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) files.push(...(await declarationFiles(path)))
    else if (entry.name.endsWith('.d.ts')) files.push(path)
  }
  return files
}

describe('the test seams', () => {
  it('are in no published declaration file: no testHooks option, no hooked factory, no pipeline parts on Emulator', async () => {
    await ensureBuilt()
    const files = await declarationFiles(join(ROOT, 'dist'))
    expect(files.length).toBeGreaterThan(50)
    const mentioning = []
    for (const file of files) {
      const text = await readFile(file, 'utf8')
      if (/testHooks|TestHooks|createHookedEmulator/.test(text)) mentioning.push(file)
    }
    expect(mentioning).toEqual([])
    const emulator = await readFile(join(ROOT, 'dist', 'src', 'emulator.d.ts'), 'utf8')
    expect(emulator.match(/constructor\(.*\);/g)).toEqual(['constructor(options?: EmulatorOptions);'])
  }, 180_000)

  it('leave the product unchanged: an option named testHooks does nothing', async () => {
    const emulator = createEmulator({ testHooks: { transformResponse: () => ({ status: 418, headers: {}, body: null }) } } as never)
    expect((await emulator.fetch(`${BASE}/teams`, { headers: ALICE })).status).toBe(200)
    await emulator.close()
  })
})

describe('createHookedEmulator', () => {
  it('wraps handlers, authentication and the rate limit as parts of the pipeline', async () => {
    const seen: string[] = []
    const emulator = createHookedEmulator(
      { clock: 'manual', rateLimit: 2 },
      {
        wrapOperation: (id, handler) => async (context) => {
          seen.push(id)
          return handler(context)
        },
        authenticate: (header, standard) => standard(header?.replace('Bearer live_', 'Bearer pres_')),
        rateLimit: (principal, standard) => standard(principal.key.id),
      },
    )
    expect((await emulator.fetch(`${BASE}/teams`, { headers: { authorization: 'Bearer live_test_alice' } })).status).toBe(200)
    expect((await emulator.fetch(`${BASE}/teams`, { headers: ALICE })).status).toBe(200)
    // Counted per key: a second key of the same user has its own window.
    expect((await emulator.fetch(`${BASE}/teams`, { headers: { authorization: 'Bearer pres_test_alice_acme' } })).status).toBe(200)
    expect((await emulator.fetch(`${BASE}/teams`, { headers: ALICE })).status).toBe(429)
    expect(seen).toEqual(['listTeams', 'listTeams', 'listTeams'])
    await emulator.close()
  })

  it('rewrites requests and responses around handle, naming the operation once the key authenticates', async () => {
    const exchanges: Array<[string | undefined, number]> = []
    const emulator = createHookedEmulator(
      { clock: 'manual' },
      {
        transformRequest: ({ request, operationId }) =>
          operationId === 'listProjects' ? { ...request, query: request.query.replace('limit=1', 'limit=2') } : request,
        transformResponse: ({ operationId }, response) => {
          exchanges.push([operationId, response.status])
          return response.status === 404 ? { ...response, status: 410 } : response
        },
      },
    )
    const page = await emulator.fetch(`${BASE}/projects?limit=1`, { headers: ALICE })
    expect(((await page.json()) as { projects: unknown[] }).projects).toHaveLength(2)
    expect((await emulator.fetch(`${BASE}/projects/nope`, { headers: ALICE })).status).toBe(410)
    expect((await emulator.fetch(`${BASE}/projects`)).status).toBe(401)
    expect(exchanges).toEqual([
      ['listProjects', 200],
      ['getProject', 404],
      [undefined, 401],
    ])
    // The journal holds what the emulator itself saw and answered.
    const journal = emulator.control.listRequests({ limit: 3 }).requests
    expect(journal.map((entry) => [entry.query, entry.status])).toEqual([
      ['', 401],
      ['', 404],
      ['limit=2', 200],
    ])
    await emulator.close()
  })
})
