/**
 * What a scenario works with: its actors (keys, `actors.ts`), a way to send
 * plain-data requests through the typed client's raw mode, and checks that
 * record findings with the exchange that shows them.
 */
import type { z } from 'zod'
import { retryAfterSeconds, type ControlClient, type OperationId, type OperationInput } from '../src/client/index.js'
import { operations, type OperationSpec } from '../src/schemas/index.js'
import { Clauses, endpoint } from './clauses.js'
import { refOf } from './reference.js'
import { summarize } from './report/exchange.js'
import { derivedRule } from './report/problems.js'
import { type Actor, Actors, credentialOf } from './actors.js'
import { curlCommand, type Credential, KEY_VARIABLES } from './curl.js'
import { shown, same } from './facts/compare.js'
import { prefixOf } from './facts/model.js'
import { observedFrom } from './facts/observed.js'
import { Observer, type Verdict } from './facts/observer.js'
import { parseReset, type Pacer } from './pacer.js'
import type { Rng } from './random.js'
import type { Target } from './target.js'
import type { Exchange, Finding, KitRequest, Level, Need, Phase, ScenarioKind, StepResult } from './types.js'

/** A scenario: what it needs of the target, and what it does with a context. */
export interface Scenario {
  /** Stable id, used by `--grep`, baselines and reports: `area.name`. */
  id: string
  title: string
  kind: ScenarioKind
  needs: readonly Need[]
  phase?: Phase
  /**
   * The operation × status pairs this scenario exercises. The coverage
   * table's "exercised" comes from the exchanges a run made; this list says
   * which statuses went unexercised because the scenario was skipped. A test
   * holds it to what the scenario's requests are answered with against the
   * emulator.
   */
  covers?: ReadonlyArray<readonly [OperationId, number]>
  run(ctx: ScenarioContext): Promise<void>
}

/** State shared by every scenario of one run. */
export interface RunState {
  target: Target
  pacer: Pacer
  runId: string
  /** Slugs of projects created by the run. */
  created: Set<string>
  /** `operationId status` pairs answered and checked. */
  exercised: Set<string>
  jobTimeoutMs: number
  /** Values scenarios share within a run (found once, used by many), by name. */
  shared: Map<string, Promise<unknown>>
  /** API requests sent to the target (retries included). */
  requests: number
  /** Told of every check a scenario makes, passed or not. */
  onCheck?: (check: CheckRecord) => void
  /** Generation jobs the run started that it has not seen finish (a run cut short lists them). */
  jobs?: Set<string>
  /**
   * Every key the run acted with, by value: the ones the kit made through a
   * control plane (for `--write-keys`) and the ones it was given. No report
   * may contain any of them (`scrubSecrets`).
   */
  keys?: Map<string, RunKey>
  /** Told of each wait (the rate limit, a job) as it starts, with its expected length: the CLI's progress lines. */
  onWait?: (wait: RunWait) => void
}

/** A wait of a run as it starts: on the rate limit or a generation job, its expected length (ms, the target's time), and the scenario waiting. */
export interface RunWait {
  kind: 'rate-limit' | 'job'
  ms: number
  scenario?: string
  /** The job waited on. */
  jobId?: string
}

/** A key a run acted with: who made it, for which scenario, and how a report names it. */
export interface RunKey {
  key: string
  keyId?: string
  /** What it is for, in words ("main", "other team"). */
  label: string
  /** The variable a report's curls read it from (`PRESENTATION_API_KEY`, …). */
  variable: string
  /** True when the kit made it through the control plane (no flag gave it). */
  madeByKit: boolean
  /** The first scenario that acted with it. */
  scenario: string
}

/** One check as a run makes it: which scenario, the clause, the message, and whether it held. */
export interface CheckRecord {
  scenario: string
  level: Level
  clause: string
  message: string
  ok: boolean
}

/** Thrown to stop a scenario that cannot go on (its failure is already recorded). */
export class AbortScenario extends Error {}
/** Thrown by a scenario that finds at run time it does not apply. */
export class SkipScenario extends Error {}

const show = (value: unknown) => shown(value)

export interface CheckDetail {
  /** The rule's stable id, when the check is one of the table of facts' rows (default: derived from the clause and message). */
  rule?: string
  expected?: unknown
  actual?: unknown
  exchange?: Exchange
}

