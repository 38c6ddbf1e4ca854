/**
 * The client report's rules: pure functions over journal records, one pass
 * over them in arrival order, each rule keeping a little state per key (per
 * job, per listing, per user). Every rule and its rationale is in
 * docs/guides/client-report.md; the constants below are the thresholds it
 * names.
 */
import type { CreditChange, JournalRecord } from '../../core/journal.js'
import { type ClientFinding, type ClientSeverity, MAX_IDS } from './types.js'

/** The slowest poll interval ever flagged: once a second (1/120 of the shortest generation, about 120 s). */
export const POLL_FLOOR_MS = 1_000
/** What a timer may fire early by, measured on `Date.now()` (a timer runs on a monotonic clock). */
export const TIMER_SLACK_MS = 10
/** Reads of a finished job tolerated before they count as polling on (one look back is not a loop). */
export const READS_AFTER_DONE_ALLOWED = 1
/** The spec's rate limit: requests per minute per user, shared by every endpoint. */
export const SPEC_RATE_LIMIT = 50
export const RATE_WINDOW_MS = 60_000
/** Two accepted generates with the same body closer than this (real clock) are a likely duplicate. */
export const DUPLICATE_GENERATE_MS = 60_000
/** An editing indicator still on this long after it was set (emulator time) is left on. */
export const INDICATOR_LEFT_ON_MS = 5 * 60_000
/** The spec's `limit` bounds of every cursor-paginated list. */
export const LIMIT_MIN = 1
export const LIMIT_MAX = 100

const REFERENCE = 'reference/api.md'

interface RuleSpec {
  severity: ClientSeverity
  clause: string
  anchor: string
  /** The sentence, from how many calls show it and what they are about. */
  message(count: number, subject: string): string
}

const times = (n: number) => (n === 1 ? 'once' : `${n} times`)
const calls = (n: number) => `${n} call${n === 1 ? '' : 's'}`

