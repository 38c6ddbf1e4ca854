/**
 * The conformance kit (`presentation-emulator/conformance`): one suite of
 * scenarios that judges any deployment of the Presentation Service against
 * the published spec, and the emulator against its contract.
 *
 * @example
 * import { runConformance } from 'presentation-emulator/conformance'
 *
 * // A server implementer's in-process app, no socket:
 * const report = await runConformance({ fetch: app.fetch, baseUrl: 'http://localhost/v1', apiKey: 'sk_test', allowWrites: true })
 * console.log(report.summary)
 */
export { runConformance, exitCodeOf, selectScenarios, ConfigurationError, type ConformanceOptions } from './runner.js'
export { SCENARIOS } from './scenarios/index.js'
export { Baseline, baselineOf, parseBaseline } from './baseline.js'
export { junitXml } from './report/junit.js'
export { markdownReport } from './report/markdown.js'
export { sarifReport, type SarifOptions } from './report/sarif.js'
export { scenarioLine, summaryText, findingText, coverageText } from './report/human.js'
export { curlCommand } from './curl.js'
export { main } from './cli.js'
export type { TargetOptions } from './target.js'
export type { Clock } from './pacer.js'
export {
  REPORT_FORMAT,
  BASELINE_FORMAT,
  type Report,
  type ScenarioResult,
  type Finding,
  type Need,
  type Level,
  type Outcome,
  type Skip,
  type CoverageRow,
  type Exchange,
  type ExchangeSummary,
} from './types.js'
export { runWalk, firstDivergence, WALK_FORMAT, type WalkOptions, type WalkResult, type StepRecord } from './walk/walk.js'
export { describeStep, type WalkStep } from './walk/steps.js'
export { replayFile, parseReplay, curlScript, walkText, REPLAY_FORMAT, type ReplayFile } from './walk/report.js'
export { SPEC_ITEMS, type SpecItem, type Check } from './spec-items.js'
export { coverageListText, coverageListJson } from './coverage.js'
export { FACTS, type Fact, type SpecFact, type LearnedFact, type NeverFact, type Miss } from './facts/table.js'
export { Observer, type Verdict } from './facts/observer.js'
export { observe, type Observed, type Recorded } from './facts/observed.js'
export type { CheckRecord, RunWait, Scenario } from './context.js'
