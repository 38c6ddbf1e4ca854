/**
 * Every sequence defect is found at each of seeds 1 to 10 within the walk's
 * default run count, and shrunk to at most 6 steps (`npm run test:walks`).
 */
import { describe, expect, it } from 'vitest'
import { DEFAULT_RUNS } from '../../conformance/walk/walk.js'
import { SEQUENCE_DEFECTS, walkDefect } from './sequence-defects.js'

const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]

describe.each(SEQUENCE_DEFECTS.map((defect) => [defect.name, defect] as const))('%s', (_, defect) => {
  it.each(SEEDS)('is found at seed %i within the default run count and shrunk to at most 6 steps', async (seed) => {
    const result = await walkDefect(defect, seed)
    const ce = result.counterexample
    expect(ce, `not found in ${result.runs} runs`).toBeDefined()
    expect(ce!.foundAtRun).toBeLessThanOrEqual(DEFAULT_RUNS)
    expect(ce!.steps.at(-1)!.divergence).toBeDefined()
    expect(ce!.steps.length, ce!.steps.map((s) => s.description).join(' → ')).toBeLessThanOrEqual(6)
  })
})