/** Every rule the report judges, by id. */
export const CLIENT_RULES = {
  'poll.too-fast': {
    severity: 'warning',
    clause: 'States and transitions › Generation job status',
    anchor: 'rule-transition-job-polling',
    message: (n, job) =>
      `job ${job} was polled ${times(n)} less than ${POLL_FLOOR_MS / 1000} s after a poll that said processing (generation takes about 120 or 240 s; poll with a backoff from 1 s)`,
  },
  'poll.after-done': {
    severity: 'warning',
    clause: 'States and transitions › Generation job status',
    anchor: 'rule-transition-job-polling',
    message: (n, job) =>
      `job ${job} was read ${times(n)} after it had left processing (poll until the status is no longer processing, then stop)`,
  },
  'rate.retry-before-reset': {
    severity: 'error',
    clause: 'Errors',
    anchor: 'rule-errors-rate-headers',
    message: (n, user) =>
      `${calls(n)} of user ${user} came after a 429 and before its X-RateLimit-Reset (or Retry-After): wait until then before the next request`,
  },
  'rate.exceeded': {
    severity: 'error',
    clause: 'Limits',
    anchor: 'rule-limits-rate',
    message: (n, user) =>
      `${calls(n)} of user ${user} went over ${SPEC_RATE_LIMIT} requests in one minute (the real service answers them 429; the limit is shared by every endpoint)`,
  },
  'generate.after-402': {
    severity: 'warning',
    clause: 'Errors',
    anchor: 'rule-errors-402',
    message: (n) =>
      `POST /projects/generate was sent again ${times(n)} after a 402 with no change of credits in between (a 402 means no credits: it answers 402 until credits are added)`,
  },
  'generate.abandoned-retry': {
    severity: 'error',
    clause: 'Endpoints › Projects › POST /projects/generate (generateProject)',
    anchor: 'endpoints-projects-post-projects-generate-generateproject',
    message: (n) =>
      `a generate was abandoned before its answer (it was accepted: credits spent, a project made) and another followed ${times(n)} with no read of the job or the project list in between (a likely duplicate generation)`,
  },
  'generate.duplicate': {
    severity: 'error',
    clause: 'Endpoints › Projects › POST /projects/generate (generateProject)',
    anchor: 'endpoints-projects-post-projects-generate-generateproject',
    message: (n) =>
      `POST /projects/generate with the same body was accepted again within ${DUPLICATE_GENERATE_MS / 1000} s, ${times(n)} (each accepted call spends a credit and makes a project)`,
  },
  'auth.key-refused': {
    severity: 'warning',
    clause: 'Authentication',
    anchor: 'rule-auth-6',
    message: (n) =>
      `a key answered 401 and the client went on with it ${times(n)} (a revoked or invalid key stays refused: stop and report it)`,
  },
  'pagination.cursor-repeated': {
    severity: 'warning',
    clause: 'Limits › cursor pagination',
    anchor: 'rule-limits-pagination',
    message: (n, listing) =>
      `a cursor of ${listing} was sent again within one listing ${times(n)} (pass each nextCursor once, then the next one)`,
  },
  'pagination.first-page-only': {
    severity: 'error',
    clause: 'Limits › cursor pagination',
    anchor: 'rule-limits-pagination',
    message: (n, listing) =>
      `${listing} was listed again ${times(n)} after stopping at a page that had nextCursor, and no nextCursor of it was ever followed (the client reads the first page only and misses the rest)`,
  },
  'pagination.limit-out-of-range': {
    severity: 'error',
    clause: 'Limits',
    anchor: 'rule-limits-projects-limit',
    message: (n, listing) => `${calls(n)} of ${listing} sent a limit outside ${LIMIT_MIN} to ${LIMIT_MAX} (the service answers 400)`,
  },
  'editing.left-on': {
    severity: 'warning',
    clause: 'States and transitions › Slide editing indicator',
    anchor: 'rule-transition-editing-off',
    message: (n, slide) =>
      `the editing indicator of slide ${slide} is still on, ${INDICATOR_LEFT_ON_MS / 60_000} minutes or more after it was set (collaborators see someone editing; clear it with DELETE …/editing when done, also on failure)`,
  },
  'editing.never-updated': {
    severity: 'warning',
    clause: 'States and transitions › Slide editing indicator',
    anchor: 'rule-transition-editing-on',
    message: (n, slide) =>
      `the editing indicator of slide ${slide} was set and cleared ${times(n)} with no update of the slide in between (set it only around an edit)`,
  },
  'request.content-type': {
    severity: 'warning',
    clause: 'What the service does › JSON bodies',
    anchor: 'rule-errors-json',
    message: (n, operation) =>
      `${calls(n)} of ${operation} sent a body without Content-Type: application/json (the emulator reads it anyway; the service's bodies are JSON, declared as such)`,
  },
  'errors.repeated-400': {
    severity: 'warning',
    clause: 'Errors',
    anchor: 'rule-errors-400',
    message: (n, operation) =>
      `${operation} was sent again unchanged ${times(n)} after it answered 400 (the error body's hint says what to fix; the same request gets the same 400)`,
  },
} as const satisfies Record<string, RuleSpec>

export type ClientRuleId = keyof typeof CLIENT_RULES

/** The reference address of a rule (`reference/api.md#rule-limits-rate`). */
export function refOfRule(rule: ClientRuleId): string {
  return `${REFERENCE}#${CLIENT_RULES[rule].anchor}`
}

/** A record as the rules read it: its sequence number and the fingerprint of its credential. */
export interface JudgedRecord {
  record: JournalRecord
  sequence: number
  fingerprint: string | null
}

/** What the rules need besides the records. */
export interface RuleContext {
  clock: 'real' | 'manual'
  creditChanges: readonly CreditChange[]
  /** Credit changes noted at or before this sequence number were dropped. */
  creditChangesDroppedThrough: number
  /** The team a key is scoped to, when the world still knows the key. */
  teamOf(keyId: string): string | undefined
  /** False when entries of the window were dropped. */
  complete: boolean
  /** The emulator clock when the report is taken (epoch ms): how long an indicator has been on. */
  now: number
}

