import { execFile } from 'node:child_process'
import { mkdir, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BIN, ensureBuilt, HEAVY_MS, ROOT, tempDir } from '../support/cli.js'

/**
 * A new user's vitest suite: ten test files running in parallel against one
 * shared emulator, started by `presentation-emulator/vitest/global-setup` or
 * by `presentation-emulator exec`. Each file works with its own account
 * (`workerAccount()`), so none sees a 429 or another file's projects,
 * faults or journal entries. The suite runs in a real vitest child process,
 * from a project that depends on the package as users do.
 */

const FILES = 10
let project: { path: string; remove: () => Promise<void> }

/** One test file of the user's suite; `n` tells it apart. */
const testFile = (n: number) => `
import { beforeAll, expect, it } from 'vitest'
import { createAccount, workerAccount, type EmulatorAccount } from 'presentation-emulator/vitest'

let account: EmulatorAccount
beforeAll(async () => {
  account = await workerAccount({ credits: 3 })
})

const api = (path: string, init: RequestInit = {}) =>
  fetch(account.baseUrl + path, { ...init, headers: { ...account.headers, 'content-type': 'application/json', ...init.headers } })

it('sees only its own projects, and no 429 over 40 requests', async () => {
  const statuses: number[] = []
  for (let i = 0; i < 5; i++) statuses.push((await api('/projects', { method: 'POST', body: JSON.stringify({ name: 'file ${n} #' + i }) })).status)
  for (let i = 0; i < 34; i++) statuses.push((await api('/teams')).status)
  const list = await api('/projects?limit=100')
  statuses.push(list.status)
  expect(statuses.filter((s) => s !== 200)).toEqual([])
  const names = (await list.json()).projects.map((p: { name: string }) => p.name).sort()
  expect(names).toEqual([0, 1, 2, 3, 4].map((i) => 'file ${n} #' + i))
})

it('has a fault and a journal of its own', async () => {
  const faultId = await account.addFault({ operationId: 'listTeams', status: 503, times: 0 })
  expect((await api('/teams')).status).toBe(503)
  await account.removeFault(faultId)
  expect((await api('/teams')).status).toBe(200)
  const created = await account.requests({ operationId: 'createProject' })
  expect(created.map((e) => JSON.parse(e.request.body!).name).sort()).toEqual([0, 1, 2, 3, 4].map((i) => 'file ${n} #' + i))
  expect(created.every((e) => e.keyId === account.keyId && e.request.headers.authorization === 'Bearer <' + account.keyId + '>')).toBe(true)
  const seen = await account.waitForRequest({ status: 503 }, { timeoutMs: 1000 })
  expect(seen.operationId).toBe('listTeams')
})

it('finishes its own generation without moving anyone’s clock', async () => {
  const job = await (await api('/projects/generate', { method: 'POST', body: JSON.stringify({ prompt: 'Deck ${n}' }) })).json()
  expect((await account.completeJob(job.jobId)).status).toBe('completed')
  await account.setCredits(0)
  expect((await api('/projects/generate', { method: 'POST', body: JSON.stringify({ prompt: 'One more' }) })).status).toBe(402)
})

it('gets a clean slate per test from createAccount', async () => {
  const fresh = await createAccount()
  const res = await fetch(fresh.baseUrl + '/projects', { headers: fresh.headers })
  expect((await res.json()).projects).toEqual([])
})
`

beforeAll(async () => {
  await ensureBuilt()
  project = await tempDir('presentation-emulator-vitest-')
  const path = project.path
  await writeFile(join(path, 'package.json'), JSON.stringify({ name: 'a-vitest-suite', private: true, type: 'module' }))
  await mkdir(join(path, 'node_modules'), { recursive: true })
  await symlink(ROOT, join(path, 'node_modules', 'presentation-emulator'), 'dir')
  await symlink(join(ROOT, 'node_modules', 'vitest'), join(path, 'node_modules', 'vitest'), 'dir')
  await mkdir(join(path, 'test'))
  for (let n = 1; n <= FILES; n++) await writeFile(join(path, 'test', `file-${n}.test.ts`), testFile(n))
  // The suite's own time limits only stop a hang: it runs on a machine as busy as this one.
  const limits = 'testTimeout: 120_000, hookTimeout: 300_000'
  await writeFile(
    join(path, 'vitest.config.ts'),
    `import { defineConfig } from 'vitest/config'
export default defineConfig({ test: { globalSetup: ['presentation-emulator/vitest/global-setup'], ${limits} } })
`,
  )
  await writeFile(
    join(path, 'vitest.exec.config.ts'),
    `import { defineConfig } from 'vitest/config'\nexport default defineConfig({ test: { ${limits} } })\n`,
  )
})

afterAll(() => project?.remove())

/** Runs a command in the user's project; never throws, answers its exit code and output. */
function run(file: string, args: string[]): Promise<{ code: number | null; output: string }> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !name.startsWith('PRESENTATION_EMULATOR_') && !name.startsWith('VITEST') && name !== 'FORCE_COLOR',
    ),
  )
  return new Promise((resolve) => {
    execFile(file, args, { cwd: project.path, env: { ...env, CI: 'true', NO_COLOR: '1' }, timeout: HEAVY_MS }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : ((error as { code?: number }).code ?? null), output: `${stdout}${stderr}` })
    })
  })
}

const VITEST = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs')

describe('a vitest suite of ten parallel files on one emulator', () => {
  it(
    'passes with the global setup: one emulator for the run, an account per file',
    async () => {
      const { code, output } = await run(process.execPath, [VITEST, 'run'])
      expect(output).toMatch(new RegExp(`Test Files\\s+${FILES} passed`))
      expect(output).toMatch(new RegExp(`Tests\\s+${FILES * 4} passed`))
      expect(code, output).toBe(0)
    },
    HEAVY_MS,
  )

  it.for([
    [
      'passes under `presentation-emulator exec --clock manual`, the README’s command (no rate limit unless asked for)',
      ['--clock', 'manual'],
    ],
    ['passes under `exec --rate-limit 50` on a real clock: each worker’s account has its own bucket', ['--rate-limit', '50']],
  ] as const)('%s', { timeout: HEAVY_MS }, async ([, flags]) => {
    const { code, output } = await run(process.execPath, [
      BIN,
      'exec',
      ...flags,
      '--',
      process.execPath,
      VITEST,
      'run',
      '--config',
      'vitest.exec.config.ts',
    ])
    expect(output).toMatch(new RegExp(`Test Files\\s+${FILES} passed`))
    expect(code, output).toBe(0)
  })

  it(
    'tells a file how to set things up when there is no emulator',
    async () => {
      const { code, output } = await run(process.execPath, [VITEST, 'run', '--config', 'vitest.exec.config.ts', 'test/file-1.test.ts'])
      expect(code).not.toBe(0)
      expect(output).toContain('no emulator for this run: add globalSetup: ["presentation-emulator/vitest/global-setup"]')
    },
    HEAVY_MS,
  )
})
