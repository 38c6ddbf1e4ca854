/**
 * Helpers for test files of a vitest run that shares one emulator (started
 * by `presentation-emulator/vitest/global-setup` or by
 * `presentation-emulator exec`): each file gets an account of its own, so
 * parallel files never see each other's projects, credits, rate-limit
 * window, faults or journal entries.
 *
 * @example
 * import { workerAccount } from 'presentation-emulator/vitest'
 *
 * const account = await workerAccount()
 * const res = await fetch(`${account.baseUrl}/projects`, { headers: account.headers })
 *
 * Importing it also adds the slide-check matcher to `expect`:
 * `await expect(emulator).toRenderSlides('welcome-deck')` (`matchers.ts`).
 */
import { inject } from 'vitest'
import type { RequestFilter, RequestQuery } from '../control/control-plane.js'
import type { AddFaultRequest, CreateAccountRequest, CreateAccountResponse } from '../control/schemas.js'
import type { JournalEntry } from '../core/journal.js'
import type { JobStatusResponse } from '../schemas/index.js'
import type { ClientReport } from '../model/client-report/index.js'
import { callControl, connectionFromEnv, PROVIDE_KEY, type EmulatorConnection } from './connection.js'

export type { EmulatorConnection } from './connection.js'
// Importing this module adds `toRenderSlides` to `expect` (see matchers.ts).
export { clientFailures, type ClientReportable, deckFailures, type SlideCheckable, slideMatchers } from './matchers.js'
export type { ClientFinding, ClientReport } from '../model/client-report/index.js'
export type { CheckSlidesOptions, DeckCheckResult, SlideCheckReport } from '../model/slide-checks.js'
export type { JournalEntry } from '../core/journal.js'
export type { RequestFilter, RequestQuery } from '../control/control-plane.js'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared emulator of the run (see `presentation-emulator/vitest/global-setup`). */
    presentationEmulator: EmulatorConnection
  }
}

/**
 * The run's emulator: what the global setup provided, else what
 * `presentation-emulator exec` put in the environment. Throws, saying how
 * to set one up, when there is neither.
 */
export function emulatorConnection(): EmulatorConnection {
  const provided = inject(PROVIDE_KEY) as EmulatorConnection | undefined
  const connection = provided ?? connectionFromEnv()
  if (connection === undefined) {
    throw new Error(
      'no emulator for this run: add globalSetup: ["presentation-emulator/vitest/global-setup"] to the vitest config, ' +
        'or run vitest under `presentation-emulator exec -- vitest`',
    )
  }
  return connection
}

/** An account of its own in the shared emulator, with helpers scoped to it. */
export interface EmulatorAccount extends CreateAccountResponse {
  /** The API base URL (`…/v1`). */
  baseUrl: string
  /** The control plane (`…/_emulator`). */
  controlUrl: string
  /** `{ authorization: 'Bearer <apiKey>' }`, to spread into a request's headers. */
  headers: { authorization: string }
  /** Adds a fault that fires for this account's key only; answers its id. */
  addFault(fault: Omit<AddFaultRequest, 'apiKey'>): Promise<string>
  /** Removes one of this account's faults. */
  removeFault(faultId: string): Promise<void>
  /** This account's journal entries, newest first (`keyId` is this account's). */
  requests(query?: Omit<RequestQuery, 'keyId'>): Promise<JournalEntry[]>
  /** Waits for a request of this account (see `control.waitForRequest`); a 408 `ServiceError` after `timeoutMs`. */
  waitForRequest(filter?: Omit<RequestFilter, 'keyId'>, options?: { timeoutMs?: number; bodyLimit?: number }): Promise<JournalEntry>
  /** Sets the credits of this account's team. */
  setCredits(credits: number): Promise<void>
  /** Finishes one of this account's processing jobs now. */
  completeJob(jobId: string): Promise<JobStatusResponse>
  /** Fails one of this account's processing jobs now (the credit goes back). */
  failJob(jobId: string, error?: string): Promise<JobStatusResponse>
  /**
   * The client report of this account's key (docs/guides/client-report.md),
   * of everything kept or `since` a request id or a mark (`markClientReport`).
   * `await expect(account).toHaveNoClientErrors()` asserts it has no errors.
   */
  clientReport(query?: { since?: string }): Promise<ClientReport>
  /** A mark at the newest request so far, for `clientReport({ since })`. */
  markClientReport(): Promise<string>
}

function toQuery(query: Record<string, unknown>): string {
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) params.set(name, value instanceof Date ? value.toISOString() : String(value))
  }
  const text = params.toString()
  return text === '' ? '' : `?${text}`
}

/**
 * Creates a fresh account (a user with a personal team, `credits` credits,
 * default 10, and one key) in the run's emulator, through the control
 * plane. Call it in `beforeEach` for a clean slate per test: that is the
 * per-test reset that never disturbs a parallel file.
 */
export async function createAccount(
  options: CreateAccountRequest = {},
  connection: EmulatorConnection = emulatorConnection(),
): Promise<EmulatorAccount> {
  const created = await callControl<CreateAccountResponse>(connection, 'POST', '/accounts', options)
  const call = <T>(method: string, path: string, body?: unknown) => callControl<T>(connection, method, path, body)
  return {
    ...created,
    baseUrl: connection.baseUrl,
    controlUrl: connection.controlUrl,
    headers: { authorization: `Bearer ${created.apiKey}` },
    async addFault(fault) {
      return (await call<{ faultId: string }>('POST', '/faults', { ...fault, apiKey: created.apiKey })).faultId
    },
    async removeFault(faultId) {
      await call('DELETE', `/faults/${encodeURIComponent(faultId)}`)
    },
    async requests(query = {}) {
      return (await call<{ requests: JournalEntry[] }>('GET', `/requests${toQuery({ ...query, keyId: created.keyId })}`)).requests
    },
    async waitForRequest(filter = {}, options = {}) {
      return (await call<{ request: JournalEntry }>('GET', `/requests/wait${toQuery({ ...filter, ...options, keyId: created.keyId })}`))
        .request
    },
    async setCredits(credits) {
      await call('PUT', `/teams/${encodeURIComponent(created.teamId)}/credits`, { credits })
    },
    completeJob: (jobId) => call<JobStatusResponse>('POST', `/jobs/${encodeURIComponent(jobId)}/complete`),
    failJob: (jobId, error) =>
      call<JobStatusResponse>('POST', `/jobs/${encodeURIComponent(jobId)}/fail`, error === undefined ? {} : { error }),
    clientReport: (query = {}) => call<ClientReport>('GET', `/client-report${toQuery({ ...query, keyId: created.keyId })}`),
    async markClientReport() {
      return (await call<{ mark: string }>('POST', '/client-report/marks')).mark
    },
  }
}

/** This worker's account, created on first use (a test file runs in one worker, so: one per file). */
let perWorker: Promise<EmulatorAccount> | undefined

/**
 * The account of this worker: created by the first call (with its
 * `options`), the same object for every later call. With vitest's default
 * isolation every test file starts with a fresh one.
 */
export function workerAccount(options: CreateAccountRequest = {}): Promise<EmulatorAccount> {
  perWorker ??= createAccount(options).catch((error: unknown) => {
    perWorker = undefined
    throw error
  })
  return perWorker
}
