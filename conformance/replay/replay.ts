/**
 * Replay of a recording (a HAR: the proxy's, the emulator's journal export,
 * a browser's devtools) against any target. The recorded requests are sent
 * in order; every id, slug, cursor and version id the recording's own
 * answers introduced is replaced by the one the new target answered in the
 * same place. A value the recording did not introduce is sent only when
 * `--map` names it: otherwise the entry is skipped and listed (a replay
 * never renames or publishes someone's real project). Writes need
 * `allowWrites`, generation `allowGeneration`.
 *
 * Each answer is compared with the recorded one on what the spec requires:
 * the status (402, 429 and 5xx on either side are no divergence), and every
 * fact of the kit's table on the new sequence (error body and code, shapes,
 * the cross-exchange facts). A job polled until done in the recording is
 * polled until done again (bounded).
 */
import { type OperationId, routes } from '../../src/client/index.js'
import { asJson } from '../facts/model.js'
import { matchOperation, type Recorded } from '../facts/observed.js'
import type { ReadEntry } from '../har/read.js'
import { type Judgement, ProxyJudge } from '../proxy/judge.js'

export interface ReplayOptions {
  /** The target's API base URL (ending in /v1). */
  baseUrl: string
  fetch: typeof fetch
  /** Label (`key-1`, `key_alice`, or a literal key of a devtools HAR) → the key to send. */
  keys: ReadonlyMap<string, string>
  /** Recorded value → value to send, for ids the recording did not introduce. */
  map: ReadonlyMap<string, string>
  allowWrites: boolean
  allowGeneration: boolean
  dryRun: boolean
  /** Waits between polls of a job (a test's or the emulator's clock moves instead). */
  sleep: (ms: number) => Promise<void>
  /** How long a job may stay processing before the poll gives up. */
  jobTimeoutMs: number
  /** Called as each entry is sent, skipped or planned (dry run). */
  onStep?: (step: Step) => void
}

export type Step =
  | { kind: 'sent'; index: number; request: SentRequest; status: number; recordedStatus: number; divergences: Divergence[] }
  | { kind: 'skipped'; index: number; what: string; reason: string }
  | { kind: 'planned'; index: number; request: SentRequest }

export interface SentRequest {
  method: string
  url: string
  headers: Record<string, string>
  body: string | undefined
  /** The label of the key sent, for reports (never the key). */
  keyLabel: string | undefined
}

export interface Divergence {
  index: number
  operation: string
  what: string
  expected: string
  actual: string
}

export interface ReplayResult {
  sent: number
  skipped: Array<{ index: number; what: string; reason: string }>
  divergences: Divergence[]
  /** The entries sent, in order, as sent (for the counterexample's replay file and curl script). */
  steps: Array<{ index: number; request: SentRequest; status: number }>
}

/** The fields of answers whose values name something a later request may use. */
const ID_FIELDS = new Set(['projectId', 'projectSlug', 'projectVersionId', 'versionId', 'jobId', 'slideId', 'slug', 'id', 'nextCursor'])
/** Statuses that say nothing of the request (credits, the rate limit, a server's failure). */
const incidental = (status: number) => status === 402 || status === 429 || status >= 500
const READS = new Set(['GET', 'HEAD'])

/** Pairs the id values of two answers of the same operation: recorded → new. */
function pairIds(recorded: unknown, answered: unknown, out: Map<string, string>, key?: string): void {
  if (typeof recorded === 'string' && typeof answered === 'string') {
    if (key !== undefined && ID_FIELDS.has(key) && recorded !== '') out.set(recorded, answered)
    return
  }
  if (Array.isArray(recorded) && Array.isArray(answered)) {
    // Items by name where names are unique on both sides (the order of lists is not shown), else by position.
    const names = (list: unknown[]) => list.map((item) => asJson(item).name)
    const unique = (list: unknown[]) => new Set(names(list)).size === list.length && names(list).every((n) => typeof n === 'string')
    if (unique(recorded) && unique(answered))
      for (const item of recorded) {
        const match = answered.find((other) => asJson(other).name === asJson(item).name)
        if (match !== undefined) pairIds(item, match, out)
      }
    else for (const [i, item] of recorded.entries()) pairIds(item, answered[i], out)
    return
  }
  if (typeof recorded === 'object' && recorded !== null && typeof answered === 'object' && answered !== null)
    for (const [name, value] of Object.entries(recorded)) pairIds(value, (answered as Record<string, unknown>)[name], out, name)
}

/** Every id value an answer introduces. */
function idsOf(value: unknown, out: Set<string>, key?: string): void {
  if (typeof value === 'string') {
    if (key !== undefined && ID_FIELDS.has(key) && value !== '') out.add(value)
  } else if (Array.isArray(value)) for (const item of value) idsOf(item, out)
  else if (typeof value === 'object' && value !== null) for (const [name, v] of Object.entries(value)) idsOf(v, out, name)
}

function parse(text: string | undefined): unknown {
  try {
    return text === undefined || text === '' ? undefined : JSON.parse(text)
  } catch {
    return undefined
  }
}

