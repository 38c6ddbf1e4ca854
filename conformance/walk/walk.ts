/**
 * Model-based walks: sequences of operations against a target and an
 * in-process emulator side by side. Each side's answers are judged by its
 * own observer against the table of facts (what the spec requires, and what
 * that side's earlier answers taught it); the emulator, as the oracle,
 * predicts each step's status. Sequences are generated with fast-check
 * (`fc.commands`, `fc.asyncModelRun`), biased toward the motifs where
 * sequence defects hide (`steps.ts`); a divergence is shrunk by removing
 * steps, replaying against the target, down to the shortest sequence that
 * still diverges.
 */
import fc from 'fast-check'
import * as z from 'zod'
import { createClient, createControlClient, type ControlClient } from '../../src/client/index.js'
import { Clauses, endpoint } from '../clauses.js'
import { refOf } from '../reference.js'
import { SUMMARY_LIMITS, summarize, type SummaryLimits } from '../report/exchange.js'
import type { Actor } from '../actors.js'
import { type RunState, type RunWait, type Scenario, ScenarioContext } from '../context.js'
import { type Credential, curlCommand, keyCredential, NO_KEY } from '../curl.js'
import { Pacer } from '../pacer.js'
import { Budget, BudgetExhausted } from '../budget.js'
import { newRunId, RUN_ID, Rng, randomSeed } from '../random.js'
import { ConfigurationError, resolveTarget, type Target, type TargetOptions } from '../target.js'
import type { Exchange, ExchangeSummary } from '../types.js'
import { type Handle, type Observation, type Resolved, Side } from './sides.js'
import { describeStep, issuePath, motifSchedule, SLIDE_STEPS, sequenceArbitrary, type WalkStep, WalkStepSchema } from './steps.js'

export const WALK_FORMAT = 'presentation-conformance/walk@1'

/** Sequences a walk tries by default: each seeded sequence defect of the tests is found within them at any seed. */
export const DEFAULT_RUNS = 100
/** The longest sequence, in steps, by default. */
export const DEFAULT_STEPS = 30
/** Generations a whole walk may start against a target (all runs and the shrinking together). */
export const DEFAULT_MAX_GENERATIONS = 2
/** Replays the shrinking may spend. */
export const DEFAULT_SHRINK_REPLAYS = 300
/** The walk's default time budget: 5 minutes. */
export const DEFAULT_TIME_BUDGET_MS = 300_000

export interface WalkOptions extends TargetOptions {
  /** Sequences to try. Default 100. */
  runs?: number
  /** The longest sequence. Default 30. */
  steps?: number
  seed?: number
  /** The walk's run id (default: fresh for every walk). */
  runId?: string
  /**
   * A bound on the walk's time from its start to its exit (ms): no run starts
   * after it, a wait ends at it, shrinking stops at it. Default 5 minutes.
   */
  timeBudgetMs?: number
  /** The clock the budget is read on (default: wall time); a test passes a fake one. */
  budgetClock?: () => number
  /** Generations the whole walk may start (with `allowGeneration`). Default 2, however many runs. */
  maxGenerations?: number
  /** Replays the shrinking of a divergence may spend. Default 300. */
  shrinkReplays?: number
  /** Run these steps once (a saved counterexample) instead of random sequences. */
  replay?: WalkStep[]
  /** Called as each run starts, with how many have started. */
  onRun?: (started: number) => void
  /** Called as each wait on the target starts (the rate limit, a job), with its expected length: the CLI's progress lines. */
  onWait?: (wait: RunWait) => void
  /** Called once a divergence is found, before shrinking it (replays against the target, at most `shrinkReplays`). */
  onShrink?: (info: { foundAtRun: number; steps: number; replays: number }) => void
  /** Called once the target answered, before the first run: the walk's seed and run id (printed at the start). */
  onStart?: (info: { seed: number; runId: string }) => void
  /** Called after every step the walk runs (shrinking's replays included), with what held and what did not. */
  onStep?: (record: StepRecord) => void
}

/**
 * A request of a step and its response, as the report shows it, with what a
 * replay script needs: whose key sent it, and the values the response gave
 * that later requests may use (by where they are in the body: `projectSlug`,
 * `jobId`, `nextCursor`, `slides.0.id`).
 */
export interface WalkExchange extends ExchangeSummary {
  key: 'main' | 'other' | 'none'
  yields: Record<string, string>
}

