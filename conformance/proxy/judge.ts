/**
 * The proxy's judge: each exchange that passed through goes to the kit's
 * passive observer (the table of facts) and to the proxy's own checks of one
 * exchange (`bounds.ts`); what did not hold becomes a finding of the kit's
 * report, one "scenario" per fact.
 *
 * What the proxy cannot vouch for is a note, never a MUST or a SHOULD:
 * - a fact relating an exchange to earlier ones, when the exchange overlapped
 *   another in time (their order at the server is unknown);
 * - such a fact on a project something else wrote to: the proxy takes a
 *   project as written only through it until an answer shows otherwise: an
 *   `updatedAt` that moved between two reads while no write to the project
 *   went through the proxy. (A `latestVersion.id` no write through it
 *   answered is no such sign: it is also what a server that answers wrong
 *   versionIds shows, which `version.latest` must catch.)
 */
import { problemsOf } from '../report/problems.js'
import { refOf } from '../reference.js'
import { routes } from '../../src/client/index.js'
import { canonical, shown } from '../facts/compare.js'
import { asJson } from '../facts/model.js'
import type { Observed, Recorded } from '../facts/observed.js'
import { observe } from '../facts/observed.js'
import { Observer } from '../facts/observer.js'
import { type FACTS, ONE_EXCHANGE_FACTS } from '../facts/table.js'
import { prefixOf } from '../facts/model.js'
import { curlCommand, keyCredential, type Credential, type KeyRole } from '../curl.js'
import { summarize } from '../report/exchange.js'
import {
  type CoverageRow,
  type ExchangeSummary,
  type Finding,
  type Level,
  type Report,
  REPORT_FORMAT,
  type ScenarioResult,
} from '../types.js'
import {
  boundClause,
  breachOf,
  Clauses,
  documentedStatuses,
  type OwnCheck,
  REQUEST_BOUND,
  refusesBreach,
  STATUS_DOCUMENTED,
} from './bounds.js'

export interface JudgeOptions {
  /** The target's API base URL (ending in /v1). */
  baseUrl: string
  apiKey?: string | undefined
  otherTeamKey?: string | undefined
  revokedKey?: string | undefined
}

/** One thing that did not hold on one exchange. */
export interface Judgement {
  /** `note`: it did not hold, but the proxy cannot vouch for the order or the writes it relied on. */
  level: Level | 'note'
  factId: string
  statement: string
  clause: string
  operation: string
  expected: string
  actual: string
  subject: string | undefined
  curl: string
  /** Why a note is not a finding. */
  because?: string
}

/** The operations that change a project named in their path. */
const WRITES = new Set([
  'renameProject',
  'updateProjectConfig',
  'duplicateProject',
  'publishProject',
  'unpublishProject',
  'updateSlide',
  'createSlide',
  'startSlideEditing',
  'stopSlideEditing',
])

/** Request headers a reproduction does not send (the transport's, and the proxy's hop-by-hop ones). */
const NOT_REPRODUCED = new Set(['host', 'content-length', 'connection', 'accept-encoding', 'keep-alive', 'transfer-encoding'])

interface Tally {
  check: OwnCheck | (typeof FACTS)[number]
  checks: number
  failures: Finding[]
  warnings: Finding[]
  notes: string[]
}

export class ProxyJudge {
  readonly observer: Observer
  readonly #options: JudgeOptions
  readonly #tallies = new Map<string, Tally>()
  readonly #coverage = new Map<string, CoverageRow>()
  /** Projects an answer showed written outside the proxy. */
  readonly #foreign = new Set<string>()
  /** Per project: the updatedAt last read, and whether a write went through the proxy since. */
  readonly #updated = new Map<string, { at: string; wrote: boolean }>()
  readonly #created: string[] = []
  exchanges = 0

  constructor(options: JudgeOptions) {
    this.#options = options
    const { apiKey, otherTeamKey, revokedKey } = options
    this.observer = new Observer({
      prefix: apiKey === undefined ? undefined : prefixOf(apiKey),
      isolated: (a, b) =>
        apiKey !== undefined &&
        otherTeamKey !== undefined &&
        ((a === apiKey && b === otherTeamKey) || (a === otherTeamKey && b === apiKey)),
      revoked: new Set(revokedKey === undefined ? [] : [revokedKey]),
      extensions: false,
      // Another client's writes between two pages of a list can legally repeat or hide an item.
      judgeLists: false,
    })
  }