interface Group {
  rule: ClientRuleId
  fingerprint: string | null
  keyId: string | null
  subject: string
  operationId: string | undefined
  count: number
  ids: string[]
}

/** Findings grouped by rule, credential and subject (a job, a listing, a user). */
class Collector {
  readonly #groups = new Map<string, Group>()

  add(rule: ClientRuleId, judged: JudgedRecord, subject: string, ids: readonly string[] = [judged.record.id]): void {
    const key = `${rule}\u0000${judged.fingerprint}\u0000${subject}`
    let group = this.#groups.get(key)
    if (group === undefined) {
      group = {
        rule,
        fingerprint: judged.fingerprint,
        keyId: judged.record.keyId,
        subject,
        operationId: judged.record.operationId ?? undefined,
        count: 0,
        ids: [],
      }
      this.#groups.set(key, group)
    }
    group.keyId ??= judged.record.keyId
    if (group.operationId !== (judged.record.operationId ?? undefined)) group.operationId = undefined
    group.count += 1
    for (const id of ids) if (group.ids.length < MAX_IDS && !group.ids.includes(id)) group.ids.push(id)
  }

  findings(): ClientFinding[] {
    const out: ClientFinding[] = []
    for (const group of this.#groups.values()) {
      const spec: RuleSpec = CLIENT_RULES[group.rule]
      const finding: ClientFinding = {
        rule: group.rule,
        severity: spec.severity,
        level: spec.severity === 'error' ? 'MUST' : 'SHOULD',
        clause: spec.clause,
        ref: refOfRule(group.rule),
        message: spec.message(group.count, group.subject),
        keyFingerprint: group.fingerprint,
        keyId: group.keyId,
        count: group.count,
        requestIds: group.ids,
      }
      if (group.operationId !== undefined) finding.operationId = group.operationId
      out.push(finding)
    }
    return out
  }
}

interface Rule {
  visit(judged: JudgedRecord): void
  finish?(): void
}

const header = (record: JournalRecord, name: string): string | undefined => record.responseHeaders[name]

/** The `status` of a job's JSON answer; undefined when it has none. */
function jobStatusOf(body: string | null): string | undefined {
  if (body === null) return undefined
  try {
    const parsed = JSON.parse(body) as { status?: unknown }
    return typeof parsed.status === 'string' ? parsed.status : undefined
  } catch {
    return undefined
  }
}

/** Polling: faster than the floor while the job said processing; on after it left processing. */
function pollingRules(out: Collector, ctx: RuleContext): Rule {
  const jobs = new Map<string, { processing: boolean; time: number; realTime: number; readsAfterDone: number }>()
  return {
    visit(judged) {
      const { record, fingerprint } = judged
      if (record.operationId !== 'getJobStatus' || fingerprint === null || record.status === 401) return
      const key = `${fingerprint} ${record.path}`
      const job = record.path.slice(record.path.lastIndexOf('/') + 1)
      const last = jobs.get(key)
      if (last?.processing === true) {
        const real = record.realTime - last.realTime
        const emulated = record.time - last.time
        // On a manual clock a poll is too soon when the clock did not move since the last one (and real time
        // did not give the floor either); on a real clock, when neither clock moved by the floor.
        const soon =
          real < POLL_FLOOR_MS - TIMER_SLACK_MS && (ctx.clock === 'manual' ? emulated === 0 : emulated < POLL_FLOOR_MS - TIMER_SLACK_MS)
        if (soon) out.add('poll.too-fast', judged, job)
      }
      if (record.status !== 200) return
      const status = jobStatusOf(record.responseBody)
      if (status === undefined) return
      if (last !== undefined && !last.processing) {
        last.readsAfterDone += 1
        if (last.readsAfterDone > READS_AFTER_DONE_ALLOWED) out.add('poll.after-done', judged, job)
        return
      }
      jobs.set(key, { processing: status === 'processing', time: record.time, realTime: record.realTime, readsAfterDone: 0 })
    },
  }
}

