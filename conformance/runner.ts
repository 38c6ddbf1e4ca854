/**
 * The kit's own small runner. It runs in the caller's process, so
 * `runConformance({ fetch })` can take a live function (an in-process app),
 * which a test runner's worker pool could not receive; and it keeps vitest
 * out of a server implementer's install. It schedules scenarios in phases
 * (anything, then list walks while no job is in flight, then the rate-limit
 * burst alone), skips those whose needs are unmet with the reason, applies
 * a baseline, and builds the report.
 */
import { COMMON_ERROR_STATUSES, OPERATION_IDS, routes, VERSION } from '../src/client/index.js'
import type { Baseline } from './baseline.js'
import {
  AbortScenario,
  type CheckRecord,
  needMet,
  type Scenario,
  ScenarioContext,
  SkipScenario,
  unmetReason,
  type RunKey,
  type RunState,
  type RunWait,
} from './context.js'
import { scrubSecrets } from './curl.js'
import { Budget, BudgetExhausted } from './budget.js'
import { Pacer } from './pacer.js'
import { problemsOf } from './report/problems.js'
import { newRunId, RUN_ID, randomSeed, Rng } from './random.js'
import { SCENARIOS } from './scenarios/index.js'
import { ConfigurationError, resolveTarget, type Target, type TargetOptions } from './target.js'
import { EXIT, type ExitCode } from '../src/cli/exit-codes.js'
import { REPORT_FORMAT, type CoverageRow, type Need, type Report, type ScenarioResult, type Skip } from './types.js'

export interface ConformanceOptions extends TargetOptions {
  /** Seed of generated inputs (names, missing ids); printed, so a run can be replayed. */
  seed?: number
  /** The run's id, which starts every name it creates: fresh for every run unless given (a replay that must reuse names). */
  runId?: string
  /** Only scenarios whose id or title matches. */
  grep?: string | RegExp
  /** Only the `index`-th of `count` shards (1-based), for spreading a run over CI machines. */
  shard?: { index: number; count: number }
  /** Scenarios run at once. Default: 6 against a kit-owned emulator or a control plane, 3 otherwise. */
  concurrency?: number
  /** How long a generation job may stay processing. Default 10 minutes. */
  jobTimeoutMs?: number
  /** Expected failures (a baseline for a partial implementation). */
  expectedFailures?: Baseline
  /** The scenarios to run (default: all of the kit's). */
  scenarios?: readonly Scenario[]
  /**
   * A bound on the whole run (ms), from the start to the report: no scenario
   * starts after it, and a wait (a job, the rate limit) ends at it. The
   * report then says it was cut short (`cutShort`).
   */
  timeBudgetMs?: number
  /** The clock the budget is read on (default: wall time); a test passes a fake one. */
  budgetClock?: () => number
  /** Called as each wait (the rate limit, a job) starts, with its expected length: progress for a person watching. */
  onWait?: (wait: RunWait) => void
  /** Called as each scenario starts. */
  onScenarioStart?: (scenario: { id: string; title: string }) => void
  /** Called once the target is resolved, before any scenario runs. */
  onStart?: (info: { runId: string; seed: number; target: Report['target']; scenarios: number }) => void
  /** Called as each scenario ends. */
  onScenario?: (result: ScenarioResult) => void
  /**
   * Called once the run ends, with the keys the kit made through a control
   * plane (their values: for `--write-keys`, never for a report).
   */
  onKeys?: (keys: RunKey[]) => void
  /** Called for every check a scenario makes, passed or not (the clause list's test holds each item to one). */
  onCheck?: (check: CheckRecord) => void
}

export { ConfigurationError }