  /** Judges one exchange (`overlapped`: another was in flight at some moment of it); returns what did not hold. */
  judge(recorded: Recorded, overlapped: boolean): Judgement[] {
    this.exchanges += 1
    const ex = observe(recorded, this.#options.baseUrl)
    this.#cover(ex)
    this.#watchForeignWrites(ex)
    const out: Judgement[] = []
    const curl = () => this.#curl(recorded)
    for (const verdict of this.observer.observe(ex)) {
      const { fact } = verdict
      const alone = ONE_EXCHANGE_FACTS.has(fact.id)
      const tally = this.#tally(fact.id, fact)
      tally.checks += 1
      if (verdict.holds) continue
      const miss = verdict.miss!
      const because = alone ? undefined : this.#doubt(ex, miss.subject, overlapped)
      const judgement: Judgement = {
        level: because === undefined ? fact.level : 'note',
        factId: fact.id,
        statement: fact.statement,
        clause: verdict.clause,
        operation: operationName(ex),
        expected: shown(miss.expected),
        actual: shown(miss.actual),
        subject: miss.subject,
        curl: curl(),
        ...(because === undefined ? {} : { because }),
      }
      this.#record(tally, judgement, recorded)
      out.push(judgement)
    }
    for (const judgement of this.#ownChecks(ex, recorded, curl)) out.push(judgement)
    if (ex.operationId === 'createProject' && ex.status === 200) {
      const slug = asJson(ex.json).projectSlug
      if (typeof slug === 'string') this.#created.push(slug)
    }
    return out
  }

  /** Why a relation between exchanges cannot be vouched for, or undefined when it can. */
  #doubt(ex: Observed, subject: string | undefined, overlapped: boolean): string | undefined {
    if (overlapped) return 'the exchange overlapped another in time'
    const slugs = [ex.params.slug, ...[...this.#foreign].filter((slug) => subject?.includes(`project ${slug}`))]
    const foreign = slugs.find((slug) => slug !== undefined && this.#foreign.has(slug))
    return foreign === undefined ? undefined : `project ${foreign} was written to outside the proxy`
  }

  #ownChecks(ex: Observed, recorded: Recorded, curl: () => string): Judgement[] {
    const out: Judgement[] = []
    const id = ex.operationId
    if (id === undefined) return out
    const breach = breachOf(ex, recorded.requestBody)
    if (breach !== undefined) {
      const tally = this.#tally(REQUEST_BOUND.id, REQUEST_BOUND)
      tally.checks += 1
      if (!refusesBreach(ex)) {
        const judgement = this.#own(REQUEST_BOUND, boundClause(id), ex, '400', String(ex.status), breach, curl())
        this.#record(tally, judgement, recorded)
        out.push(judgement)
      }
    }
    const documented = documentedStatuses(id)
    if (documented !== undefined) {
      const tally = this.#tally(STATUS_DOCUMENTED.id, STATUS_DOCUMENTED)
      tally.checks += 1
      if (!documented.has(ex.status)) {
        const judgement = this.#own(STATUS_DOCUMENTED, Clauses.errors, ex, [...documented].join(', '), String(ex.status), undefined, curl())
        this.#record(tally, judgement, recorded)
        out.push(judgement)
      }
    }
    return out
  }

  #own(
    check: OwnCheck,
    clause: string,
    ex: Observed,
    expected: string,
    actual: string,
    subject: string | undefined,
    curl: string,
  ): Judgement {
    return {
      level: check.level,
      factId: check.id,
      statement: check.statement,
      clause,
      operation: operationName(ex),
      expected,
      actual,
      subject,
      curl,
    }
  }

  /** Marks the projects an answer shows were written outside the proxy; notes the proxy's own writes. */
  #watchForeignWrites(ex: Observed): void {
    const slug = ex.params.slug
    if (slug !== undefined && ex.operationId !== undefined && WRITES.has(ex.operationId)) {
      const seen = this.#updated.get(slug)
      if (seen !== undefined) seen.wrote = true
    }
    if (ex.status !== 200) return
    const reads: Array<{ slug: string; updatedAt: unknown }> = []
    if (ex.operationId === 'getProject' && slug !== undefined) reads.push({ slug, updatedAt: asJson(ex.json).updatedAt })
    if (ex.operationId === 'listProjects' && Array.isArray(asJson(ex.json).projects))
      for (const item of (asJson(ex.json).projects as unknown[]).map(asJson))
        if (typeof item.slug === 'string') reads.push({ slug: item.slug, updatedAt: item.updatedAt })
    for (const read of reads) {
      const project = this.observer.model.projects.get(read.slug)
      if (project === undefined) continue
      if (typeof read.updatedAt !== 'string') continue
      const seen = this.#updated.get(read.slug)
      if (seen !== undefined && !seen.wrote && seen.at !== read.updatedAt) this.#foreign.add(read.slug)
      this.#updated.set(read.slug, { at: read.updatedAt, wrote: false })
    }
  }

  #tally(id: string, check: Tally['check']): Tally {
    let tally = this.#tallies.get(id)
    if (tally === undefined) {
      tally = { check, checks: 0, failures: [], warnings: [], notes: [] }
      this.#tallies.set(id, tally)
    }
    return tally
  }

