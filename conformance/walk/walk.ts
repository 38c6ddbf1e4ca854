/**
 * Model-based walks: random sequences of operations against a target and an
 * in-process emulator side by side, compared on what the spec requires, with
 * the emulator as the oracle. Built on fast-check's model-based testing
 * (`fc.commands` with `fc.asyncModelRun`): a divergence is shrunk to the
 * shortest sequence that still diverges, replaying against the target.
 */
import fc from 'fast-check'
import * as z from 'zod'
import { ScenarioContext, summarize, type Actor, type RunState, type SummaryLimits } from '../context.js'
import { Pacer } from '../pacer.js'
import { randomSeed, Rng } from '../random.js'
import { ConfigurationError, ownEmulator, resolveTarget, type Target, type TargetOptions } from '../target.js'
import type { Exchange, ExchangeSummary, Scenario } from '../types.js'
import { curlCommand, keyCredential, NO_KEY } from '../curl.js'
import { applicable, Side, type Observation } from './sides.js'
import { describeStep, issuePath, stepArbitraries, WalkStepSchema, type WalkStep } from './steps.js'

export const WALK_FORMAT = 'presentation-conformance/walk@1'

export interface WalkOptions extends TargetOptions {
  /** Sequences to try. Default 100. */
  runs?: number
  /** The longest sequence. Default 30. */
  steps?: number
  seed?: number
  /** Stop starting new runs after this long (ms). Default 5 minutes. */
  timeBudgetMs?: number
  /** Run these steps once (a saved counterexample) instead of random sequences. */
  replay?: WalkStep[]
  /** Called after every run. */
  onRun?: (done: number) => void
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

/** One step as the report shows it: what was sent, what came back, what the oracle predicted. */
export interface StepRecord {
  index: number
  step: WalkStep
  description: string
  target: { facts: Record<string, unknown>; exchanges: WalkExchange[]; curls: string[] }
  predicted: Record<string, unknown>
  divergence?: { fact: string; target: unknown; predicted: unknown }
  /** What the walk could not check at this step, and why (the oracle did not run, a list too long to walk). */
  note?: string
}

export interface WalkResult {
  format: typeof WALK_FORMAT
  seed: number
  runId: string
  target: { kind: Target['kind']; baseUrl: string; controlPlane: boolean }
  requested: { runs: number; steps: number }
  /** Runs completed (fewer than requested when the time budget ran out). */
  runs: number
  stepsRun: number
  interrupted: boolean
  durationMs: number
  /**
   * The shortest sequence found that diverges, step by step (the first step,
   * the project every run starts with, included), and the steps to replay it
   * (that first step left out: every run makes it).
   */
  counterexample?: { steps: StepRecord[]; replay: WalkStep[]; path: string | undefined }
  /**
   * What the walk could not check, and at how many steps (counting the
   * replays of shrinking): the oracle did not run a step the target could not
   * do, a list was too long to walk to its end.
   */
  unchecked: Record<string, number>
  createdProjects: string[]
}

class Divergence extends Error {
  constructor(readonly record: StepRecord) {
    super(`step ${record.index + 1} (${record.description}) diverges on ${record.divergence!.fact}`)
  }
}

/** What a walk's step record shows of each exchange (its key is named beside it, by handle). */
const STEP_SUMMARY: SummaryLimits = {
  headers: ['content-type', 'x-service-error-code', 'x-ratelimit-remaining', 'retry-after'],
  requestBody: Number.POSITIVE_INFINITY,
  responseBody: 600,
  keyRole: false,
}

/** The first fact both sides state differently; the status first. */
export function firstDivergence(target: Record<string, unknown>, oracle: Record<string, unknown>): StepRecord['divergence'] {
  const keys = ['status', ...Object.keys(oracle).filter((k) => k !== 'status')]
  for (const key of keys) {
    if (!(key in target) || !(key in oracle)) continue
    if (JSON.stringify(target[key]) !== JSON.stringify(oracle[key])) return { fact: key, target: target[key], predicted: oracle[key] }
  }
  return undefined
}

const WALK_SCENARIO: Scenario = { id: 'walk', title: 'walk', kind: 'spec', needs: [], covers: [], run: async () => undefined }

interface Sides {
  target: Side
  oracle: Side
  log: StepRecord[]
  /** What the walk could not check, with how many steps said so (the walk's, across runs). */
  unchecked: Map<string, number>
}

interface Model {
  handles: number
  slideHandles: number
}

function keyOf(side: Side, exchange: Exchange): WalkExchange['key'] {
  const authorization = Object.entries(exchange.request.headers).find(([name]) => name.toLowerCase() === 'authorization')?.[1]
  if (authorization === undefined) return 'none'
  return side.other !== undefined && authorization === `Bearer ${side.other.key}` ? 'other' : 'main'
}

/** Runs a step on both sides, compares, keeps the sides' projects aligned. */
async function execute(sides: Sides, step: WalkStep): Promise<StepRecord> {
  const index = sides.log.length
  const target = await sides.target.run(step)
  let oracle: Observation
  if (target.unmatched !== undefined) {
    // Nothing happened on the target that the spec lets the walk predict: the oracle stays as it is.
    oracle = { facts: { ...target.facts }, exchanges: [] }
  } else {
    oracle = await sides.oracle.run(step, target.mirror)
  }
  const divergence = firstDivergence(target.facts, oracle.facts)
  if (divergence === undefined && target.made !== undefined && oracle.made !== undefined) {
    const predicted = target.made.configPredicted && oracle.made.configPredicted
    target.made.configPredicted = predicted
    oracle.made.configPredicted = predicted
    sides.target.handles.push(target.made)
    sides.oracle.handles.push(oracle.made)
  }
  const record: StepRecord = {
    index,
    step,
    description: describeStep(step),
    target: {
      facts: target.facts,
      exchanges: target.exchanges.map((e) => ({ ...summarize(e, STEP_SUMMARY), key: keyOf(sides.target, e), yields: yieldsOf(e.json) })),
      // Each curl reads the key of the side that sent it: another team's reads from its own variable.
      curls: target.exchanges.map((e) => {
        const key = keyOf(sides.target, e)
        return curlCommand(e.request, key === 'other' ? keyCredential('otherTeam') : key === 'none' ? NO_KEY : keyCredential('main'))
      }),
    },
    predicted: oracle.facts,
    ...(divergence === undefined ? {} : { divergence }),
    ...(target.unmatched !== undefined
      ? { note: `${target.unmatched}: the oracle did not run this step` }
      : target.note !== undefined
        ? { note: target.note }
        : {}),
  }
  if (record.note !== undefined) sides.unchecked.set(record.note, (sides.unchecked.get(record.note) ?? 0) + 1)
  sides.log.push(record)
  return record
}

class WalkCommand implements fc.AsyncCommand<Model, Sides> {
  constructor(readonly step: WalkStep) {}
  check(model: Readonly<Model>): boolean {
    return applicable(this.step, model)
  }
  async run(model: Model, sides: Sides): Promise<void> {
    const record = await execute(sides, this.step)
    model.handles = sides.target.handles.length
    model.slideHandles = sides.target.slideHandles().length
    if (record.divergence !== undefined) throw new Divergence(record)
  }
  toString(): string {
    return describeStep(this.step)
  }
}

/**
 * Walks a target against the emulator. Resolves with the result (with a
 * shrunk counterexample when a divergence was found); throws
 * `ConfigurationError` for a bad configuration.
 */
export async function runWalk(options: WalkOptions = {}): Promise<WalkResult> {
  const started = Date.now()
  const seed = options.seed ?? randomSeed()
  const runs = options.runs ?? 100
  const maxSteps = options.steps ?? 30
  if (!Number.isInteger(runs) || runs < 1) throw new ConfigurationError('--runs must be a whole number ≥ 1')
  if (!Number.isInteger(maxSteps) || maxSteps < 1) throw new ConfigurationError('--steps must be a whole number ≥ 1')
  if (options.replay !== undefined) {
    const checked = z.array(WalkStepSchema).safeParse(options.replay)
    if (!checked.success) {
      const issue = checked.error.issues[0]!
      throw new ConfigurationError(`the steps to replay are not walk steps: step${issuePath(issue.path)}: ${issue.message}`)
    }
  }
  const rng = new Rng(seed)
  const runId = rng.fork('walk').token(6)
  // An emulator the kit starts for the walk has no rate limit: the walk is about sequences, not pacing.
  const target = await resolveTarget({ ownRateLimit: 0, ...options })
  let oracleTarget: Target | undefined
  try {
    // The oracle: an emulator of our own beside the target, with no rate limit.
    oracleTarget = await ownEmulator({ rateLimit: 0, emulatorChecks: true, seededWorld: false })
    if (target.keys.main !== undefined) {
      const status = (
        await target.client.raw({ operationId: 'listTeams', apiKey: target.keys.main }).catch((error: Error) => {
          throw new ConfigurationError(`the target ${target.baseUrl} is unreachable: ${error.message}`)
        })
      ).response.status
      if (status === 401) throw new ConfigurationError('the target rejects the API key (GET /teams answered 401)')
    }
    if (!target.allowWrites) throw new ConfigurationError('a walk creates the projects it walks: pass --allow-writes')
    const state = (t: Target): RunState => ({
      target: t,
      pacer: new Pacer(t.clock, t.pace),
      runId,
      created: new Set(),
      exercised: new Set(),
      jobTimeoutMs: 600_000,
      shared: new Map(),
    })
    const targetState = state(target)
    const oracleState = state(oracleTarget)
    const targetCtx = new ScenarioContext(targetState, WALK_SCENARIO, rng.fork('target'))
    const oracleCtx = new ScenarioContext(oracleState, WALK_SCENARIO, rng.fork('oracle'))
    // A project with slides to copy (the spec shows no way to make slides): found once per key on a
    // deployment; made through the create-slide extension when the target is our emulator.
    const sources = new Map<string, Promise<string | undefined>>()
    // The requests that make the source are the first copy step's (its report and curl script show them).
    const findSource = (actor: Actor) => (exchanges: Exchange[]) => {
      let source = sources.get(actor.key)
      if (source === undefined) {
        source = (async () => {
          if (target.control !== undefined) {
            const made = await targetCtx.send(actor, { operationId: 'createProject', body: { name: targetCtx.name('slides source') } })
            exchanges.push(made)
            const slug = (made.json as { projectSlug?: string })?.projectSlug
            if (made.status !== 200 || slug === undefined) return undefined
            targetCtx.created(slug)
            for (const name of ['Cover', 'Agenda', 'Numbers'])
              exchanges.push(await targetCtx.send(actor, { operationId: 'createSlide', params: { slug }, body: { name } }))
            return slug
          }
          const list = await targetCtx.send(actor, { operationId: 'listProjects', query: { limit: 20 } })
          for (const item of (list.json as { projects?: Array<{ slug: string }> })?.projects ?? []) {
            const slides = await targetCtx.send(actor, { operationId: 'listSlides', params: { slug: item.slug } })
            if (slides.status === 200 && ((slides.json as { slides?: unknown[] }).slides?.length ?? 0) > 0) return item.slug
          }
          return undefined
        })()
        sources.set(actor.key, source)
      }
      return source
    }

    const unchecked = new Map<string, number>()
    const setup = async (): Promise<{ model: Model; real: Sides }> => {
      const targetActor: Actor =
        target.control === undefined ? { key: target.keys.main!, label: 'main key' } : await targetCtx.freshAccount('walk', 5)
      const targetOther: Actor | undefined =
        target.keys.other !== undefined
          ? { key: target.keys.other, label: 'other' }
          : target.control !== undefined
            ? await targetCtx.freshAccount('walk other')
            : undefined
      // The oracle never runs out of credits: a target that does is not held to the oracle's count.
      const oracleActor = await oracleCtx.freshAccount('walk', 1_000_000)
      const oracleOther = await oracleCtx.freshAccount('walk other')
      const real: Sides = {
        target: new Side('target', targetCtx, targetActor, targetOther, findSource(targetActor)),
        oracle: new Side('oracle', oracleCtx, oracleActor, oracleOther, async () => undefined),
        log: [],
        unchecked,
      }
      // Every run starts with a project of its own, so the first steps have one to work on.
      const first = await execute(real, { op: 'create', name: 'Walk start' })
      if (first.divergence !== undefined) throw new Divergence(first)
      return { model: { handles: real.target.handles.length, slideHandles: 0 }, real }
    }

    const allowance = {
      writes: true,
      generation: target.allowGeneration,
      otherTeamKey: target.keys.other !== undefined || target.control !== undefined,
    }
    const base: Omit<WalkResult, 'counterexample' | 'runs' | 'stepsRun' | 'interrupted' | 'durationMs' | 'unchecked' | 'createdProjects'> =
      {
        format: WALK_FORMAT,
        seed,
        runId,
        target: { kind: target.kind, baseUrl: target.baseUrl, controlPlane: target.control !== undefined },
        requested: { runs: options.replay === undefined ? runs : 1, steps: options.replay?.length ?? maxSteps },
      }

    /** Runs `steps` once, as asyncModelRun would, and returns the log. */
    const replay = async (steps: WalkStep[]): Promise<StepRecord[]> => {
      const { model, real } = await setup()
      for (const step of steps) {
        if (!applicable(step, model)) continue
        const record = await execute(real, step)
        model.handles = real.target.handles.length
        model.slideHandles = real.target.slideHandles().length
        if (record.divergence !== undefined) break
      }
      return real.log
    }

    if (options.replay !== undefined) {
      const log = await replay(options.replay)
      const diverged = log.some((r) => r.divergence !== undefined)
      return {
        ...base,
        runs: 1,
        stepsRun: log.length,
        interrupted: false,
        durationMs: Date.now() - started,
        ...(diverged ? { counterexample: { steps: log, replay: options.replay, path: undefined } } : {}),
        unchecked: Object.fromEntries(unchecked),
        createdProjects: [...targetState.created].sort(),
      }
    }

    let stepsRun = 0
    let done = 0
    const property = fc.asyncProperty(
      fc.commands(
        stepArbitraries(allowance).map((arb) => arb.map((step) => new WalkCommand(step))),
        { maxCommands: maxSteps, size: 'max' },
      ),
      async (commands) => {
        await fc.asyncModelRun(async () => {
          const run = await setup()
          const log = run.real.log
          const original = log.push.bind(log)
          log.push = (...items: StepRecord[]) => {
            stepsRun += items.length
            return original(...items)
          }
          return run
        }, commands)
      },
    )
    const details = await fc.check(property, {
      seed,
      numRuns: runs,
      interruptAfterTimeLimit: options.timeBudgetMs ?? 300_000,
      markInterruptAsFailure: false,
      reporter: (run) => {
        done = run.numRuns
        options.onRun?.(done)
      },
    })
    let counterexample: WalkResult['counterexample']
    if (details.failed && details.counterexample !== null) {
      // fast-check wraps each command and marks the ones that ran in the failing sequence.
      const wrapped = [...(details.counterexample[0] as Iterable<{ cmd: WalkCommand; hasRan: boolean }>)]
      const steps = wrapped.filter((w) => w.hasRan).map((w) => w.cmd.step)
      const log = await replay(steps)
      counterexample = { steps: log, replay: steps, path: details.counterexamplePath ?? undefined }
      if (!log.some((r) => r.divergence !== undefined)) {
        // It diverged while shrinking but not on a replay: report the error fast-check saw.
        counterexample.steps.push({
          index: log.length,
          step: steps.at(-1)!,
          description: `not reproduced on replay: ${String((details.errorInstance as Error | undefined)?.message ?? 'unknown')}`,
          target: { facts: {}, exchanges: [], curls: [] },
          predicted: {},
        })
      }
    } else if (details.failed) {
      throw (details.errorInstance as unknown as Error | undefined) ?? new Error('the walk failed without a counterexample')
    }
    return {
      ...base,
      runs: details.numRuns,
      stepsRun,
      interrupted: details.interrupted,
      durationMs: Date.now() - started,
      ...(counterexample === undefined ? {} : { counterexample }),
      unchecked: Object.fromEntries(unchecked),
      createdProjects: [...targetState.created].sort(),
    }
  } finally {
    await target.close()
    await oracleTarget?.close()
  }
}