/** Which scenarios a grep and a shard select, in order. */
export function selectScenarios(
  scenarios: readonly Scenario[],
  grep?: string | RegExp,
  shard?: { index: number; count: number },
): Scenario[] {
  let pattern: RegExp | undefined
  try {
    pattern = grep === undefined ? undefined : typeof grep === 'string' ? new RegExp(grep, 'i') : grep
  } catch (error) {
    throw new ConfigurationError(`--grep is not a valid regular expression: ${(error as Error).message}`)
  }
  let selected = scenarios.filter((s) => pattern === undefined || pattern.test(s.id) || pattern.test(s.title))
  if (shard !== undefined) {
    if (
      !Number.isInteger(shard.count) ||
      shard.count < 1 ||
      !Number.isInteger(shard.index) ||
      shard.index < 1 ||
      shard.index > shard.count
    ) {
      throw new ConfigurationError(`--shard must be i/n with 1 ≤ i ≤ n, got ${shard.index}/${shard.count}`)
    }
    selected = selected.filter((_, i) => i % shard.count === shard.index - 1)
  }
  return selected
}

/**
 * One cheap authenticated request (GET /teams) per key the run will act
 * with, paced like every other: a key the target refuses is a configuration
 * error, not a run of failures blamed on the server. The revoked key is left
 * out: it is meant to be refused.
 */
async function preflight(target: Target, pacer: Pacer, onWait?: (wait: RunWait) => void): Promise<void> {
  const send = async (key: string) => {
    await pacer.acquire(key, (ms) => onWait?.({ kind: 'rate-limit', ms }))
    let response: Response
    try {
      response = (await target.client.raw({ operationId: 'listTeams', apiKey: key })).response
    } catch (error) {
      throw new ConfigurationError(`the target ${target.baseUrl} is unreachable: ${(error as Error).message}`)
    }
    await response.body?.cancel()
    const headers: Record<string, string> = {}
    response.headers.forEach((value, name) => {
      headers[name] = value
    })
    await pacer.observe(key, headers)
    return response.status
  }
  const main = target.keys.main
  if (main !== undefined) {
    const status = await send(main)
    if (status === 401) throw new ConfigurationError(`the target rejects the API key (GET /teams answered 401)`)
    if (status === 404) throw new ConfigurationError(`GET ${target.baseUrl}/teams answered 404: is the base URL right (it ends with /v1)?`)
  }
  const optional = [
    ['--other-team-key', 'CONFORMANCE_OTHER_TEAM_KEY', target.keys.other],
    ['--no-credits-key', 'CONFORMANCE_NO_CREDITS_KEY', target.keys.noCredits],
  ] as const
  for (const [flag, env, key] of optional) {
    if (key === undefined) continue
    if (key === main)
      throw new ConfigurationError(
        `${flag} is the same key as --api-key: it must be a key of ${flag === '--other-team-key' ? 'another user' : 'a team without credits'}`,
      )
    const status = await send(key)
    if (status === 401) throw new ConfigurationError(`the target rejects the key of ${flag} (or ${env}): GET /teams answered 401`)
  }
}

/**
 * Why unmet needs skip a scenario: emulator checks a target that is not our
 * emulator can never run, whatever flags it gets; nor can checks of the
 * seeded fixtures against an emulator the kit did not start; other needs,
 * flags can meet.
 */
export function skipOf(unmet: readonly Need[]): Skip {
  const kind = unmet.includes('emulator') ? 'emulator-only' : unmet.includes('seededWorld') ? 'kit-started-only' : 'needs'
  return { kind, needs: [...unmet] }
}

/** Whether no flag could make a skipped scenario run against this target (it is counted apart). */
export function noFlagRuns(skip: Skip | undefined): boolean {
  return skip?.kind === 'emulator-only' || skip?.kind === 'kit-started-only'
}

/** A budget in words: `90 s`, `2 min`. */
export function seconds(ms: number | undefined): string {
  if (ms === undefined) return 'none'
  return ms % 60_000 === 0 ? `${ms / 60_000} min` : `${Math.round(ms / 100) / 10} s`
}

/** Runs `tasks` with at most `limit` at once. */
async function pool<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  const workers = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
    while (next < items.length) await task(items[next++]!)
  })
  await Promise.all(workers)
}