/** The values of a response later requests may put in their path or cursor. */
function yieldsOf(json: unknown): Record<string, string> {
  const out: Record<string, string> = {}
  if (typeof json !== 'object' || json === null) return out
  const body = json as Record<string, unknown>
  for (const name of ['projectSlug', 'jobId', 'nextCursor', 'slideId']) if (typeof body[name] === 'string') out[name] = body[name]
  if (Array.isArray(body.slides))
    body.slides.forEach((slide, i) => {
      if (typeof slide?.id === 'string') out[`slides.${i}.id`] = slide.id
    })
  return out
}

/** Where a step's answer departs from what the spec requires. */
export interface Divergence {
  /** `status`, or the id of the fact (the table of facts) that did not hold. */
  fact: string
  /** The heading that requires it. */
  clause: string
  /** The section of the shipped reference that states it (`reference/api.md#<anchor>`). */
  ref: string
  statement: string
  /** What the fact was about (a project, a config key, a slide file). */
  subject?: string
  target: unknown
  predicted: unknown
}

/** One step as the report shows it: what was sent, what came back, what held, what the oracle predicted. */
export interface StepRecord {
  index: number
  step: WalkStep
  description: string
  target: {
    status: unknown
    /** The facts that held at this step (ids of the table of facts, each once). */
    held: string[]
    exchanges: WalkExchange[]
    curls: string[]
  }
  predicted: { status: unknown }
  divergence?: Divergence
  /** What the walk could not check at this step, and why (the oracle did not run, a list too long to walk). */
  note?: string
}

export interface WalkResult {
  format: typeof WALK_FORMAT
  seed: number
  runId: string
  target: { kind: Target['kind']; baseUrl: string; controlPlane: boolean }
  requested: { runs: number; steps: number }
  /** Runs started (fewer than requested when a divergence was found or the time budget ran out). */
  runs: number
  stepsRun: number
  interrupted: boolean
  durationMs: number
  /** Requests sent to the target's API (runs and shrinking; not the control plane's). */
  requests: number
  /** Generations started on the target, and the walk's cap (each may spend the target's credits). */
  generations: { started: number; cap: number }
  /**
   * The shortest sequence found that diverges, step by step (the first step,
   * the project every run starts with, included), and the steps to replay it
   * (that first step left out: every run makes it). `foundAtRun` is the run
   * that found it; `from` how many steps it had before shrinking, in how many
   * replays.
   */
  counterexample?: {
    steps: StepRecord[]
    replay: WalkStep[]
    path: string | undefined
    foundAtRun?: number
    shrunk?: { from: number; replays: number }
  }
  /**
   * What the walk could not check, and at how many steps (counting the
   * replays of shrinking): the oracle did not run a step the target could not
   * do, a list was too long to walk to its end.
   */
  unchecked: Record<string, number>
  createdProjects: string[]
}

class DivergenceFound extends Error {
  constructor(readonly record: StepRecord) {
    super(`step ${record.index + 1} (${record.description}) diverges on ${record.divergence!.fact}`)
  }
}

/** The first fact both sides state differently; the status first. */
export function firstDivergence(
  target: Record<string, unknown>,
  oracle: Record<string, unknown>,
): { fact: string; target: unknown; predicted: unknown } | undefined {
  const keys = ['status', ...Object.keys(oracle).filter((k) => k !== 'status')]
  for (const key of keys) {
    if (!(key in target) || !(key in oracle)) continue
    if (JSON.stringify(target[key]) !== JSON.stringify(oracle[key])) return { fact: key, target: target[key], predicted: oracle[key] }
  }
  return undefined
}

/**
 * Where the target's answer to a step departs from the spec: a status the
 * oracle does not predict, or a fact of the table that did not hold on the
 * target (unless it did not hold on the oracle either: then the emulator
 * shares the flaw, and the target is not blamed for it).
 */
function divergenceOf(target: Observation, oracle: Observation | undefined): Divergence | undefined {
  if (oracle !== undefined) {
    const status = firstDivergence({ status: target.status }, { status: oracle.status })
    const operationId = target.exchanges.at(-1)?.operationId
    if (status !== undefined)
      return {
        ...status,
        clause: operationId === undefined ? Clauses.errors : endpoint(operationId),
        ref: refOf(operationId === undefined ? Clauses.errors : endpoint(operationId)),
        statement: 'the step is answered with the status the spec requires (the emulator’s, as the oracle)',
      }
  }
  const sharedFlaws = new Set(oracle?.verdicts.filter((v) => !v.holds).map((v) => v.fact.id))
  const broken = target.verdicts.find((v) => !v.holds && v.fact.level === 'MUST' && !sharedFlaws.has(v.fact.id))
  if (broken === undefined) return undefined
  return {
    fact: broken.fact.id,
    clause: broken.clause,
    ref: refOf(broken.clause),
    statement: broken.fact.statement,
    ...(broken.miss?.subject === undefined ? {} : { subject: broken.miss.subject }),
    target: broken.miss?.actual,
    predicted: broken.miss?.expected,
  }
}