export class ScenarioContext {
  readonly failures: Finding[] = []
  readonly warnings: Finding[] = []
  readonly notes: string[] = []
  /** How long (ms, the target's time) this scenario's requests waited for the rate limit (pacing and unexpected 429s). */
  rateLimitWaitMs = 0
  /** The steps of a scenario written in steps, in order. */
  readonly steps: StepResult[] = []
  /** Steps that did not complete (they threw), or were skipped: what depends on them is skipped. */
  readonly #incomplete = new Map<string, string>()
  /** `operationId status` pairs this scenario's own requests were answered with (the kit's housekeeping left out). */
  readonly exercised = new Set<string>()
  checks = 0
  readonly #unnamed = new Map<string, { actor: Actor; purpose: string }>()
  /** True while `nameCreated` renames: those exchanges are the kit's housekeeping, not the scenario's. */
  #tidying = false
  /**
   * Judges every exchange of a spec scenario by the table of facts (the same
   * observer the walks and a proxy use); undefined for emulator checks, whose
   * control-plane moves (resets, faults) no observer of the API could follow.
   */
  readonly #observer: Observer | undefined
  /** The exchanges the observer judged (their generic checks are not repeated by `expect…`). */
  readonly #observed = new WeakSet<Exchange>()
  /** The keys this scenario acts with (its own accounts with a control plane). */
  readonly actors: Actors

  constructor(
    readonly run: RunState,
    readonly scenario: Scenario,
    readonly rng: Rng,
    options: { observe?: boolean } = {},
  ) {
    this.actors = new Actors(run.target, {
      control: () => this.control,
      name: (purpose) => this.name(purpose),
      remember: (actor, madeByKit) => {
        if (run.keys !== undefined && !run.keys.has(actor.key))
          run.keys.set(actor.key, {
            key: actor.key,
            ...(actor.keyId === undefined ? {} : { keyId: actor.keyId }),
            label: actor.label,
            variable: KEY_VARIABLES[actor.role === undefined || actor.role === 'fixture' ? 'extra' : actor.role],
            madeByKit,
            scenario: scenario.id,
          })
      },
      keyInfo: (key) =>
        this.shared(`key-info:${key}`, async () => {
          const state = (await this.target.control?.getState()) as
            | { apiKeys?: Array<{ id: string; key: string; userId: string; teamId: string }> }
            | undefined
          const found = state?.apiKeys?.find((k) => k.key === key)
          return found === undefined ? undefined : { keyId: found.id, userId: found.userId, teamId: found.teamId }
        }),
      // The observer learns the service prefix from the main key, and which keys are revoked.
      onKey: (role, key) => {
        if (role === 'main' && this.#observer !== undefined) this.#observer.settings.prefix ??= prefixOf(key)
        if (role === 'revoked') (this.#observer?.settings.revoked as Set<string> | undefined)?.add(key)
      },
    })
    if ((options.observe ?? true) && scenario.kind === 'spec') {
      const target = run.target
      // A list walk is judged whole (no repeats, every project listed) only where nothing else
      // writes meanwhile: a fresh account of its own, or the phases that run alone.
      const quiet = target.isolated || scenario.phase === 'quiet' || scenario.phase === 'last'
      this.#observer = new Observer({
        prefix: target.keys.main === undefined ? undefined : prefixOf(target.keys.main),
        isolated: (a, b) => {
          const { main, other } = this.actors.keys
          return main !== undefined && other !== undefined && ((a === main && b === other) || (a === other && b === main))
        },
        revoked: new Set(target.keys.revoked === undefined ? [] : [target.keys.revoked]),
        extensions: target.emulatorChecks,
        judgeLists: quiet,
      })
    }
  }

