/**
 * The client report (docs/guides/client-report.md): a reference client that
 * follows every rule gets no finding, under a real and a manual clock, with
 * faults injected and with two accounts in parallel; each misbehaving client
 * is flagged by exactly its rule. Through the library (the socket-free
 * fetch, `emulator.control`) and the HTTP server (`listen()`, the global
 * fetch, the control plane's routes).
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createControlClient } from '../../src/client/index.js'
import { createEmulator, type PresentationEmulator } from '../../src/index.js'
import type { ClientReport } from '../../src/model/client-report/index.js'
import '../../src/vitest/matchers.js'
import { expectError, harnessPerTest, WAYS } from '../support/harness.js'
import {
  type AccountControl,
  type ClientSetup,
  clientFor,
  MISBEHAVING,
  type MisbehaviourHelpers,
  referenceClient,
} from '../support/client-report-clients.js'

type Way = 'library' | 'http'
type ClockMode = 'real' | 'manual'

interface Run {
  emulator: PresentationEmulator
  control: { clientReport(query?: { keyId?: string; since?: string }): Promise<ClientReport> }
  report(query?: { keyId?: string; since?: string }): Promise<ClientReport>
  account(): Promise<{ setup: ClientSetup; helpers: MisbehaviourHelpers; keyId: string }>
}

const running: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const stop of running.splice(0)) await stop()
})

async function start(way: Way, clock: ClockMode): Promise<Run> {
  // A real clock's jobs take about 1.2 to 2.9 s (nominal × 0.01); a manual clock's move only when a client sleeps.
  const emulator = createEmulator({
    baseUrl: 'http://127.0.0.1:4010/v1',
    clock,
    rateLimit: 0,
    timeScale: clock === 'real' ? 0.01 : 1,
    validateResponses: true,
  })
  await emulator.ready()
  let baseUrl = 'http://127.0.0.1:4010/v1'
  let doFetch: typeof fetch = emulator.fetch
  let control: Pick<
    typeof emulator.control,
    'clientReport' | 'createAccount' | 'createKey' | 'setCredits' | 'addFault' | 'completeJob' | 'revokeKey'
  > = emulator.control
  if (way === 'http') {
    const server = await emulator.listen({ port: 0 })
    baseUrl = `${server.origin}/v1`
    doFetch = globalThis.fetch
    control = createControlClient({ url: server.origin }) as never
  }
  running.push(() => emulator.close())
  const sleep = (ms: number): Promise<void> =>
    clock === 'manual'
      ? emulator.control.advanceClock({ ms: Math.ceil(ms) }).then(() => undefined)
      : new Promise<void>((resolve) => setTimeout(resolve, ms))
  return {
    emulator,
    control,
    report: (query) => control.clientReport(query),
    async account() {
      const account = await control.createAccount({ credits: 10 })
      const { setup, helpers } = clientFor(account, { baseUrl, fetch: doFetch, sleep, clock, control: control as AccountControl })
      return { setup, helpers, keyId: account.keyId }
    },
  }
}

const rulesOf = (report: ClientReport) => [...new Set(report.findings.map((finding) => finding.rule))].sort()

/** Faults for one account: each fires once, for its key only. */
async function injectFaults(helpers: MisbehaviourHelpers, clock: ClockMode): Promise<void> {
  await helpers.addFault({ operationId: 'listTemplates', status: 429, times: 1, ...(clock === 'real' ? { retryAfter: 1 } : {}) } as never)
  await helpers.addFault({ operationId: 'generateProject', status: 402, times: 1 })
  await helpers.addFault({ operationId: 'generateProject', status: 502, times: 1 })
  await helpers.addFault({ operationId: 'generateProject', status: 500, times: 1 })
  await helpers.addFault({ operationId: 'generateProject', delayMs: 300, times: 1 })
  await helpers.addFault({ operationId: 'getJobStatus', status: 500, times: 1 })
}