const WALK_SCENARIO: Scenario = { id: 'walk', title: 'walk', kind: 'spec', needs: [], covers: [], run: async () => undefined }

/** One run's two sides, the projects' relations, and what it did. */
interface Run {
  target: Side
  oracle: Side
  log: StepRecord[]
  /** For each handle: its source (when a duplicate) and its duplicates. */
  relations: Array<{ source: number | undefined; copies: number[] }>
  /** The handle the last step acted on or made. */
  focus: number | undefined
  /** The steps that ran (the start left out), with the handle each acted on and the one it made. */
  ran: RanStep[]
  /** Steps this run may take beyond the longest sequence: its scheduled motif's, which add to the random part, never displace it. */
  extra?: number
}

/** A step as it ran: the handle it acted on, the handle it made (indices into the run's projects). */
export interface RanStep {
  step: WalkStep
  at: number | undefined
  made: number | undefined
}

/**
 * How a walk's report and curls name each key: the script and the curls
 * read the main key and another team's from their variables, whichever
 * account the walk made.
 */
const CREDENTIALS: Record<WalkExchange['key'], Credential> = {
  main: keyCredential('main'),
  other: keyCredential('otherTeam'),
  none: NO_KEY,
}

/** A step's request bodies are kept whole: the curl script sends them again. */
const WALK_LIMITS: SummaryLimits = { ...SUMMARY_LIMITS, requestBody: Number.POSITIVE_INFINITY }

function keyOf(side: Side, exchange: Exchange): WalkExchange['key'] {
  const authorization = Object.entries(exchange.request.headers).find(([name]) => name.toLowerCase() === 'authorization')?.[1]
  if (authorization === undefined) return 'none'
  return side.other !== undefined && authorization === `Bearer ${side.other.key}` ? 'other' : 'main'
}

/** Resolves a step's project against the run, or undefined when it cannot run now. */
function resolve(step: WalkStep, run: Run): Resolved | undefined {
  if (!('p' in step)) return { step, at: undefined }
  const handles = run.target.handles
  if (handles.length === 0) return undefined
  const slides = SLIDE_STEPS.has(step.op)
  let at: number
  if (typeof step.p === 'number') at = step.p % handles.length
  else if (step.p === 'last') at = handles.length - 1
  else {
    const focus = run.focus ?? handles.length - 1
    const related = run.relations[focus]!
    at = step.p === 'prev' ? focus : (related.copies.at(-1) ?? related.source ?? focus)
  }
  if (slides && !handles[at]!.hasSlides) return undefined
  return { step, at }
}

/** The walk's settings, checked: a bad one is a configuration error before anything is sent. */
interface WalkSettings {
  seed: number
  runs: number
  maxSteps: number
  maxGenerations: number
}

function settingsOf(options: WalkOptions): WalkSettings {
  const seed = options.seed ?? randomSeed()
  const runs = options.runs ?? DEFAULT_RUNS
  const maxSteps = options.steps ?? DEFAULT_STEPS
  const maxGenerations = options.maxGenerations ?? DEFAULT_MAX_GENERATIONS
  if (!Number.isInteger(runs) || runs < 1) throw new ConfigurationError('--runs must be a whole number ≥ 1')
  if (!Number.isInteger(maxSteps) || maxSteps < 1) throw new ConfigurationError('--steps must be a whole number ≥ 1')
  if (!Number.isInteger(maxGenerations) || maxGenerations < 0) throw new ConfigurationError('--max-generations must be a whole number ≥ 0')
  if (options.replay !== undefined) {
    const checked = z.array(WalkStepSchema).safeParse(options.replay)
    if (!checked.success) {
      const issue = checked.error.issues[0]!
      throw new ConfigurationError(`the steps to replay are not walk steps: step${issuePath(issue.path)}: ${issue.message}`)
    }
  }
  return { seed, runs, maxSteps, maxGenerations }
}