async function runOne(
  run: RunState,
  scenario: Scenario,
  rng: Rng,
  exercisedBy: Map<string, Set<string>>,
  budget: Budget,
): Promise<ScenarioResult> {
  if (budget.expired)
    return {
      id: scenario.id,
      title: scenario.title,
      kind: scenario.kind,
      outcome: 'skip',
      reason: `not run: the time budget (${seconds(budget.ms)}) ran out before it started`,
      skip: { kind: 'cut-short' },
      durationMs: 0,
      checks: 0,
      failures: [],
      warnings: [],
      notes: [],
    }
  const started = performance.now()
  const ctx = new ScenarioContext(run, scenario, rng.fork(scenario.id))
  let outcome: ScenarioResult['outcome'] = 'pass'
  let reason: string | undefined
  let skip: Skip | undefined
  let cut = false
  try {
    await scenario.run(ctx)
  } catch (error) {
    if (error instanceof SkipScenario) {
      outcome = 'skip'
      reason = error.message
      skip = { kind: 'not-applicable' }
    } else if (error instanceof BudgetExhausted) {
      // Stopped midway: what it checked is kept; without a failure it says it did not finish.
      cut = true
      ctx.note(`cut short: the time budget (${seconds(budget.ms)}) ran out while it ran`)
    } else if (error instanceof AbortScenario) {
      if (ctx.failures.length === 0) ctx.must('Conformance kit', error.message, false)
      ctx.note(`stopped: ${error.message}`)
    } else {
      ctx.must('Conformance kit', `the scenario could not run: ${(error as Error)?.message ?? String(error)}`, false)
    }
  }
  try {
    await ctx.nameCreated()
  } catch (error) {
    ctx.note(`could not rename what the scenario created: ${(error as Error).message}`)
  }
  if (outcome !== 'skip' && ctx.failures.length > 0) outcome = 'fail'
  else if (cut && outcome === 'pass') {
    outcome = 'skip'
    reason = `cut short: the time budget (${seconds(budget.ms)}) ran out while it ran, after ${ctx.checks} checks`
    skip = { kind: 'cut-short' }
  }
  for (const pair of ctx.exercised) {
    const by = exercisedBy.get(pair) ?? new Set<string>()
    by.add(scenario.id)
    exercisedBy.set(pair, by)
  }
  return {
    id: scenario.id,
    title: scenario.title,
    kind: scenario.kind,
    outcome,
    ...(reason === undefined ? {} : { reason }),
    ...(skip === undefined ? {} : { skip }),
    durationMs: Math.round(performance.now() - started),
    checks: ctx.checks,
    failures: ctx.failures,
    warnings: ctx.warnings,
    notes: ctx.notes,
    ...(ctx.rateLimitWaitMs === 0 ? {} : { rateLimitWaitMs: Math.round(ctx.rateLimitWaitMs) }),
    ...(ctx.steps.length === 0 ? {} : { steps: ctx.steps }),
  }
}

/**
 * Every operation × documented status: exercised (answered, by which
 * scenarios: derived from the exchanges the run made), skipped (a scenario
 * that declares it in `covers` did not run), or not covered.
 */
