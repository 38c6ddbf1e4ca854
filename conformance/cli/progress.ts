/**
 * Progress as it happens, on stderr: the scenario that starts, and each wait
 * (on the rate limit, on a generation job) with its expected length, so a
 * run against a slow or rate-limited target is not silent between its start
 * line and its report. For a person watching: quiet when stderr is not a
 * terminal or `CI` is set (a log would only grow), `--progress` forces it.
 */
import type { RunWait } from '../context.js'

/** Whether to print progress: forced by `--progress`, else only to a terminal outside CI. */
export function progressWanted(flag: boolean | undefined, stderrIsTty: boolean | undefined, env: NodeJS.ProcessEnv): boolean {
  if (flag === true) return true
  const ci = env.CI !== undefined && env.CI !== '' && env.CI !== 'false' && env.CI !== '0'
  return stderrIsTty === true && !ci
}

/** A wait's expected length as a person reads it: `250 ms`, `1.5 s`, `60 s`. */
export function waitLength(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`
  if (ms < 10_000) return `${(Math.round(ms / 100) / 10).toString()} s`
  return `${Math.round(ms / 1000)} s`
}

/** The progress line of a wait. */
export function waitLine(wait: RunWait): string {
  const who = wait.scenario === undefined ? '' : ` (${wait.scenario})`
  const what = wait.kind === 'job' ? `job ${wait.jobId ?? ''}`.trimEnd() : 'the rate limit'
  return `  … waiting ${waitLength(wait.ms)} on ${what}${who}\n`
}

/** The progress hooks of a run (`runConformance`'s `onScenarioStart` and `onWait`), writing to `err`. */
export function progressHooks(err: (text: string) => void): {
  onScenarioStart: (scenario: { id: string; title: string }) => void
  onWait: (wait: RunWait) => void
} {
  return {
    onScenarioStart: (scenario) => err(`▸ ${scenario.id}: ${scenario.title}\n`),
    onWait: (wait) => err(waitLine(wait)),
  }
}
