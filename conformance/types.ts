/**
 * The conformance kit's vocabulary: scenarios, what they need, the checks
 * they make, and what a run reports.
 */
import type { OperationId, RawRequest, SentRequest } from '../src/client/index.js'

/**
 * What a scenario needs from the target; a need the target does not meet
 * skips the scenario with the reason.
 *
 * - `writes`: creates or changes projects (against a deployment only with `--allow-writes`).
 * - `generation`: starts generation jobs, spending credits (`--allow-generation`).
 * - `otherTeamKey`: a key of another user with no access to the main key's projects.
 * - `revokedKey`: a revoked key.
 * - `noCreditsKey`: a key whose team has no credits.
 * - `collaboratorProject`: a project shared with the main key's user as a collaborator (`--collaborator-project`, or a control plane that shares one).
 * - `teamProject`: a project owned by another team the main key's user belongs to (`--team-project`, or a control plane that makes one).
 * - `controlPlane`: the emulator's control plane (`--control-url`, or a target the kit started).
 * - `emulator`: the target is our emulator (its contract's choices are checked).
 * - `seededWorld`: the emulator's seeded fixtures, untouched (only when the kit started it).
 * - `reset`: the kit may reset the emulator (it started it, or `--allow-reset` with a control URL).
 */
export type Need =
  | 'writes'
  | 'generation'
  | 'otherTeamKey'
  | 'revokedKey'
  | 'noCreditsKey'
  | 'collaboratorProject'
  | 'teamProject'
  | 'controlPlane'
  | 'emulator'
  | 'seededWorld'
  | 'reset'

/** MUST: a failure fails the scenario. SHOULD: a failure is a warning. */
export type Level = 'MUST' | 'SHOULD'

/**
 * When a scenario may run:
 * - `any`: alongside anything;
 * - `quiet`: while no generation job is in flight for its account (list walks);
 * - `last`: after everything else, alone (it exhausts the rate limit).
 */
export type Phase = 'any' | 'quiet' | 'last'

/** A spec check judges what `service-api.md` requires; an emulator check, a choice of `emulator-contract.md`. */
export type ScenarioKind = 'spec' | 'emulator'

/* A scenario itself (`Scenario`: its id, needs and `run(ctx)`) is declared beside the context it runs with, in context.ts. */

/** One request and its response, as sent and as received. */
export interface Exchange {
  operationId: OperationId | undefined
  request: SentRequest
  status: number
  headers: Record<string, string>
  text: string
  /** The parsed JSON body, or undefined when it is not JSON. */
  json: unknown
  durationMs: number
  /** Which key made the request, and how a reproduction sends it. */
  credential?: import('./curl.js').Credential
}

/** A check that did not hold. */
export interface Finding {
  /**
   * The rule that did not hold, as a stable id: the table of facts' row id
   * (`list.within-limit`), else an id the kit derives from the clause and the
   * check's wording (`check.<hash>`). Findings of one rule are one distinct
   * problem (`problems`), however many times a run meets it.
   */
  rule?: string
  /** The operation of the request that showed it, when there was one. */
  operationId?: string
  level: Level
  /** The spec's section heading (or the contract's, for emulator checks). Baselines store it. */
  clause: string
  /** The section of the shipped reference that states the rule: `reference/api.md#<anchor>` in the package. */
  ref: string
  message: string
  expected?: string
  actual?: string
  exchange?: ExchangeSummary
  /** A curl command reproducing the request, the key read from its role's environment variable. */
  curl?: string
}

/**
 * A distinct problem: every finding of one rule under one clause and level,
 * across the run's scenarios, with how often it occurred, where, and one
 * example (the first) with its exchange and curl. Reports open with these;
 * the full list stays in each scenario's `failures` and `warnings`.
 */
export interface Problem {
  /** The rule's stable id (`Finding.rule`): SARIF's ruleId. */
  rule: string
  level: Level
  clause: string
  ref: string
  /** The rule in words (the first finding's message, without what it was about). */
  statement: string
  /** How many findings it is. */
  count: number
  /** The operations whose requests showed it, in order of first occurrence. */
  operations: string[]
  /** The scenarios it appeared in, with how many times in each. */
  scenarios: Array<{ id: string; count: number }>
  /** True when every scenario it appeared in is an expected failure (a baseline lists it). */
  expected: boolean
  /** The first finding, in full. */
  example: Finding
}

/** An exchange as a report shows it: the request with its key redacted, the response's status, headers that matter and a body excerpt. */
export interface ExchangeSummary {
  /** `key`: which key made the request, in words ("main key (--api-key)", "no key", "a malformed header: …"). */
  request: { method: string; url: string; headers: Record<string, string>; body?: string; key?: string }
  response: { status: number; headers: Record<string, string>; body: string }
}