  /** The observer's verdicts become this scenario's checks: a fact that did not hold is a finding with the exchange. */
  #judge(exchange: Exchange): void {
    if (this.#observer === undefined) return
    this.#observed.add(exchange)
    for (const verdict of this.#observer.observe(observedFrom(exchange, this.target.baseUrl))) this.#verdict(verdict, exchange)
  }

  #verdict(verdict: Verdict, exchange: Exchange): void {
    const about = verdict.miss?.subject === undefined ? '' : ` (${verdict.miss.subject})`
    const detail: CheckDetail = { exchange, rule: verdict.fact.id }
    if (verdict.miss !== undefined) {
      detail.expected = verdict.miss.expected
      detail.actual = verdict.miss.actual
    }
    this.check(verdict.fact.level, verdict.clause, `${verdict.fact.statement}${about}`, verdict.holds, detail)
  }

  get target(): Target {
    return this.run.target
  }

  /** The emulator's control plane (scenarios that need `controlPlane` only). */
  get control(): ControlClient {
    const control = this.target.control
    if (control === undefined) throw new Error(`${this.scenario.id} uses the control plane without declaring the need`)
    const observer = this.#observer
    if (observer === undefined) return control
    // What the control plane changes (templates, teams, the whole world) the observer forgets.
    return new Proxy(control, {
      get(client, name, receiver) {
        const value = Reflect.get(client, name, receiver)
        if (typeof value !== 'function') return value
        return (...args: unknown[]) => {
          if (name === 'reset' || name === 'putState') observer.forget('all')
          else if (!['health', 'clock', 'advanceClock', 'getState', 'listRequests', 'listFaults', 'createAccount'].includes(String(name)))
            observer.forget('lists')
          return (value as (...a: unknown[]) => unknown).apply(client, args)
        }
      },
    })
  }

  has(need: Need): boolean {
    return needMet(this.target, need)
  }

  /** A name carrying the run's prefix, so a person can find what the run created. */
  name(purpose: string): string {
    return `conformance-${this.run.runId} ${purpose}`.slice(0, 120)
  }

  /**
   * Records a project the run created. `unnamed`: its name is not the run's
   * (created without a body or at a one-character bound, a duplicate, a
   * generated project): it is renamed to `name(purpose)` when the scenario
   * ends, so a person can find everything a run made by its prefix.
   */
  created(slug: string | null | undefined, unnamed?: { actor: Actor; purpose: string }): void {
    if (typeof slug !== 'string' || slug === '') return
    this.run.created.add(slug)
    if (unnamed !== undefined) this.#unnamed.set(slug, unnamed)
  }

