/**
 * A typed client of the emulator's control plane (`/_emulator/*`, contract
 * §5) over HTTP: the same functions as `emulator.control` in-process, for a
 * server started with `npx presentation-emulator` or `exec`.
 */
import type {
  AddCollaboratorRequest,
  AddCollaboratorResponse,
  AddFaultRequest,
  AddFaultResponse,
  AdvanceClockResponse,
  ClockResponse,
  CreateAccountRequest,
  CreateAccountResponse,
  CreateKeyRequest,
  CreateKeyResponse,
  CreateTeamRequest,
  CreateTeamResponse,
  CreateTemplateRequest,
  CreateTemplateResponse,
  HealthResponse,
  ListFaultsResponse,
  ListRequestsResponse,
  SetCreditsResponse,
} from '../control/schemas.js'
import type { DeckCheckResult } from '../model/slide-checks.js'
import type { ClientReport } from '../model/client-report/index.js'
import type { JobStatusResponse } from '../schemas/job.js'
import type { OperationId } from '../schemas/operation-routes.js'
import { serviceApiError } from './errors.js'

export interface ControlClientOptions {
  /**
   * The control plane's URL (`http://127.0.0.1:4010/_emulator`), or the
   * emulator's origin (`/_emulator` is then added).
   */
  url: string
  /** The admin token, when the emulator runs with `--admin-token`. */
  adminToken?: string
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch
}

/** Every control-plane route as a typed function; a refusal throws `ServiceApiError`. */
export interface ControlClient {
  readonly url: string
  health(): Promise<HealthResponse>
  reset(): Promise<{ reset: true; now: string }>
  getState(): Promise<unknown>
  putState(document: unknown): Promise<{ format: string; counts: Record<string, number> }>
  createAccount(input?: CreateAccountRequest): Promise<CreateAccountResponse>
  createTeam(input: CreateTeamRequest): Promise<CreateTeamResponse>
  createKey(input: CreateKeyRequest): Promise<CreateKeyResponse>
  revokeKey(keyId: string): Promise<{ keyId: string; revokedAt: string }>
  setCredits(teamId: string, input: { credits: number }): Promise<SetCreditsResponse>
  createTemplate(input: CreateTemplateRequest): Promise<CreateTemplateResponse>
  addCollaborator(slug: string, input: AddCollaboratorRequest): Promise<AddCollaboratorResponse>
  /** Checks a project's slides (all, or `slideIds`) with the emulator's slide checker; `budgetMs` bounds the deck (default 120 s). */
  checkSlides(slug: string, input?: { slideIds?: readonly string[]; budgetMs?: number; layout?: boolean }): Promise<DeckCheckResult>
  /** A PNG of one slide, `width` (320 to 3840, default 1280) pixels wide and `width × 9/16` high, taken in the emulator's headless Chromium. */
  slidePicture(slug: string, slideId: string, input?: { width?: number }): Promise<Uint8Array>
  clock(): Promise<ClockResponse>
  advanceClock(input: { ms: number }): Promise<AdvanceClockResponse>
  completeJob(jobId: string): Promise<JobStatusResponse>
  failJob(jobId: string, input?: { error?: string }): Promise<JobStatusResponse>
  addFault(input: AddFaultRequest): Promise<AddFaultResponse>
  listFaults(): Promise<ListFaultsResponse>
  removeFault(faultId: string): Promise<{ removed: number }>
  clearFaults(): Promise<{ removed: number }>
  listRequests(query?: { operationId?: OperationId; limit?: number }): Promise<ListRequestsResponse>
  clearRequests(): Promise<{ removed: number }>
  /** The client report: every key's calls, or `keyId`'s; everything kept, or `since` a request id or a mark. */
  clientReport(query?: { keyId?: string; since?: string }): Promise<ClientReport>
  /** A mark at the newest request so far, for `clientReport({ since })`. */
  markClientReport(): Promise<{ mark: string; after: string | null }>
}

/** Creates a control-plane client. */
export function createControlClient(options: ControlClientOptions): ControlClient {
  const trimmed = options.url.replace(/\/+$/, '')
  const url = /\/_emulator$/.test(trimmed) ? trimmed : `${trimmed}/_emulator`
  const doFetch = options.fetch ?? globalThis.fetch

  async function send<T>(method: string, path: string, body?: unknown, query?: Record<string, string | number | undefined>): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' }
    if (options.adminToken !== undefined) headers.authorization = `Bearer ${options.adminToken}`
    const init: RequestInit = { method, headers }
    if (body !== undefined) {
      headers['content-type'] = 'application/json'
      init.body = JSON.stringify(body)
    }
    const search = new URLSearchParams()
    for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) search.append(key, String(value))
    const qs = search.toString()
    const response = await doFetch(`${url}${path}${qs === '' ? '' : `?${qs}`}`, init)
    const text = await response.text()
    if (!response.ok) throw serviceApiError(undefined, response, text)
    return JSON.parse(text) as T
  }
  const id = encodeURIComponent

  async function sendForBytes(path: string, body: unknown): Promise<Uint8Array> {
    const headers: Record<string, string> = { accept: 'image/png', 'content-type': 'application/json' }
    if (options.adminToken !== undefined) headers.authorization = `Bearer ${options.adminToken}`
    const response = await doFetch(`${url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) })
    if (!response.ok) throw serviceApiError(undefined, response, await response.text())
    return new Uint8Array(await response.arrayBuffer())
  }

  return {
    url,
    health: () => send('GET', '/health'),
    reset: () => send('POST', '/reset'),
    getState: () => send('GET', '/state'),
    putState: (document) => send('PUT', '/state', document),
    createAccount: (input = {}) => send('POST', '/accounts', input),
    createTeam: (input) => send('POST', '/teams', input),
    createKey: (input) => send('POST', '/keys', input),
    revokeKey: (keyId) => send('DELETE', `/keys/${id(keyId)}`),
    setCredits: (teamId, input) => send('PUT', `/teams/${id(teamId)}/credits`, input),
    createTemplate: (input) => send('POST', '/templates', input),
    addCollaborator: (slug, input) => send('POST', `/projects/${id(slug)}/collaborators`, input),
    checkSlides: (slug, input = {}) => send('POST', `/projects/${id(slug)}/slides/check`, input),
    slidePicture: (slug, slideId, input = {}) => sendForBytes(`/projects/${id(slug)}/slides/${id(slideId)}/picture`, input),
    clock: () => send('GET', '/clock'),
    advanceClock: (input) => send('POST', '/clock/advance', input),
    completeJob: (jobId) => send('POST', `/jobs/${id(jobId)}/complete`),
    failJob: (jobId, input = {}) => send('POST', `/jobs/${id(jobId)}/fail`, input),
    addFault: (input) => send('POST', '/faults', input),
    listFaults: () => send('GET', '/faults'),
    removeFault: (faultId) => send('DELETE', `/faults/${id(faultId)}`),
    clearFaults: () => send('DELETE', '/faults'),
    listRequests: (query = {}) => send('GET', '/requests', undefined, query),
    clearRequests: () => send('DELETE', '/requests'),
    clientReport: (query = {}) => send('GET', '/client-report', undefined, query),
    markClientReport: () => send('POST', '/client-report/marks'),
  }
}