function coverage(
  results: readonly ScenarioResult[],
  scenarios: readonly Scenario[],
  run: RunState,
  exercisedBy: Map<string, Set<string>>,
): CoverageRow[] {
  const rows: CoverageRow[] = []
  for (const operationId of OPERATION_IDS) {
    const route = routes[operationId] as (typeof routes)[typeof operationId] & { extension?: boolean }
    // The extension operations are the emulator's: they count only when it is the target.
    if (route.extension === true && !run.target.emulatorChecks) continue
    const statuses = [200, ...route.errors, ...COMMON_ERROR_STATUSES].sort((a, b) => a - b)
    for (const status of statuses) {
      const declaring = scenarios
        .filter((s) => (s.covers ?? []).some(([op, st]) => op === operationId && st === status))
        .map((s) => results.find((r) => r.id === s.id))
      if (run.exercised.has(`${operationId} ${status}`)) {
        const by = [...(exercisedBy.get(`${operationId} ${status}`) ?? [])]
        // A spec check that declares the pair and found it could not run is said even so (its rule went
        // unchecked); one skipped for a flag is in the report's list of what the flags left unrun already.
        const notRun = declaring
          .filter((r) => r?.outcome === 'skip' && r.kind === 'spec' && r.skip?.kind === 'not-applicable')
          .map((r) => `${r!.id}: ${r!.reason}`)
        rows.push({
          operationId,
          status,
          state: 'exercised',
          ...(by.length === 0 ? {} : { scenarios: by.sort() }),
          ...(notRun.length === 0 ? {} : { notRun }),
        })
        continue
      }
      const skipped = declaring.find((r) => r?.outcome === 'skip')
      rows.push(
        skipped === undefined
          ? { operationId, status, state: 'not-covered' }
          : { operationId, status, state: 'skipped', reason: `${skipped.id}: ${skipped.reason}` },
      )
    }
  }
  return rows
}

/**
 * Runs the conformance suite against a target and returns the report.
 * Throws `ConfigurationError` for a bad configuration (unreachable target,
 * a key the target rejects, bad shard).
 */