  /**
   * Gives the projects recorded as unnamed the run's prefix (one rename
   * each, after the scenario's own checks). A refused rename is a note, not a
   * finding: the rename scenarios judge renames.
   */
  async nameCreated(): Promise<void> {
    const pending = [...this.#unnamed]
    this.#unnamed.clear()
    this.#tidying = true
    try {
      for (const [slug, { actor, purpose }] of pending) {
        try {
          const exchange = await this.call(actor, 'renameProject', { params: { slug }, body: { name: this.name(purpose) } })
          if (exchange.status !== 200) this.note(`could not give ${slug} the run's prefix: the rename answered ${exchange.status}`)
        } catch (error) {
          this.note(`could not give ${slug} the run's prefix: ${(error as Error).message}`)
        }
      }
    } finally {
      this.#tidying = false
    }
  }

  note(text: string): void {
    this.notes.push(text)
  }

  /** A value computed once per run and shared by every scenario that asks for it by `name`. */
  shared<T>(name: string, make: () => Promise<T>): Promise<T> {
    let value = this.run.shared.get(name) as Promise<T> | undefined
    if (value === undefined) {
      value = make()
      this.run.shared.set(name, value)
    }
    return value
  }

  // ---------------------------------------------------------------- actors (actors.ts)

  /** A fresh account (with a control plane): its own user, team, credits and rate-limit bucket. */
  freshAccount(label: string, credits = 10): Promise<Actor> {
    return this.actors.freshAccount(label, credits)
  }

  /** The main key: a fresh account per scenario with a control plane, else `--api-key`. */
  main(): Promise<Actor> {
    return this.actors.main()
  }

  /** A key of another user, with no access to the main key's projects. */
  other(): Promise<Actor> {
    return this.actors.other()
  }

  /** A revoked key. */
  revokedKey(): Promise<Actor> {
    return this.actors.revokedKey()
  }

  /** A key whose team has no credits. */
  noCreditsKey(): Promise<Actor> {
    return this.actors.noCreditsKey()
  }

  // ---------------------------------------------------------------- requests

  /**
   * Sends a request as `actor` (the request's own `apiKey` wins), paced by
   * the rate limit. A 429 the scenario did not ask for is waited out and
   * the request sent again, with a note: it says nothing of this scenario.
   */
  async send(
    actor: Actor | null,
    request: KitRequest,
    options: { expectRateLimit?: boolean; credential?: Credential } = {},
  ): Promise<Exchange> {
    const key = request.apiKey === undefined ? (actor?.key ?? null) : request.apiKey
    const credential = options.credential ?? credentialOf(this.target, actor, key, request.authorization)
    for (let attempt = 0; ; attempt++) {
      // A scenario that expects a 429 is not paced: it is there to meet the limit.
      if (key !== null && !options.expectRateLimit)
        this.rateLimitWaitMs += await this.run.pacer.acquire(key, (ms) =>
          this.run.onWait?.({ kind: 'rate-limit', ms, scenario: this.scenario.id }),
        )
      this.run.requests += 1
      const { request: sent, response, durationMs } = await this.target.client.raw({ ...request, apiKey: key })
      const text = await response.text()
      const headers: Record<string, string> = {}
      response.headers.forEach((value, name) => {
        headers[name] = value
      })
      let json: unknown
      try {
        json = text === '' ? undefined : JSON.parse(text)
      } catch {
        json = undefined
      }
      const exchange: Exchange = {
        operationId: request.operationId,
        request: sent,
        status: response.status,
        headers,
        text,
        json,
        durationMs,
        credential,
      }
      if (key !== null) await this.run.pacer.observe(key, headers)
      if (response.status === 429 && !options.expectRateLimit && attempt < 3) {
        // Retry-After when it asks for a wait; else until X-RateLimit-Reset; else a minute.
        const now = await this.target.clock.now()
        const after = retryAfterSeconds(headers['retry-after'] ?? null)
        const reset = parseReset(headers['x-ratelimit-reset'], now)
        const wait = after !== undefined && after > 0 ? after * 1000 : reset !== undefined && reset > now ? reset - now + 250 : 60_000
        this.note(`unexpected 429 on ${sent.method} ${sent.url}; waited ${Math.round(wait / 1000)} s and sent it again`)
        if (key !== null) this.run.pacer.exhausted(key, now + wait)
        this.rateLimitWaitMs += wait
        this.run.onWait?.({ kind: 'rate-limit', ms: wait, scenario: this.scenario.id })
        await this.target.clock.sleep(wait)
        continue
      }
      if (this.run.jobs !== undefined && response.status === 200) {
        const job = json as { jobId?: unknown; status?: unknown } | undefined
        if (request.operationId === 'generateProject' && typeof job?.jobId === 'string') this.run.jobs.add(job.jobId)
        if (request.operationId === 'getJobStatus' && typeof job?.jobId === 'string' && job.status !== 'processing')
          this.run.jobs.delete(job.jobId)
      }
      if (request.operationId !== undefined) {
        this.run.exercised.add(`${request.operationId} ${response.status}`)
        if (!this.#tidying) this.exercised.add(`${request.operationId} ${response.status}`)
      }
      this.#judge(exchange)
      return exchange
    }
  }

  /** Sends one operation with typed inputs. */
  call<Id extends OperationId>(
    actor: Actor | null,
    operationId: Id,
    input: OperationInput<Id> = {} as OperationInput<Id>,
    extra: Omit<KitRequest, 'operationId'> = {},
  ): Promise<Exchange> {
    return this.send(actor, {
      operationId,
      params: input.params as Record<string, string> | undefined,
      query: input.query as KitRequest['query'],
      body: input.body,
      ...extra,
    })
  }

  /** Sends an operation, requires a 200 whose body matches the spec, and returns that body. */
  async ok<Id extends OperationId>(
    actor: Actor | null,
    operationId: Id,
    input: OperationInput<Id> = {} as OperationInput<Id>,
  ): Promise<z.output<(typeof operations)[Id]['response']>> {
    const exchange = await this.call(actor, operationId, input)
    return this.expectOk<Id>(exchange)
  }

  /** Waits on the target's clock (a control plane's clock moves instead of real time passing). */
  sleep(ms: number): Promise<void> {
    return this.target.clock.sleep(ms)
  }

  // ---------------------------------------------------------------- checks

  #record(level: Level, clause: string, message: string, detail: CheckDetail = {}): void {
    const finding: Finding = {
      rule: detail.rule ?? derivedRule(clause, message, this.run.runId),
      level,
      clause,
      ref: refOf(clause),
      message,
    }
    if (detail.exchange?.operationId !== undefined) finding.operationId = detail.exchange.operationId
    if ('expected' in detail) finding.expected = show(detail.expected)
    if ('actual' in detail) finding.actual = show(detail.actual)
    if (detail.exchange !== undefined) {
      finding.exchange = summarize(detail.exchange)
      finding.curl = curlCommand(detail.exchange.request, detail.exchange.credential)
    }
    ;(level === 'MUST' ? this.failures : this.warnings).push(finding)
  }

  check(level: Level, clause: string, message: string, ok: boolean, detail?: CheckDetail): boolean {
    this.checks += 1
    this.run.onCheck?.({ scenario: this.scenario.id, level, clause, message, ok })
    if (!ok) this.#record(level, clause, message, detail)
    return ok
  }

  must(clause: string, message: string, ok: boolean, detail?: CheckDetail): boolean {
    return this.check('MUST', clause, message, ok, detail)
  }

  should(clause: string, message: string, ok: boolean, detail?: CheckDetail): boolean {
    return this.check('SHOULD', clause, message, ok, detail)
  }

  /** Checks `actual` deep-equals `expected` (as JSON, whatever the order of objects' keys). */
  equal(level: Level, clause: string, message: string, actual: unknown, expected: unknown, exchange?: Exchange): boolean {
    const ok = same(actual, expected)
    return this.check(level, clause, message, ok, { expected, actual, ...(exchange === undefined ? {} : { exchange }) })
  }

  abort(message: string): never {
    throw new AbortScenario(message)
  }

  /**
   * Runs one step of the scenario and records it. A failed check fails the
   * step; a step that cannot go on (an abort, an error) fails without stopping
   * the scenario. A step `after` steps that did not complete is skipped,
   * naming what it depended on. Answers the step's value, or undefined when
   * it did not complete.
   */
  async step<T>(name: string, run: () => Promise<T>, options: { after?: readonly string[] } = {}): Promise<T | undefined> {
    if (this.steps.some((s) => s.name === name)) throw new Error(`${this.scenario.id}: two steps named "${name}"`)
    const blocked = (options.after ?? []).find(
      (dependency) => this.#incomplete.has(dependency) || !this.steps.some((s) => s.name === dependency),
    )
    if (blocked !== undefined) {
      const why = this.#incomplete.get(blocked) ?? 'did not run'
      const reason = `depends on "${blocked}", which ${why}`
      this.steps.push({ name, outcome: 'skip', reason, checks: 0 })
      this.#incomplete.set(name, 'was skipped')
      return undefined
    }
    const failures = this.failures.length
    const checks = this.checks
    try {
      const value = await run()
      this.steps.push({ name, outcome: this.failures.length > failures ? 'fail' : 'pass', checks: this.checks - checks })
      return value
    } catch (error) {
      if (error instanceof SkipScenario) throw error
      const message = error instanceof AbortScenario ? error.message : `could not run: ${(error as Error)?.message ?? String(error)}`
      if (this.failures.length === failures) this.must('Conformance kit', `${name}: ${message}`, false)
      this.steps.push({ name, outcome: 'fail', reason: `did not complete: ${message}`, checks: this.checks - checks })
      this.#incomplete.set(name, 'did not complete')
      return undefined
    }
  }

  skip(reason: string): never {
    throw new SkipScenario(reason)
  }

  /** The status is (one of) `expected`. */
  expectStatus(exchange: Exchange, expected: number | readonly number[], clause?: string, level: Level = 'MUST'): boolean {
    const list = typeof expected === 'number' ? [expected] : expected
    const where = clause ?? (exchange.operationId === undefined ? Clauses.errors : endpoint(exchange.operationId))
    return this.check(level, where, `${exchange.request.method} answers ${list.join(' or ')}`, list.includes(exchange.status), {
      expected: list.join(' or '),
      actual: exchange.status,
      exchange,
    })
  }

  /** Whether the table of facts judged this exchange already (a scenario then does not repeat its generic checks). */
  judged(exchange: Exchange): boolean {
    return this.#observed.has(exchange)
  }

  /** The body is JSON with `Content-Type: application/json` (checked once: the observer's json.body fact, when it judged the exchange). */
  expectJson(exchange: Exchange): boolean {
    const type = exchange.headers['content-type'] ?? ''
    if (this.#observed.has(exchange)) return /^application\/json\b/i.test(type) && exchange.json !== undefined
    const typed = this.check('MUST', Clauses.json, 'the response has Content-Type: application/json', /^application\/json\b/i.test(type), {
      expected: 'application/json',
      actual: type || '(none)',
      exchange,
    })
    const parsed = this.check('MUST', Clauses.json, 'the response body is JSON', exchange.json !== undefined, {
      actual: exchange.text.slice(0, 100),
      exchange,
    })
    return typed && parsed
  }

  /**
   * The 200 body matches the spec's response schema of its operation
   * (extra fields allowed, any id format, any RFC 3339 offset). Returns the
   * spec's view of the body (extra fields dropped), or undefined.
   */
  expectShape<Id extends OperationId>(
    exchange: Exchange,
    operationId: Id = exchange.operationId as Id,
  ): z.output<(typeof operations)[Id]['response']> | undefined {
    if (!this.expectJson(exchange)) return undefined
    const spec: OperationSpec = operations[operationId]
    const result = spec.response.safeParse(exchange.json)
    // The observer judged it already (response.shape) when it saw the exchange.
    if (this.#observed.has(exchange) && operationId === exchange.operationId)
      return result.success ? (result.data as z.output<(typeof operations)[Id]['response']>) : undefined
    if (!result.success) {
      const problems = result.error.issues
        .slice(0, 5)
        .map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`)
        .join('; ')
      this.check('MUST', endpoint(operationId), `the 200 body has the fields the spec requires, of the right types: ${problems}`, false, {
        exchange,
      })
      return undefined
    }
    this.checks += 1
    this.run.onCheck?.({
      scenario: this.scenario.id,
      level: 'MUST',
      clause: endpoint(operationId),
      message: 'a 200 body has the fields the spec requires, of the right types',
      ok: true,
    })
    return result.data as z.output<(typeof operations)[Id]['response']>
  }

  /** A 200 with a body the spec accepts; aborts the scenario otherwise. */
  expectOk<Id extends OperationId>(exchange: Exchange): z.output<(typeof operations)[Id]['response']> {
    if (!this.expectStatus(exchange, 200)) this.abort(`${exchange.operationId} did not answer 200`)
    const body = this.expectShape(exchange)
    if (body === undefined) this.abort(`${exchange.operationId} answered a body the spec does not allow`)
    return body as z.output<(typeof operations)[Id]['response']>
  }

  /**
   * An error response: the status, the error body `{error, hint?}` and the
   * `X-Service-Error-Code` header.
   */
  expectError(exchange: Exchange, status: number | readonly number[], clause?: string, level: Level = 'MUST'): boolean {
    const statusOk = this.expectStatus(exchange, status, clause, level)
    if (exchange.status < 400) return false
    const body = exchange.json as Record<string, unknown> | undefined
    if (this.#observed.has(exchange)) {
      // The observer judged the body and the code already (error.body, error.code).
      const code = exchange.headers['x-service-error-code']
      return statusOk && typeof body?.error === 'string' && typeof code === 'string' && code.trim() !== ''
    }
    const bodyOk = this.check(
      level,
      Clauses.errorBody,
      'an error response has the error body: {error: string, hint?: string}',
      typeof body === 'object' &&
        body !== null &&
        typeof body.error === 'string' &&
        (body.hint === undefined || typeof body.hint === 'string'),
      { actual: exchange.text.slice(0, 200), exchange },
    )
    const code = exchange.headers['x-service-error-code']
    const codeOk = this.check(
      level,
      Clauses.errors,
      'an error response carries X-Service-Error-Code',
      typeof code === 'string' && code.trim() !== '',
      {
        actual: code ?? '(absent)',
        exchange,
      },
    )
    return statusOk && bodyOk && codeOk
  }

  // ---------------------------------------------------------------- jobs

  /**
   * Polls a job with backoff (1 s, ×1.5, at most 15 s) until it is no
   * longer `processing`, checking every answer. A `Retry-After` on a job
   * status answer (seconds or an HTTP date, on the target's clock) sets the
   * next wait instead, bounded by what is left of the run's job timeout.
   * Gives up after the job timeout with a MUST failure. `onPoll` sees each
   * poll's exchange.
   */
  async waitForJob(
    actor: Actor,
    jobId: string,
    onPoll?: (exchange: Exchange) => void,
  ): Promise<z.output<(typeof operations)['getJobStatus']['response']> | undefined> {
    let interval = 1_000
    let waited = 0
    for (;;) {
      const exchange = await this.call(actor, 'getJobStatus', { params: { jobId } })
      onPoll?.(exchange)
      const job = this.expectOk<'getJobStatus'>(exchange)
      if (job.status !== 'processing') return job
      const left = this.run.jobTimeoutMs - waited
      if (left <= 0) {
        this.must(Clauses.jobStatus, `the job leaves processing within ${Math.round(this.run.jobTimeoutMs / 1000)} s`, false, {
          expected: 'completed or failed',
          actual: `still processing after ${Math.round(waited / 1000)} s`,
          exchange,
        })
        return undefined
      }
      const retryAfter = exchange.headers['retry-after']
      const asked = retryAfter === undefined ? undefined : retryAfterSeconds(retryAfter, await this.target.clock.now())
      const wait = Math.min(left, asked !== undefined && asked > 0 ? asked * 1000 : interval)
      this.run.onWait?.({ kind: 'job', ms: wait, scenario: this.scenario.id, jobId })
      await this.sleep(wait)
      waited += wait
      if (asked === undefined || asked <= 0) interval = Math.min(15_000, Math.round(interval * 1.5))
    }
  }
}

/** Whether the target meets a need. */
export function needMet(target: Target, need: Need): boolean {
  switch (need) {
    case 'writes':
      return target.allowWrites
    case 'generation':
      return target.allowGeneration && target.allowWrites
    case 'otherTeamKey':
      return target.keys.other !== undefined || target.control !== undefined
    case 'revokedKey':
      return target.keys.revoked !== undefined || target.control !== undefined
    case 'noCreditsKey':
      return target.keys.noCredits !== undefined || target.control !== undefined
    case 'collaboratorProject':
      return target.fixtures.collaboratorProject !== undefined || target.control !== undefined
    case 'teamProject':
      return target.fixtures.teamProject !== undefined || target.control !== undefined
    case 'controlPlane':
      return target.control !== undefined
    case 'emulator':
      return target.emulatorChecks
    case 'seededWorld':
      return target.seededWorld && target.emulatorChecks
    case 'reset':
      return target.allowReset && target.control !== undefined
  }
}

/** Why a need is not met, in words a person can act on. */
export function unmetReason(need: Need): string {
  switch (need) {
    case 'writes':
      return 'creates or changes projects: pass --allow-writes'
    case 'generation':
      return 'starts generation jobs and spends credits: pass --allow-generation (and --allow-writes)'
    case 'otherTeamKey':
      return 'needs a key of another user: pass --other-team-key'
    case 'revokedKey':
      return 'needs a revoked key: pass --revoked-key'
    case 'noCreditsKey':
      return 'needs a key whose team has no credits: pass --no-credits-key'
    case 'collaboratorProject':
      return 'needs a project shared with the main key’s user as a collaborator: pass --collaborator-project SLUG'
    case 'teamProject':
      return 'needs a project of another team the main key’s user belongs to: pass --team-project SLUG'
    case 'controlPlane':
      return 'needs the emulator control plane: pass --control-url'
    case 'emulator':
      return 'checks an emulator choice: runs only against the emulator'
    case 'seededWorld':
      return 'checks the emulator’s seeded fixtures: runs only against an emulator the kit started'
    case 'reset':
      return 'resets the emulator, which clears everyone’s state on it: pass --allow-reset (with --control-url)'
  }
}