/** Where the API's base path is in a URL (`/v1` and what precedes it), or undefined. */
function basePathOf(pathname: string): string | undefined {
  const at = pathname.indexOf('/v1/')
  return at < 0 ? undefined : pathname.slice(0, at + 3)
}

interface Plan {
  index: number
  recorded: Recorded
  operationId: OperationId
  path: string
  query: URLSearchParams
}

/** The entries that can be sent, and why each other one cannot. */
function plan(entries: readonly ReadEntry[], skip: (index: number, what: string, reason: string) => void): Plan[] {
  // The recording's API is on the host most of its entries that name an operation go to.
  const votes = new Map<string, number>()
  for (const e of entries) {
    if (e.recorded === undefined) continue
    const url = new URL(e.recorded.url)
    const base = basePathOf(url.pathname)
    if (base !== undefined && matchOperation(e.recorded.method, url.pathname.slice(base.length)) !== undefined)
      votes.set(url.origin, (votes.get(url.origin) ?? 0) + 1)
  }
  const origin = [...votes].sort((a, b) => b[1] - a[1])[0]?.[0]
  const out: Plan[] = []
  for (const entry of entries) {
    const what = entry.recorded === undefined ? `entry ${entry.index}` : `${entry.recorded.method} ${entry.recorded.url}`
    if (entry.recorded === undefined) {
      skip(entry.index, what, entry.problem ?? 'not understood')
      continue
    }
    const url = new URL(entry.recorded.url)
    const base = basePathOf(url.pathname)
    if (entry.recorded.method === 'OPTIONS') skip(entry.index, what, 'an OPTIONS request (a browser’s preflight)')
    else if (url.origin !== origin) skip(entry.index, what, `another host than the API’s (${origin ?? 'none found'})`)
    else if (base === undefined) skip(entry.index, what, 'a path outside the API’s base (/v1)')
    else if (entry.cut) skip(entry.index, what, 'a body the recording cut or left out')
    else {
      const path = url.pathname.slice(base.length)
      const matched = matchOperation(entry.recorded.method, path)
      if (matched === undefined) skip(entry.index, what, 'not an operation of the spec')
      else out.push({ index: entry.index, recorded: entry.recorded, operationId: matched.operationId, path, query: url.searchParams })
    }
  }
  return out
}