/** The rate: no request before the reset a 429 gave; at most 50 a minute per user. */
function rateRules(out: Collector, ctx: RuleContext): Rule {
  const refused = new Map<string, { answered: number; reset: number; retryAfter: number | undefined }>()
  const windows = new Map<string, { window: number; count: number }>()
  let firstWindow: number | undefined
  return {
    visit(judged) {
      const { record } = judged
      const user = record.userId
      if (user === null) return
      const pending = refused.get(user)
      if (pending !== undefined && record.realTime >= pending.answered) {
        const early =
          record.time < pending.reset - TIMER_SLACK_MS &&
          (pending.retryAfter === undefined || record.realTime < pending.retryAfter - TIMER_SLACK_MS)
        if (early) out.add('rate.retry-before-reset', judged, user)
        else refused.delete(user)
      }
      if (record.status === 429) {
        const reset = Number(header(record, 'x-ratelimit-reset'))
        if (Number.isFinite(reset)) {
          // Whole milliseconds, as `Date.now()` reads them: a retry sent on the answer is not taken for one sent before it.
          const answered = Math.floor(record.realTime + record.durationMs)
          refused.set(user, { answered, reset: reset * 1000, retryAfter: retryAfterUntil(header(record, 'retry-after'), answered) })
        }
      }
      // Whole minutes of the real clock: the emulator clock when it is real (its windows are the limiter's), else wall time.
      const at = ctx.clock === 'real' ? record.time : record.realTime
      const window = Math.floor(at / RATE_WINDOW_MS)
      firstWindow ??= window
      // A window whose start was dropped is not judged.
      if (!ctx.complete && window === firstWindow) return
      let counted = windows.get(user)
      if (counted === undefined || counted.window !== window) {
        counted = { window, count: 0 }
        windows.set(user, counted)
      }
      counted.count += 1
      if (counted.count > SPEC_RATE_LIMIT) out.add('rate.exceeded', judged, user)
    },
  }
}

/** When a `Retry-After` lets the client retry (real epoch ms): seconds from the answer, or an HTTP date. */
function retryAfterUntil(value: string | undefined, answered: number): number | undefined {
  if (value === undefined) return undefined
  if (/^[0-9]+$/.test(value)) return answered + Number(value) * 1000
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : date
}

const READS = new Set(['getJobStatus', 'listProjects', 'getProject'])
const JOB_ID = /"jobId":"([^"\\]+)"/

