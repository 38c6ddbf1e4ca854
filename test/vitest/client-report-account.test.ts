/**
 * The client report from `presentation-emulator/vitest`: an account of
 * `createAccount()` reads the report of its own key over the control plane,
 * takes marks, and `toHaveNoClientErrors` works on it as on an emulator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEmulator, type PresentationEmulator } from '../../src/index.js'
import type { RunningServer } from '../../src/node/http-server.js'
import { createAccount, type EmulatorConnection } from '../../src/vitest/index.js'

let emulator: PresentationEmulator
let server: RunningServer
let connection: EmulatorConnection

beforeAll(async () => {
  emulator = createEmulator({ clock: 'manual', rateLimit: 0 })
  server = await emulator.listen({ port: 0 })
  connection = { baseUrl: `${server.origin}/v1`, controlUrl: `${server.origin}/_emulator` }
})
afterAll(() => emulator.close())

describe('an account’s client report', () => {
  it('reports the account’s key only, since a mark, and drives the matcher', async () => {
    const account = await createAccount({}, connection)
    const other = await createAccount({}, connection)
    const generate = (key: string) =>
      fetch(`${account.baseUrl}/projects/generate`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ prompt: 'Twice' }),
      })
    await expect(account).toHaveNoClientErrors()
    for (let n = 0; n < 2; n++) expect((await generate(account.apiKey)).status).toBe(200)
    const report = await account.clientReport()
    expect(report.findings.map((finding) => [finding.rule, finding.keyId])).toEqual([['generate.duplicate', account.keyId]])
    await expect(account).not.toHaveNoClientErrors()
    // Another account's report is its own.
    await expect(other).toHaveNoClientErrors({ warnings: true })
    const mark = await account.markClientReport()
    expect(mark).toMatch(/^mark_\d+$/)
    await expect(account).toHaveNoClientErrors({ since: mark })
    expect((await account.clientReport({ since: mark })).window.entries).toBe(0)
  })
})