/** The in-process emulator a walk holds the target to, as a target of its own (manual clock, no rate limit). */
async function startOracle(): Promise<Target> {
  const { createEmulator } = await import('../../src/index.js')
  const emulator = createEmulator({ clock: 'manual', rateLimit: 0 })
  const control: ControlClient = createControlClient({ url: 'http://127.0.0.1:4010', fetch: emulator.fetch })
  return {
    kind: 'in-process',
    baseUrl: 'http://127.0.0.1:4010/v1',
    client: createClient({ baseUrl: 'http://127.0.0.1:4010/v1', fetch: emulator.fetch }),
    keys: {},
    fixtures: {},
    fetch: emulator.fetch,
    allowReset: false,
    control,
    emulatorChecks: true,
    seededWorld: false,
    allowWrites: true,
    allowGeneration: true,
    isolated: true,
    pace: false,
    clock: {
      now: async () => Date.parse((await control.clock()).now),
      sleep: async (ms) => void (ms > 0 && (await control.advanceClock({ ms: Math.ceil(ms) }))),
    },
    close: async () => emulator.close(),
  }
}

/** A target the walk cannot use is a configuration error: one it cannot reach, whose key it refuses, or without writes. */
async function preflight(target: Target): Promise<void> {
  if (target.keys.main !== undefined) {
    const status = (
      await target.client.raw({ operationId: 'listTeams', apiKey: target.keys.main }).catch((error: Error) => {
        throw new ConfigurationError(`the target ${target.baseUrl} is unreachable: ${error.message}`)
      })
    ).response.status
    if (status === 401) throw new ConfigurationError('the target rejects the API key (GET /teams answered 401)')
  }
  if (!target.allowWrites) throw new ConfigurationError('a walk creates the projects it walks: pass --allow-writes')
}

/** State shared by a run's scenario contexts (the walk's own, no observer: each side's judges). */
function runState(target: Target, runId: string, onWait?: (wait: RunWait) => void): RunState {
  return {
    ...(onWait === undefined ? {} : { onWait }),
    target,
    pacer: new Pacer(target.clock, target.pace),
    runId,
    created: new Set(),
    exercised: new Set(),
    jobTimeoutMs: 600_000,
    shared: new Map(),
    requests: 0,
  }
}

/**
 * One walk against a target and the oracle: it starts runs, runs steps on
 * both sides, searches random sequences, shrinks a divergence and says what
 * it found. `runWalk` drives it, step by named step.
 */
class Walk {
  readonly #targetState: RunState
  readonly #targetCtx: ScenarioContext
  readonly #oracleCtx: ScenarioContext
  /** A project with slides to copy, per key: the requests that make it are the first copy step's. */
  readonly #sources = new Map<string, Promise<string | undefined>>()
  readonly #unchecked = new Map<string, number>()
  readonly #generations: WalkResult['generations']
  readonly #extensions: boolean
  runsStarted = 0
  stepsRun = 0
  /** The walk's time budget (set by `runWalk`; none until then). */
  budget = new Budget(undefined)

  constructor(
    readonly started: number,
    readonly options: WalkOptions,
    readonly settings: WalkSettings,
    readonly runId: string,
    rng: Rng,
    readonly target: Target,
    oracle: Target,
  ) {
    this.#targetState = runState(target, runId, options.onWait)
    // Each side's observer judges the walk's exchanges (sides.ts), not the context's.
    this.#targetCtx = new ScenarioContext(this.#targetState, WALK_SCENARIO, rng.fork('target'), { observe: false })
    this.#oracleCtx = new ScenarioContext(runState(oracle, runId), WALK_SCENARIO, rng.fork('oracle'), { observe: false })
    this.#generations = { started: 0, cap: target.allowGeneration ? settings.maxGenerations : 0 }
    this.#extensions = target.control !== undefined && target.emulatorChecks
  }