  #record(tally: Tally, judgement: Judgement, recorded: Recorded): void {
    if (judgement.level === 'note') {
      tally.notes.push(`${judgementLine(judgement)} (${judgement.because})`)
      return
    }
    const finding: Finding = {
      rule: judgement.factId,
      level: judgement.level,
      clause: judgement.clause,
      ref: refOf(judgement.clause),
      message: `${judgement.operation}: ${judgement.statement}${judgement.subject === undefined ? '' : ` (${judgement.subject})`}`,
      expected: judgement.expected,
      actual: judgement.actual,
      exchange: summaryOf(recorded, this.#credential(recorded)),
      curl: judgement.curl,
    }
    ;(judgement.level === 'MUST' ? tally.failures : tally.warnings).push(finding)
  }

  #cover(ex: Observed): void {
    if (ex.operationId === undefined) return
    const key = `${ex.operationId} ${ex.status}`
    const row = this.#coverage.get(key)
    if (row === undefined)
      this.#coverage.set(key, { operationId: ex.operationId, status: ex.status, state: 'exercised', scenarios: ['proxy'] })
  }

  /** Which of the keys the proxy was told of sent the request (the curl reads it from that role's variable), or undefined. */
  #credential(recorded: Recorded): Credential | undefined {
    const authorization = Object.entries(recorded.requestHeaders).find(([name]) => name.toLowerCase() === 'authorization')?.[1]
    const key = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1]
    const roles: Array<[string | undefined, KeyRole]> = [
      [this.#options.apiKey, 'main'],
      [this.#options.otherTeamKey, 'otherTeam'],
      [this.#options.revokedKey, 'revoked'],
    ]
    const role = roles.find(([value]) => value !== undefined && value === key)?.[1]
    return role === undefined ? undefined : keyCredential(role)
  }

  #curl(recorded: Recorded): string {
    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(recorded.requestHeaders)) if (!NOT_REPRODUCED.has(name.toLowerCase())) headers[name] = value
    const credential = this.#credential(recorded)
    if (credential !== undefined) delete headers.authorization
    return curlCommand({ method: recorded.method, url: recorded.url, headers, body: recorded.requestBody }, credential)
  }

  /** Whether a MUST did not hold. */
  get failed(): boolean {
    return [...this.#tallies.values()].some((t) => t.failures.length > 0)
  }

  /** Everything judged so far as the kit's report (one scenario per fact that applied). */
  report(startedAt: Date, durationMs: number, target: string): Report {
    const scenarios: ScenarioResult[] = [...this.#tallies.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([id, tally]) => ({
        id,
        title: tally.check.statement,
        kind: 'spec' as const,
        outcome: tally.failures.length > 0 ? ('fail' as const) : ('pass' as const),
        durationMs: 0,
        checks: tally.checks,
        failures: tally.failures,
        warnings: tally.warnings,
        notes: tally.notes,
      }))
    const count = (outcome: ScenarioResult['outcome']) => scenarios.filter((s) => s.outcome === outcome).length
    return {
      format: REPORT_FORMAT,
      runId: `proxy-${startedAt.toISOString()}`,
      seed: 0,
      target: { kind: 'deployment', baseUrl: target, emulator: false, controlPlane: false },
      startedAt: startedAt.toISOString(),
      durationMs,
      summary: {
        passed: count('pass'),
        failed: count('fail'),
        skipped: 0,
        expectedFailures: 0,
        stale: 0,
        warnings: scenarios.reduce((n, s) => n + s.warnings.length, 0),
        total: scenarios.length,
        emulatorOnly: 0,
      },
      problems: problemsOf(scenarios),
      scenarios,
      coverage: [...this.#coverage.values()].sort((a, b) =>
        canonical([a.operationId, a.status]).localeCompare(canonical([b.operationId, b.status])),
      ),
      createdProjects: this.#created,
      mostlySkipped: false,
    }
  }
}

function operationName(ex: Observed): string {
  return ex.operationId === undefined
    ? `${ex.method} ${ex.path ?? '(outside the base URL)'}`
    : `${routes[ex.operationId].method} ${routes[ex.operationId].path} (${ex.operationId})`
}

/** A judgement on one line: level, clause, operation, what, expected and seen. */
export function judgementLine(j: Judgement): string {
  return `${j.level === 'note' ? 'note' : j.level}  ${j.clause}  ${j.operation}: ${j.factId}${j.subject === undefined ? '' : ` (${j.subject})`}: expected ${j.expected}, seen ${j.actual}`
}

/** A recorded exchange as the kit's reports show one (`summarize`, the same bounds as a kit run's). */
function summaryOf(recorded: Recorded, credential: Credential | undefined): ExchangeSummary {
  return summarize({
    ...(credential === undefined ? {} : { credential }),
    request: { method: recorded.method, url: recorded.url, headers: recorded.requestHeaders, body: recorded.requestBody },
    status: recorded.status,
    headers: Object.fromEntries(Object.entries(recorded.responseHeaders).map(([name, value]) => [name.toLowerCase(), value])),
    text: recorded.responseBody,
  })
}