/** Generate: after a 402 with no credit change; after an abandoned, accepted one with no read; the same body twice in 60 s. */
function generateRules(out: Collector, ctx: RuleContext): Rule {
  const keys = new Map<
    string,
    {
      refusedAt: number | undefined
      abandoned: string | undefined
      bodies: Map<string, { realTime: number; id: string; job: string | undefined }>
      /** Jobs this key read as failed: generating again after one is a retry, not a duplicate. */
      failed: Set<string>
    }
  >()
  const decoder = new TextDecoder()
  const creditsChangedBetween = (keyId: string | null, from: number, to: number): boolean => {
    if (from <= ctx.creditChangesDroppedThrough) return true // unknown: assume they did
    const team = keyId === null ? undefined : ctx.teamOf(keyId)
    for (const change of ctx.creditChanges) {
      if (change.afterSequence < from) continue
      if (change.afterSequence >= to) break
      if (team === undefined || change.teamId === team) return true
    }
    return false
  }
  return {
    visit(judged) {
      const { record, fingerprint, sequence } = judged
      if (fingerprint === null) return
      let state = keys.get(fingerprint)
      if (record.operationId !== null && READS.has(record.operationId)) {
        if (state !== undefined) {
          state.abandoned = undefined
          if (record.operationId === 'getJobStatus' && record.status === 200 && jobStatusOf(record.responseBody) === 'failed') {
            state.failed.add(record.path.slice(record.path.lastIndexOf('/') + 1))
          }
        }
        return
      }
      if (record.operationId !== 'generateProject' || record.status === 401) return
      if (state === undefined) {
        state = { refusedAt: undefined, abandoned: undefined, bodies: new Map(), failed: new Set() }
        keys.set(fingerprint, state)
      }
      if (state.refusedAt !== undefined && record.status === 402 && !creditsChangedBetween(record.keyId, state.refusedAt, sequence)) {
        out.add('generate.after-402', judged, 'generate')
      }
      state.refusedAt = record.status === 402 ? sequence : undefined
      // The retry of an abandoned generate is that rule's finding, not also a duplicate's.
      let retried: string | undefined
      if (state.abandoned !== undefined) {
        out.add('generate.abandoned-retry', judged, 'generate', [state.abandoned, record.id])
        retried = state.abandoned
        state.abandoned = undefined
      }
      if (record.status !== 200) return
      if (record.clientGone) state.abandoned = record.id
      const body = record.requestBody === null ? '' : decoder.decode(record.requestBody)
      const earlier = state.bodies.get(body)
      const earlierFailed = earlier?.job !== undefined && state.failed.has(earlier.job)
      if (earlier !== undefined && earlier.id !== retried && !earlierFailed && record.realTime - earlier.realTime < DUPLICATE_GENERATE_MS) {
        out.add('generate.duplicate', judged, 'generate', [earlier.id, record.id])
      }
      state.bodies.set(body, { realTime: record.realTime, id: record.id, job: JOB_ID.exec(record.responseBody ?? '')?.[1] })
    },
  }
}

/** 401: a credential that was refused, used again and refused again. */
function authRules(out: Collector): Rule {
  const refused = new Map<string, string>()
  return {
    visit(judged) {
      const { record, fingerprint } = judged
      if (fingerprint === null) return
      if (record.status !== 401) {
        refused.delete(fingerprint)
        return
      }
      const first = refused.get(fingerprint)
      if (first === undefined) refused.set(fingerprint, record.id)
      else out.add('auth.key-refused', judged, 'key', [first, record.id])
    },
  }
}

const LISTS: Record<string, string> = { listProjects: 'GET /projects', listTemplates: 'GET /projects/templates' }
const NEXT_CURSOR = /"nextCursor":"((?:[^"\\]|\\.)*)"/

/** Pagination: a cursor twice in one listing; page one only, repeated; `limit` out of range. */
function paginationRules(out: Collector): Rule {
  const listings = new Map<string, { cursors: Set<string>; open: boolean; followed: boolean; stops: JudgedRecord[] }>()
  return {
    visit(judged) {
      const { record, fingerprint } = judged
      const name = record.operationId === null ? undefined : LISTS[record.operationId]
      if (name === undefined || fingerprint === null || record.status === 401) return
      const params = new URLSearchParams(record.query)
      const limit = params.get('limit')
      if (limit !== null && !(/^[0-9]+$/.test(limit) && Number(limit) >= LIMIT_MIN && Number(limit) <= LIMIT_MAX)) {
        out.add('pagination.limit-out-of-range', judged, name)
      }
      if (record.status !== 200) return
      const cursor = params.get('cursor')
      params.delete('cursor')
      params.delete('limit')
      params.sort()
      const key = `${fingerprint} ${record.path}?${params.toString()}`
      let listing = listings.get(key)
      if (listing === undefined) {
        listing = { cursors: new Set(), open: false, followed: false, stops: [] }
        listings.set(key, listing)
      }
      if (cursor === null) {
        if (listing.open) listing.stops.push(judged)
        listing.cursors.clear()
      } else {
        if (listing.cursors.has(cursor)) out.add('pagination.cursor-repeated', judged, name)
        listing.cursors.add(cursor)
        listing.followed = true
      }
      listing.open = record.responseBody !== null && NEXT_CURSOR.test(record.responseBody)
    },
    finish() {
      for (const listing of listings.values()) {
        if (listing.followed) continue
        for (const judged of listing.stops) out.add('pagination.first-page-only', judged, LISTS[judged.record.operationId!]!)
      }
    },
  }
}