export type Outcome = 'pass' | 'fail' | 'skip' | 'expected-fail' | 'stale'

/**
 * One step of a scenario written in steps (the emulator checks): each is
 * reported, a failing one does not stop the others, and one that depends on
 * a step that could not complete is skipped, naming it.
 */
export interface StepResult {
  name: string
  /** `fail`: a check failed, or the step could not complete (`reason` says why). */
  outcome: 'pass' | 'fail' | 'skip'
  reason?: string
  checks: number
}

/**
 * Why a scenario was skipped, as a kind a program reads (`reason` says it in words):
 * - `emulator-only`: it checks the emulator's own choices and the target is
 *   not the emulator (or its checks are off): no target flag makes it run here;
 * - `kit-started-only`: it checks the seeded fixtures of an emulator the kit
 *   started, which this target is not;
 * - `needs`: the target does not meet `needs`, which flags can meet
 *   (`--allow-writes`, a key, a control plane);
 * - `not-applicable`: the scenario found, as it ran, that it does not apply;
 * - `cut-short`: the run's time budget (`--time-budget`) ran out before it
 *   started, or while it ran (what it checked until then is kept).
 */
export interface Skip {
  kind: 'emulator-only' | 'kit-started-only' | 'needs' | 'not-applicable' | 'cut-short'
  /** The needs the target did not meet (all but `not-applicable`). */
  needs?: Need[]
}

export interface ScenarioResult {
  id: string
  title: string
  kind: ScenarioKind
  outcome: Outcome
  /** Why it was skipped, or why a listed failure is stale. */
  reason?: string
  /** A skipped scenario: why, as a kind (the reporters fold the emulator-only ones into one line). */
  skip?: Skip
  durationMs: number
  checks: number
  failures: Finding[]
  warnings: Finding[]
  notes: string[]
  /** How long (ms, the target's time) its requests waited for the rate limit; absent when they never did. */
  rateLimitWaitMs?: number
  /** The scenario's steps, when it is written in steps. */
  steps?: StepResult[]
}

export interface CoverageRow {
  operationId: OperationId
  status: number
  state: 'exercised' | 'skipped' | 'not-covered'
  reason?: string
  /** For an exercised pair: the scenarios whose requests were answered with it. */
  scenarios?: string[]
  /**
   * For an exercised pair: spec scenarios that declare it and found, as they ran, they could not (`skip.kind: not-applicable`), with why
   * (`generation.template-scope: …`): another scenario met the status, but not
   * the rule the skipped one checks.
   */
  notRun?: string[]
}

export const REPORT_FORMAT = 'presentation-conformance/report@1'
export const BASELINE_FORMAT = 'presentation-conformance/baseline@1'

/** What a run reports; the JSON reporter writes exactly this. */
export interface Report {
  format: typeof REPORT_FORMAT
  runId: string
  seed: number
  target: { kind: 'in-process' | 'http' | 'deployment'; baseUrl: string; emulator: boolean; controlPlane: boolean }
  startedAt: string
  durationMs: number
  /**
   * Counts of scenarios by outcome. `emulatorOnly` is how many of the
   * `skipped` are emulator checks that no flag can make run against this
   * target (it is not our emulator, or not one the kit started): their
   * `skip.kind` is `emulator-only` or `kit-started-only`.
   */
  summary: {
    passed: number
    failed: number
    skipped: number
    expectedFailures: number
    stale: number
    warnings: number
    total: number
    emulatorOnly: number
  }
  /**
   * The distinct problems (`Problem`): MUST before SHOULD, the most frequent
   * first. Derived from `scenarios`, which keep every finding.
   */
  problems: Problem[]
  scenarios: ScenarioResult[]
  coverage: CoverageRow[]
  /** Slugs of the projects the run created (the API has no delete). */
  createdProjects: string[]
  /** True when most scenarios that could run against this target were skipped (for want of flags): the run proves little. */
  mostlySkipped: boolean
  /**
   * Present when the time budget (`--time-budget`) ran out: the scenarios it
   * stopped midway and those it never started, and what the run left behind
   * on the target (projects it created, jobs still processing when it stopped).
   */
  cutShort?: CutShort
}

/** What a run cut short by its time budget says of itself. */
export interface CutShort {
  budgetMs: number
  /** Scenarios stopped while they ran. */
  stopped: string[]
  /** Scenarios never started. */
  notRun: string[]
  /** What the run left on the target: every project it created, and the jobs still processing when it stopped. */
  leftBehind: { projects: string[]; jobs: string[] }
}

/** A plain-data request the kit sends (the client's raw request). */
export type KitRequest = RawRequest
