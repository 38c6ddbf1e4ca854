/**
 * Expected failures: a baseline for a partial implementation. A listed
 * failure does not fail the run; a new failure does; a listed scenario that
 * now passes fails the run as a stale entry (so the baseline shrinks as the
 * server improves).
 */
import { z } from 'zod'
import { BASELINE_FORMAT, type ScenarioResult } from './types.js'

export const Baseline = z.strictObject({
  format: z.literal(BASELINE_FORMAT),
  /** Scenario ids expected to fail, each with the clauses it failed on and a free note. */
  expectedFailures: z.record(
    z.string(),
    z.strictObject({
      clauses: z.array(z.string()).optional(),
      note: z.string().optional(),
    }),
  ),
})
export type Baseline = z.infer<typeof Baseline>

/** Parses a baseline file's text; throws an Error naming the problem. */
export function parseBaseline(text: string, source: string): Baseline {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new Error(`${source} is not JSON: ${(error as Error).message}`)
  }
  const result = Baseline.safeParse(json)
  if (!result.success) {
    const issue = result.error.issues[0]!
    throw new Error(`${source} is not a baseline (${BASELINE_FORMAT}): ${issue.path.join('.') || '(root)'}: ${issue.message}`)
  }
  return result.data
}

/** The baseline of a run: every failing scenario with the clauses it failed on. */
export function baselineOf(results: readonly ScenarioResult[]): Baseline {
  const expectedFailures: Baseline['expectedFailures'] = {}
  for (const result of results) {
    if (result.outcome !== 'fail' && result.outcome !== 'expected-fail') continue
    expectedFailures[result.id] = { clauses: [...new Set(result.failures.map((f) => f.clause))] }
  }
  return { format: BASELINE_FORMAT, expectedFailures }
}