for (const way of ['library', 'http'] as const) {
  describe(`client report: the reference client (${way})`, () => {
    for (const clock of ['manual', 'real'] as const) {
      it(`has no finding on a ${clock} clock, with faults, two accounts in parallel`, { timeout: 60_000 }, async () => {
        const run = await start(way, clock)
        const plain = await run.account()
        await referenceClient(plain.setup)
        const [one, two] = await Promise.all([run.account(), run.account()])
        await injectFaults(one.helpers, clock)
        await injectFaults(two.helpers, clock)
        await Promise.all([referenceClient(one.setup, { generateTimeoutMs: 100 }), referenceClient(two.setup, { generateTimeoutMs: 100 })])
        for (const account of [plain, one, two]) {
          const report = await run.report({ keyId: account.keyId })
          expect(report.findings, JSON.stringify(report.findings, null, 2)).toEqual([])
          expect(report.window.entries).toBeGreaterThan(10)
          expect(report.window.complete).toBe(true)
        }
        const all = await run.report()
        expect(all.findings).toEqual([])
        expect(all.keys.length).toBe(3)
        // The faults did happen: an abandoned generate, a 402, a 502, a 500, a 429.
        const entries = run.emulator.control.listRequests({ keyId: one.keyId }).requests
        expect(entries.some((entry) => entry.clientGone && entry.operationId === 'generateProject')).toBe(true)
        expect(new Set(entries.map((entry) => entry.status))).toEqual(new Set([200, 402, 502, 500, 429]))
        await expect(run.emulator).toHaveNoClientErrors({ warnings: true })
        // The control client over HTTP (or the in-process control plane) answers the matcher too, for one key.
        await expect(run.control).toHaveNoClientErrors({ keyId: one.keyId, warnings: true })
      })
    }
  })

  describe(`client report: one misbehaving client per rule (${way})`, () => {
    for (const [rule, misbehave] of Object.entries(MISBEHAVING)) {
      const clocks: ClockMode[] = rule === 'rate.retry-before-reset' ? ['real'] : rule === 'poll.too-fast' ? ['manual', 'real'] : ['manual']
      for (const clock of clocks) {
        it(`${rule} (${clock} clock) is flagged by its rule alone`, { timeout: 30_000 }, async () => {
          const run = await start(way, clock)
          const { setup, helpers, keyId } = await run.account()
          await misbehave(setup, helpers)
          const all = await run.report()
          expect(rulesOf(all), JSON.stringify(all.findings, null, 2)).toEqual([rule])
          const [finding] = all.findings
          expect(finding!.ref).toMatch(/^reference\/api\.md#[a-z0-9-]+$/)
          expect(finding!.requestIds.length).toBeGreaterThan(0)
          expect(finding!.level).toBe(finding!.severity === 'error' ? 'MUST' : 'SHOULD')
          // The matcher fails on an error (on a warning only when asked), naming the rule and the calls.
          const failure = await expect(run.emulator)
            .toHaveNoClientErrors({ warnings: true })
            .then(
              () => undefined,
              (error: Error) => error.message,
            )
          expect(failure).toContain(`${finding!.severity} ${rule}: `)
          expect(failure).toContain(finding!.requestIds[0])
          if (finding!.severity === 'warning') await expect(run.emulator).toHaveNoClientErrors()
          else await expect(run.emulator).not.toHaveNoClientErrors()
          if (rule !== 'auth.key-refused') {
            // The account's own report has it too (a refused key's calls are the other key's).
            expect(rulesOf(await run.report({ keyId }))).toEqual([rule])
          }
        })
      }
    }
  })
}

describe.each(WAYS)('control plane: client report routes (%s)', (way) => {
  const h = harnessPerTest(way)

  it('answers a report of every key, one key, or since a mark; bad input is 400, an unknown key or mark 404', async () => {
    await h.api('GET', '/teams')
    await h.api('GET', '/projects?limit=500')
    const all = await h.control('GET', '/client-report')
    expect(all.status, all.text).toBe(200)
    expect(all.body.findings.map((finding: { rule: string }) => finding.rule)).toEqual(['pagination.limit-out-of-range'])
    expect(all.body.window).toMatchObject({ since: null, entries: 2, complete: true, first: { id: 'req_1' }, last: { id: 'req_2' } })
    const bob = await h.control('GET', '/client-report?keyId=key_bob')
    expect(bob.body).toMatchObject({ findings: [], errors: 0, window: { entries: 0, first: null } })
    const marked = await h.control('POST', '/client-report/marks')
    expect(marked.status).toBe(201)
    expect(marked.body).toEqual({ mark: 'mark_1', after: 'req_2' })
    await h.api('GET', '/teams')
    const since = await h.control('GET', `/client-report?since=${marked.body.mark}`)
    expect(since.body).toMatchObject({ findings: [], window: { since: 'mark_1', entries: 1 } })
    expectError(await h.control('GET', '/client-report?since=yesterday'), 400, 'VALIDATION_ERROR')
    expectError(await h.control('GET', '/client-report?color=red'), 400, 'VALIDATION_ERROR')
    expectError(await h.control('GET', '/client-report?keyId=key_nobody'), 404, 'NOT_FOUND')
    expectError(await h.control('GET', '/client-report?since=mark_99'), 404, 'NOT_FOUND')
  })
})