export async function replay(entries: readonly ReadEntry[], options: ReplayOptions): Promise<ReplayResult> {
  const result: ReplayResult = { sent: 0, skipped: [], divergences: [], steps: [] }
  const skip = (index: number, what: string, reason: string) => {
    result.skipped.push({ index, what, reason })
    options.onStep?.({ kind: 'skipped', index, what, reason })
  }
  const plans = plan(entries, skip)
  /** Values the recording's answers introduced, and what the new target answered for each. */
  const introduced = new Set<string>()
  const renamed = new Map<string, string>()
  const judge = new ProxyJudge({ baseUrl: options.baseUrl })
  const base = options.baseUrl.replace(/\/+$/, '')

  // A job's last recorded poll is the one replayed (until done); the earlier ones are its intermediate answers.
  const lastPoll = new Map<string, number>()
  for (const p of plans) if (p.operationId === 'getJobStatus') lastPoll.set(p.path, p.index)

  for (const p of plans) {
    const what = `${p.recorded.method} ${p.path}${p.query.size > 0 ? `?${p.query}` : ''}`
    const route = routes[p.operationId]
    if (p.operationId === 'generateProject' && !options.allowGeneration) {
      skip(p.index, what, 'starts a generation job: needs --allow-generation')
      continue
    }
    if (!READS.has(route.method) && !options.allowWrites) {
      skip(p.index, what, 'a write: needs --allow-writes')
      continue
    }
    if (p.operationId === 'getJobStatus' && lastPoll.get(p.path) !== p.index) {
      skip(p.index, what, 'an earlier poll of a job polled again later (replayed as one poll until done)')
      continue
    }
    // Each value: rewritten if the recording introduced it, or mapped by --map; else the entry is not sent.
    let unknown: string | undefined
    const rewrite = (value: string, named: boolean): string => {
      if (renamed.has(value)) return renamed.get(value)!
      if (options.map.has(value)) return options.map.get(value)!
      if (introduced.has(value)) unknown ??= `${value} (the target did not answer a counterpart)`
      else if (named) unknown ??= `${value}, which the recording did not introduce (--map ${value}=NEW to send it)`
      return value
    }
    const matched = matchOperation(p.recorded.method, p.path)!
    let path: string = route.path
    for (const [name, value] of Object.entries(matched.params)) path = path.replace(`{${name}}`, encodeURIComponent(rewrite(value, true)))
    const query = new URLSearchParams()
    for (const [name, value] of p.query) query.append(name, name === 'cursor' ? rewrite(value, true) : value)
    const body = p.recorded.requestBody === undefined ? undefined : rewriteBody(p.recorded.requestBody, (v) => rewrite(v, false))
    // The key: a label of ours or the journal's (`Bearer <key-1>`), or a devtools HAR's literal key, named by --key.
    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(p.recorded.requestHeaders))
      if (['accept', 'content-type', 'user-agent', 'x-request-id'].includes(name)) headers[name] = value
    const authorization = p.recorded.requestHeaders.authorization
    let keyLabel: string | undefined
    if (authorization !== undefined) {
      const label = /^Bearer\s+<?([^<>\s]+)>?\s*$/i.exec(authorization)?.[1]
      const key = label === undefined ? undefined : options.keys.get(label)
      if (key === undefined) {
        skip(
          p.index,
          what,
          `its key ${label === undefined ? '(not a bearer key)' : `<${label}>`} was not given: --key ${label ?? 'LABEL'}=KEY`,
        )
        continue
      }
      keyLabel = label
      headers.authorization = `Bearer ${key}`
    }
    if (unknown !== undefined) {
      skip(p.index, what, `names ${unknown}`)
      continue
    }
    const request: SentRequest = {
      method: p.recorded.method,
      url: `${base}${path}${query.size > 0 ? `?${query}` : ''}`,
      headers,
      body,
      keyLabel,
    }
    if (options.dryRun) {
      options.onStep?.({ kind: 'planned', index: p.index, request })
      // What it would introduce, as if the target answered the recorded values.
      const seen = new Set<string>()
      idsOf(introducing(p.operationId, parse(p.recorded.responseBody), undefined)[0], seen)
      for (const id of seen) {
        introduced.add(id)
        renamed.set(id, id)
      }
      continue
    }
    const recordedJson = parse(p.recorded.responseBody)
    const finalStatus = p.operationId === 'getJobStatus' ? asJson(recordedJson).status : undefined
    let answer = await send(options.fetch, request)
    // A poll until done: the recording's last poll ended; so must this one (bounded).
    if (typeof finalStatus === 'string' && finalStatus !== 'processing') {
      let waited = 0
      while (answer.status === 200 && asJson(parse(answer.text)).status === 'processing' && waited < options.jobTimeoutMs) {
        await options.sleep(2000)
        waited += 2000
        answer = await send(options.fetch, request)
      }
    }
    result.sent += 1
    const divergences: Divergence[] = []
    const operation = `${route.method} ${route.path} (${p.operationId})`
    if (answer.status !== p.recorded.status && !incidental(answer.status) && !incidental(p.recorded.status))
      divergences.push({
        index: p.index,
        operation,
        what: 'the status',
        expected: String(p.recorded.status),
        actual: String(answer.status),
      })
    const recorded: Recorded = {
      method: request.method,
      url: request.url,
      requestHeaders: request.headers,
      requestBody: request.body,
      status: answer.status,
      responseHeaders: answer.headers,
      responseBody: answer.text,
    }
    for (const j of judge.judge(recorded, false).filter((j: Judgement) => j.level === 'MUST'))
      divergences.push({
        index: p.index,
        operation,
        what: `${j.factId}: ${j.statement}${j.subject === undefined ? '' : ` (${j.subject})`}`,
        expected: j.expected,
        actual: j.actual,
      })
    if (answer.status === p.recorded.status) {
      const [mine, theirs] = introducing(p.operationId, recordedJson, parse(answer.text))
      const before = new Set<string>()
      idsOf(mine, before)
      for (const id of before) introduced.add(id)
      pairIds(mine, theirs, renamed)
    }
    result.divergences.push(...divergences)
    result.steps.push({ index: p.index, request, status: answer.status })
    options.onStep?.({ kind: 'sent', index: p.index, request, status: answer.status, recordedStatus: p.recorded.status, divergences })
  }
  return result
}

/**
 * The part of two answers whose ids the recording introduced: a project
 * list's items are projects that were there already (only its cursor is
 * new), so a replay never takes a recorded project for the target's
 * project of the same name.
 */
function introducing(id: OperationId, recorded: unknown, answered: unknown): [unknown, unknown] {
  if (id !== 'listProjects') return [recorded, answered]
  return [{ nextCursor: asJson(recorded).nextCursor }, { nextCursor: asJson(answered).nextCursor }]
}

/** A JSON body with each string value rewritten (ids the recording introduced); other text is sent as recorded. */
function rewriteBody(text: string, rewrite: (value: string) => string): string {
  const json = parse(text)
  if (json === undefined) return text
  const walk = (value: unknown): unknown =>
    typeof value === 'string'
      ? rewrite(value)
      : Array.isArray(value)
        ? value.map(walk)
        : typeof value === 'object' && value !== null
          ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]))
          : value
  const rewritten = walk(json)
  return JSON.stringify(rewritten) === JSON.stringify(json) ? text : JSON.stringify(rewritten)
}

async function send(
  doFetch: typeof fetch,
  request: SentRequest,
): Promise<{ status: number; headers: Record<string, string>; text: string }> {
  const response = await doFetch(request.url, {
    method: request.method,
    headers: request.headers,
    ...(request.body === undefined ? {} : { body: request.body }),
  })
  const headers: Record<string, string> = {}
  response.headers.forEach((value, name) => {
    headers[name] = value
  })
  return { status: response.status, headers, text: await response.text() }
}