const SLIDE_PATH = /^(\/v1\/projects\/[^/]+\/slides\/[^/]+)(\/editing)?$/

/** The editing indicator: left on (5 minutes of emulator time or more when the report is taken); set around no update. */
function indicatorRules(out: Collector, ctx: RuleContext): Rule {
  const slides = new Map<string, { set: JudgedRecord; updated: boolean }>()
  return {
    visit(judged) {
      const { record, fingerprint } = judged
      if (fingerprint === null || record.status !== 200) return
      const op = record.operationId
      if (op !== 'startSlideEditing' && op !== 'stopSlideEditing' && op !== 'updateSlide') return
      const match = SLIDE_PATH.exec(record.path)
      if (match === null) return
      const key = `${fingerprint} ${match[1]}`
      const on = slides.get(key)
      if (op === 'updateSlide') {
        if (on !== undefined) on.updated = true
      } else if (op === 'startSlideEditing') {
        // Set again while on: the same session goes on (its agent or prompt changed).
        if (on === undefined) slides.set(key, { set: judged, updated: false })
      } else if (on !== undefined) {
        if (!on.updated) out.add('editing.never-updated', judged, slideOf(record.path), [on.set.record.id, record.id])
        slides.delete(key)
      }
    },
    finish() {
      for (const { set } of slides.values()) {
        if (ctx.now - set.record.time >= INDICATOR_LEFT_ON_MS) out.add('editing.left-on', set, slideOf(set.record.path))
      }
    },
  }
}

const slideOf = (path: string): string => {
  const match = SLIDE_PATH.exec(path)
  return match === null ? path : decodeURIComponent(match[1]!.slice(match[1]!.lastIndexOf('/') + 1))
}

const JSON_TYPE = /^\s*application\/(?:[\w.+-]*\+)?json\s*(?:;|$)/i

/** Bodies: declared as JSON; a 400 not sent again unchanged. */
function bodyRules(out: Collector): Rule {
  const refused = new Map<string, string>()
  const decoder = new TextDecoder()
  return {
    visit(judged) {
      const { record, fingerprint } = judged
      if (fingerprint === null || record.operationId === null) return
      const name = `${record.method} ${record.path}`
      const hasBody = record.requestBody !== null && record.requestBody.byteLength > 0
      if (hasBody && !JSON_TYPE.test(record.requestHeaders['content-type'] ?? ''))
        out.add('request.content-type', judged, record.operationId)
      if (record.status !== 400 && refused.size === 0) return
      const key = `${fingerprint} ${name}?${record.query} ${hasBody ? decoder.decode(record.requestBody!) : ''}`
      if (record.status === 400) {
        const first = refused.get(key)
        if (first !== undefined) out.add('errors.repeated-400', judged, name, [first, record.id])
        else refused.set(key, record.id)
      } else refused.delete(key)
    },
  }
}

/** Every rule over `records` (arrival order), one pass. */
export function judge(records: readonly JudgedRecord[], ctx: RuleContext): ClientFinding[] {
  const out = new Collector()
  const rules: Rule[] = [
    pollingRules(out, ctx),
    rateRules(out, ctx),
    generateRules(out, ctx),
    authRules(out),
    paginationRules(out),
    indicatorRules(out, ctx),
    bodyRules(out),
  ]
  for (const judged of records) for (const rule of rules) rule.visit(judged)
  for (const rule of rules) rule.finish?.()
  return out.findings()
}