  /**
   * A project with slides to copy (the spec shows no way to make slides):
   * found once per key on a deployment; made through the create-slide
   * extension when the target is our emulator. The requests that make it
   * are the first copy step's (its report and curl script show them).
   */
  #findSource(actor: Actor) {
    const ctx = this.#targetCtx
    return (exchanges: Exchange[]) => {
      let source = this.#sources.get(actor.key)
      if (source === undefined) {
        source = (async () => {
          if (this.target.control !== undefined) {
            const made = await ctx.send(actor, { operationId: 'createProject', body: { name: ctx.name('slides source') } })
            exchanges.push(made)
            const slug = (made.json as { projectSlug?: string })?.projectSlug
            if (made.status !== 200 || slug === undefined) return undefined
            ctx.created(slug)
            for (const name of ['Cover', 'Agenda', 'Numbers'])
              exchanges.push(await ctx.send(actor, { operationId: 'createSlide', params: { slug }, body: { name } }))
            return slug
          }
          const list = await ctx.send(actor, { operationId: 'listProjects', query: { limit: 20 } })
          for (const item of (list.json as { projects?: Array<{ slug: string }> })?.projects ?? []) {
            const slides = await ctx.send(actor, { operationId: 'listSlides', params: { slug: item.slug } })
            if (slides.status === 200 && ((slides.json as { slides?: unknown[] }).slides?.length ?? 0) > 0) return item.slug
          }
          return undefined
        })()
        this.#sources.set(actor.key, source)
      }
      return source
    }
  }

  /** Runs a step on both sides, compares, keeps the sides' projects aligned. */
  async execute(run: Run, resolved: Resolved): Promise<StepRecord> {
    const index = run.log.length
    const { step, at } = resolved
    const onTarget = await run.target.run(resolved)
    const onOracle = onTarget.unmatched === undefined ? await run.oracle.run(resolved, onTarget.mirror) : undefined
    if (step.op === 'generate' && onTarget.exchanges[0]?.status === 200) this.#generations.started += 1
    const divergence = divergenceOf(onTarget, onOracle)
    let made: number | undefined
    if (divergence === undefined && onTarget.made !== undefined && onOracle?.made !== undefined) {
      run.target.handles.push(onTarget.made)
      run.oracle.handles.push(onOracle.made)
      run.relations.push({ source: step.op === 'duplicate' ? at : undefined, copies: [] })
      if (step.op === 'duplicate' && at !== undefined) run.relations[at]!.copies.push(run.target.handles.length - 1)
      run.focus = run.target.handles.length - 1
      made = run.focus
    } else if (at !== undefined) run.focus = at
    const held = [...new Set(onTarget.verdicts.filter((v) => v.holds).map((v) => v.fact.id))]
    const note = onTarget.unmatched !== undefined ? `${onTarget.unmatched}: the oracle did not run this step` : onTarget.note
    const record: StepRecord = {
      index,
      step,
      description: describeStep(step),
      target: {
        status: onTarget.status,
        held,
        exchanges: onTarget.exchanges.map((e) => {
          const key = keyOf(run.target, e)
          return { ...summarize({ ...e, credential: CREDENTIALS[key] }, WALK_LIMITS), key, yields: yieldsOf(e.json) }
        }),
        // Each curl reads the key of the side that sent it: another team's reads from its own variable.
        curls: onTarget.exchanges.map((e) => curlCommand(e.request, CREDENTIALS[keyOf(run.target, e)])),
      },
      predicted: { status: onOracle === undefined ? onTarget.status : onOracle.status },
      ...(divergence === undefined ? {} : { divergence }),
      ...(note === undefined ? {} : { note }),
    }
    if (note !== undefined) this.#unchecked.set(note, (this.#unchecked.get(note) ?? 0) + 1)
    run.log.push(record)
    this.options.onStep?.(record)
    if (index > 0) run.ran.push({ step, at, made })
    return record
  }

  /** Whether a step can run now: a project to act on, a generation left. */
  ready(step: WalkStep, run: Run): Resolved | undefined {
    if (step.op === 'generate' && this.#generations.started >= this.#generations.cap) return undefined
    return resolve(step, run)
  }

  /** Starts a run: each side's keys, and the project every run starts with, so the first steps have one to work on. */
  async setup(): Promise<Run> {
    const target = this.target
    const targetActor: Actor =
      target.control === undefined ? { key: target.keys.main!, label: 'main key' } : await this.#targetCtx.freshAccount('walk', 5)
    const targetOther: Actor | undefined =
      target.keys.other !== undefined
        ? { key: target.keys.other, label: 'other' }
        : target.control !== undefined
          ? await this.#targetCtx.freshAccount('walk other')
          : undefined
    // The oracle never runs out of credits: a target that does is not held to the oracle's count.
    const oracleActor = await this.#oracleCtx.freshAccount('walk', 1_000_000)
    const oracleOther = await this.#oracleCtx.freshAccount('walk other')
    const run: Run = {
      target: new Side('target', this.#targetCtx, targetActor, targetOther, this.#findSource(targetActor), this.#extensions),
      oracle: new Side('oracle', this.#oracleCtx, oracleActor, oracleOther, async () => undefined, true),
      log: [],
      relations: [],
      focus: undefined,
      ran: [],
    }
    await this.execute(run, { step: { op: 'create', name: 'Walk start' }, at: undefined })
    return run
  }

  /**
   * Runs `steps` on `run` as far as they can run (a step with nothing to act
   * on is passed over), until the first divergence or the longest sequence;
   * `onStep` sees each record as it is made. Answers the diverging record.
   */
  async runSequence(run: Run, steps: readonly WalkStep[], onStep?: (record: StepRecord) => void): Promise<StepRecord | undefined> {
    for (const step of steps) {
      if (run.log.length > this.settings.maxSteps + (run.extra ?? 0)) return undefined
      const resolved = this.ready(step, run)
      if (resolved === undefined) continue
      const record = await this.execute(run, resolved)
      onStep?.(record)
      if (record.divergence !== undefined) return record
    }
    return undefined
  }

  /** Runs `steps` once on a new run, as a generated run would, until the first divergence. */
  async replay(steps: readonly WalkStep[]): Promise<Run> {
    const run = await this.setup()
    if (!diverged(run)) await this.runSequence(run, steps)
    return run
  }

  /**
   * Random sequences with fast-check (its commands, each a sequence of our
   * steps), until a divergence, the runs or the time budget end. Answers
   * fast-check's details, and the steps that ran up to the divergence.
   */
  async search(): Promise<SearchOutcome> {
    let failing: RanStep[] | undefined
    const walk = this
    class SequenceCommand implements fc.AsyncCommand<object, Run> {
      constructor(
        readonly steps: WalkStep[],
        /** A scheduled motif: its steps come on top of the run's longest sequence. */
        readonly scheduled = false,
      ) {}
      check(): boolean {
        return true
      }
      async run(_: object, run: Run): Promise<void> {
        if (this.scheduled) run.extra = this.steps.length
        // Out of time: the rest of this run's sequences are not started (the walk reports it was cut short).
        if (walk.budget.expired) return
        const found = await walk.runSequence(run, this.steps, () => {
          walk.stepsRun += 1
        })
        if (found !== undefined) {
          failing = [...run.ran]
          throw new DivergenceFound(found)
        }
      }
      toString(): string {
        return this.steps.map(describeStep).join(' → ')
      }
    }
    const target = this.target
    const allowance = {
      writes: true,
      generation: target.allowGeneration && this.settings.maxGenerations > 0,
      otherTeamKey: target.keys.other !== undefined || target.control !== undefined,
    }
    // Every motif once, first thing in the first runs (one each): found by the walk's length, not the seed's luck.
    const schedule = motifSchedule(allowance, this.settings.seed)
    const property = fc.asyncProperty(
      fc.commands([sequenceArbitrary(allowance).map((steps) => new SequenceCommand(steps))], {
        maxCommands: Math.max(1, Math.ceil(this.settings.maxSteps / 2)),
        size: 'max',
      }),
      async (commands) => {
        // A run the budget leaves no time for is not started; one the budget ends midway stops there.
        if (this.budget.expired) return
        const scheduled = schedule[this.runsStarted]
        const sequence = scheduled === undefined ? commands : [new SequenceCommand(scheduled.steps, true), ...commands]
        try {
          await this.#modelRun(sequence, () => {
            failing = []
          })
        } catch (error) {
          if (!(error instanceof BudgetExhausted)) throw error
        }
      },
    )
    // Shrinking is ours (`shrinkFound`): fast-check's would replay hundreds of sequences, each costing requests.
    const details = await fc.check(property, {
      seed: this.settings.seed,
      numRuns: this.settings.runs,
      endOnFailure: true,
      interruptAfterTimeLimit: this.options.timeBudgetMs ?? DEFAULT_TIME_BUDGET_MS,
      markInterruptAsFailure: false,
    })
    return {
      failed: details.failed,
      interrupted: details.interrupted || this.budget.cutShort,
      path: details.counterexamplePath ?? undefined,
      error: details.errorInstance,
      failing,
    }
  }

  /** One generated run: a fresh start, then fast-check's commands on it. */
  async #modelRun(commands: Iterable<fc.AsyncCommand<object, Run>>, onStartDiverged: () => void): Promise<void> {
    await fc.asyncModelRun(async () => {
      this.runsStarted += 1
      this.options.onRun?.(this.runsStarted)
      const run = await this.setup()
      if (diverged(run)) {
        onStartDiverged()
        throw new DivergenceFound(run.log[0]!)
      }
      return { model: {}, real: run }
    }, commands)
  }

  /** Shrinks the diverging steps a search found, and replays the shortest once more for the report. */
  async shrinkFound(failing: RanStep[], found: SearchOutcome): Promise<NonNullable<WalkResult['counterexample']>> {
    const foundAtRun = this.runsStarted
    const from = failing.length + 1
    this.options.onShrink?.({ foundAtRun, steps: from, replays: this.options.shrinkReplays ?? DEFAULT_SHRINK_REPLAYS })
    const { steps, replays } = await shrink(
      failing,
      async (candidate) => {
        // Out of time: no more replays; the shortest found so far is the counterexample.
        if (this.budget.expired) return undefined
        try {
          const run = await this.replay(candidate)
          return diverged(run) ? run.ran : undefined
        } catch (error) {
          if (error instanceof BudgetExhausted) return undefined
          throw error
        }
      },
      this.options.shrinkReplays ?? DEFAULT_SHRINK_REPLAYS,
    )
    const final = await this.replay(steps)
    const counterexample = {
      steps: final.log,
      replay: final.ran.map((r) => r.step),
      path: found.path,
      foundAtRun,
      shrunk: { from, replays },
    }
    if (!diverged(final)) {
      // It diverged while shrinking but not on a replay: say so, with the error fast-check saw.
      counterexample.steps.push({
        index: final.log.length,
        step: steps.at(-1) ?? { op: 'teams' },
        description: `not reproduced on replay: ${String((found.error as Error | undefined)?.message ?? 'unknown')}`,
        target: { status: undefined, held: [], exchanges: [], curls: [] },
        predicted: { status: undefined },
      })
    }
    return counterexample
  }

  /** The walk's result, from what it ran. */
  report(fields: Pick<WalkResult, 'runs' | 'stepsRun' | 'interrupted'> & Pick<Partial<WalkResult>, 'counterexample'>): WalkResult {
    const { options, settings, target } = this
    return {
      format: WALK_FORMAT,
      seed: settings.seed,
      runId: this.runId,
      target: { kind: target.kind, baseUrl: target.baseUrl, controlPlane: target.control !== undefined },
      requested: { runs: options.replay === undefined ? settings.runs : 1, steps: options.replay?.length ?? settings.maxSteps },
      ...fields,
      durationMs: Date.now() - this.started,
      requests: this.#targetState.requests,
      generations: this.#generations,
      unchecked: Object.fromEntries(this.#unchecked),
      createdProjects: [...this.#targetState.created].sort(),
    }
  }
}

/** What a search of random sequences ended with: fast-check's verdict, and the steps up to a divergence. */
interface SearchOutcome {
  failed: boolean
  interrupted: boolean
  /** fast-check's path to the failing run, to name in the report. */
  path: string | undefined
  /** What fast-check caught: a divergence, or an error of the walk itself. */
  error: unknown
  /** The steps that ran up to the divergence (the start left out), when one was found. */
  failing: RanStep[] | undefined
}

const diverged = (run: Run) => run.log.some((r) => r.divergence !== undefined)

/**
 * Walks a target against the emulator. Resolves with the result (with a
 * shrunk counterexample when a divergence was found); throws
 * `ConfigurationError` for a bad configuration.
 */
export async function runWalk(options: WalkOptions = {}): Promise<WalkResult> {
  const started = Date.now()
  const settings = settingsOf(options)
  const rng = new Rng(settings.seed)
  // Fresh per walk, seed or not: the seed fixes the sequences, not the names (two walks never collide).
  const runId = options.runId ?? newRunId()
  if (!RUN_ID.test(runId)) throw new ConfigurationError(`--run-id must be 1 to 12 characters of a-z and 0-9, got ${runId}`)
  // An emulator the kit starts for the walk has no rate limit: the walk is about sequences, not pacing.
  // The budget bounds the walk from here to its exit: every wait on the target's clock ends at its deadline.
  const budget = new Budget(options.timeBudgetMs ?? DEFAULT_TIME_BUDGET_MS, options.budgetClock ?? Date.now)
  const target = await resolveTarget({ ownRateLimit: 0, ...options })
  target.clock = budget.bound(target.clock)
  const oracle = await startOracle()
  try {
    await preflight(target)
    options.onStart?.({ seed: settings.seed, runId })
    const walk = new Walk(started, options, settings, runId, rng, target, oracle)
    walk.budget = budget
    if (options.replay !== undefined) {
      const run = await walk.replay(options.replay)
      return walk.report({
        runs: 1,
        stepsRun: run.log.length,
        interrupted: false,
        ...(diverged(run) ? { counterexample: { steps: run.log, replay: options.replay, path: undefined } } : {}),
      })
    }
    const found = await walk.search()
    // A budget that ran out before any divergence is an interrupted walk, not a crash (issue 36): fast-check
    // reports a check interrupted before its first run ended as failed, with no counterexample.
    const cut = budget.cutShort || found.interrupted || found.error instanceof BudgetExhausted
    if (found.failed && found.failing === undefined && !cut)
      throw (found.error as Error | undefined) ?? new Error('the walk failed without a counterexample')
    if (cut) found.interrupted = true
    if (found.failing === undefined) found.failed = false
    const counterexample = found.failing === undefined || !found.failed ? undefined : await walk.shrinkFound(found.failing, found)
    return walk.report({
      runs: walk.runsStarted,
      stepsRun: walk.stepsRun,
      interrupted: found.interrupted,
      ...(counterexample === undefined ? {} : { counterexample }),
    })
  } finally {
    await target.close()
    await oracle.close()
  }
}

/**
 * The steps of `ran` with each project pinned to the one it acted on in the
 * run (an index among the projects the kept steps make, the start's first),
 * or undefined when a kept step acts on a project a removed step made.
 */
export function pinned(ran: readonly RanStep[]): WalkStep[] | undefined {
  const index = new Map<number, number>([[0, 0]])
  let made = 1
  const steps: WalkStep[] = []
  for (const item of ran) {
    let step = item.step
    if (item.at !== undefined) {
      const at = index.get(item.at)
      if (at === undefined) return undefined
      step = { ...step, p: at } as WalkStep
    }
    if (item.made !== undefined) index.set(item.made, made++)
    steps.push(step)
  }
  return steps
}

/**
 * Shrinks a diverging sequence: removes steps while it still diverges (any
 * divergence), chunks first, halving down to single steps (ddmin); then
 * points every step on one project at an earlier one, or a single step,
 * where that still diverges (a copy's source instead of the copy), which may
 * let more steps go; until none of these helps. Every kept step stays on the project it acted on in the failing run
 * (`pinned`), so removing a step never changes what another one does.
 * `diverges` replays a candidate once and answers the steps as they ran up to
 * the divergence, or undefined. Bounded by `budget` replays.
 */
export async function shrink(
  ran: RanStep[],
  diverges: (candidate: WalkStep[]) => Promise<RanStep[] | undefined>,
  budget: number,
): Promise<{ steps: WalkStep[]; replays: number }> {
  let current = ran
  let replays = 0
  const attempt = async (candidate: WalkStep[] | undefined): Promise<boolean> => {
    if (candidate === undefined || replays >= budget) return false
    replays += 1
    const again = await diverges(candidate)
    if (again === undefined) return false
    current = again
    return true
  }
  for (let progress = true; progress && replays < budget; ) {
    progress = false
    // Removal, by chunks then single steps.
    let chunks = 2
    while (current.length > 0 && replays < budget) {
      const size = Math.ceil(current.length / chunks)
      let reduced = false
      for (let start = 0; start < current.length && !reduced && replays < budget; start += size)
        reduced = await attempt(pinned([...current.slice(0, start), ...current.slice(start + size)]))
      if (reduced) {
        progress = true
        chunks = Math.max(2, chunks - 1)
      } else if (size <= 1) break
      else chunks = Math.min(current.length, chunks * 2)
    }
    if (progress) continue
    // Re-pointing: every step on one project moved to an earlier one (the step that made it may then go), then
    // one step at a time.
    const steps = pinned(current)
    if (steps === undefined) break
    const on = (step: WalkStep) => ('p' in step && typeof step.p === 'number' ? step.p : undefined)
    const moved = (change: (step: WalkStep, j: number) => number | undefined) =>
      steps.map((step, j) => {
        const to = change(step, j)
        return to === undefined ? step : ({ ...step, p: to } as WalkStep)
      })
    const projects = [...new Set(steps.map(on).filter((p): p is number => p !== undefined && p > 0))]
    repoint: for (const project of projects) {
      for (let earlier = 0; earlier < project; earlier++) {
        if (await attempt(moved((step) => (on(step) === project ? earlier : undefined)))) {
          progress = true
          break repoint
        }
      }
    }
    if (progress) continue
    single: for (const [i, step] of steps.entries()) {
      const at = on(step)
      for (let earlier = 0; at !== undefined && earlier < at; earlier++) {
        if (await attempt(moved((_, j) => (j === i ? earlier : undefined)))) {
          progress = true
          break single
        }
      }
    }
  }
  return { steps: pinned(current) ?? current.map((r) => r.step), replays }
}

export type { Handle }