export async function runConformance(options: ConformanceOptions = {}): Promise<Report> {
  const seed = options.seed ?? randomSeed()
  const rng = new Rng(seed)
  const runId = options.runId ?? newRunId()
  if (!RUN_ID.test(runId)) throw new ConfigurationError(`--run-id must be 1 to 12 characters of a-z and 0-9, got ${runId}`)
  const started = Date.now()
  const candidates = selectScenarios(options.scenarios ?? SCENARIOS, options.grep, options.shard)
  const budget = new Budget(options.timeBudgetMs, options.budgetClock ?? Date.now)
  const target = await resolveTarget(options)
  target.clock = budget.bound(target.clock)
  try {
    const pacer = new Pacer(target.clock, target.pace)
    await preflight(target, pacer, options.onWait)
    const run: RunState = {
      target,
      pacer,
      runId,
      created: new Set(),
      exercised: new Set(),
      jobTimeoutMs: options.jobTimeoutMs ?? 600_000,
      shared: new Map(),
      requests: 0,
      keys: new Map(),
      jobs: new Set(),
      ...(options.onCheck === undefined ? {} : { onCheck: options.onCheck }),
      ...(options.onWait === undefined ? {} : { onWait: options.onWait }),
    }
    const targetInfo: Report['target'] = {
      kind: target.kind,
      baseUrl: target.baseUrl,
      emulator: target.emulatorChecks,
      controlPlane: target.control !== undefined,
    }
    options.onStart?.({ runId, seed, target: targetInfo, scenarios: candidates.length })

    const results = new Map<string, ScenarioResult>()
    const finish = (result: ScenarioResult) => {
      const listed = options.expectedFailures?.expectedFailures[result.id]
      if (listed !== undefined && result.outcome === 'fail') result.outcome = 'expected-fail'
      else if (listed !== undefined && result.outcome === 'pass') {
        result.outcome = 'stale'
        result.reason = 'listed as an expected failure, but it passes now: remove it from the baseline'
      }
      results.set(result.id, result)
      options.onScenario?.(result)
    }
    const runnable: Scenario[] = []
    for (const scenario of candidates) {
      const unmet = scenario.needs.filter((need) => !needMet(target, need))
      if (unmet.length === 0) runnable.push(scenario)
      else {
        finish({
          id: scenario.id,
          title: scenario.title,
          kind: scenario.kind,
          outcome: 'skip',
          reason: unmet.map(unmetReason).join('; '),
          skip: skipOf(unmet),
          durationMs: 0,
          checks: 0,
          failures: [],
          warnings: [],
          notes: [],
        })
      }
    }
    const isolated = target.isolated
    const concurrency = options.concurrency ?? (isolated ? 6 : 3)
    const phase = (s: Scenario) => s.phase ?? 'any'
    const exercisedBy = new Map<string, Set<string>>()
    const exec = (scenario: Scenario) => {
      if (!budget.expired) options.onScenarioStart?.({ id: scenario.id, title: scenario.title })
      return runOne(run, scenario, rng, exercisedBy, budget).then(finish)
    }
    if (isolated) {
      // Every scenario has accounts of its own: run all but the last ones together.
      await pool(
        runnable.filter((s) => phase(s) !== 'last'),
        concurrency,
        exec,
      )
    } else {
      await pool(
        runnable.filter((s) => phase(s) === 'any'),
        concurrency,
        exec,
      )
      // List walks while nothing else writes or generates on the account.
      await pool(
        runnable.filter((s) => phase(s) === 'quiet'),
        1,
        exec,
      )
    }
    await pool(
      runnable.filter((s) => phase(s) === 'last'),
      1,
      exec,
    )

    const ordered = candidates.map((s) => results.get(s.id)!)
    const count = (outcome: ScenarioResult['outcome']) => ordered.filter((r) => r.outcome === outcome).length
    const summary = {
      passed: count('pass'),
      failed: count('fail'),
      skipped: count('skip'),
      expectedFailures: count('expected-fail'),
      stale: count('stale'),
      warnings: ordered.reduce((n, r) => n + r.warnings.length, 0),
      total: ordered.length,
      emulatorOnly: ordered.filter((r) => r.outcome === 'skip' && noFlagRuns(r.skip)).length,
    }
    // Whether the flags left most of what could run here unrun (emulator-only checks do not count).
    const couldRun = summary.total - summary.emulatorOnly
    const skippedHere = summary.skipped - summary.emulatorOnly
    // No format may hold a key the run used or the admin token: every report is made from this one, scrubbed.
    const secrets = [...Object.values(target.keys), ...run.keys!.keys(), ...(options.adminToken === undefined ? [] : [options.adminToken])]
    options.onKeys?.([...run.keys!.values()].filter((k) => k.madeByKit))
    return scrubSecrets(
      {
        format: REPORT_FORMAT,
        runId,
        seed,
        target: targetInfo,
        startedAt: new Date(started).toISOString(),
        durationMs: Date.now() - started,
        summary,
        problems: problemsOf(ordered),
        scenarios: ordered,
        coverage: coverage(ordered, candidates, run, exercisedBy),
        createdProjects: [...run.created].sort(),
        mostlySkipped: couldRun > 0 && skippedHere * 2 > couldRun,
        ...(budget.cutShort
          ? {
              cutShort: {
                budgetMs: budget.ms!,
                stopped: ordered.filter((r) => r.notes.some((n) => n.startsWith('cut short:'))).map((r) => r.id),
                notRun: ordered.filter((r) => r.skip?.kind === 'cut-short' && r.reason?.startsWith('not run')).map((r) => r.id),
                leftBehind: { projects: [...run.created].sort(), jobs: [...run.jobs!].sort() },
              },
            }
          : {}),
      } satisfies Report,
      secrets.filter((k): k is string => k !== undefined),
    )
  } finally {
    await target.close()
  }
}

/** The exit code of a run (`EXIT`): 0 all passed, 1 a failure, a stale baseline entry or a run cut short by its budget, 2 nothing could run. */
export function exitCodeOf(report: Report): ExitCode {
  // A run its budget cut short did not check what it was asked to: it does not pass.
  if (report.cutShort !== undefined) return EXIT.findings
  if (report.summary.total === report.summary.skipped) return EXIT.usage
  return report.summary.failed + report.summary.stale > 0 ? EXIT.findings : EXIT.ok
}

export const KIT_VERSION = VERSION
