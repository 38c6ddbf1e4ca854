/**
 * The walk's motif scheduler: every motif the walks know runs once, first
 * thing, in the first runs of a walk, whatever the seed (issue 36: a walk
 * missed a defect that only two patches of one theme show, at one seed in
 * four). Cheap checks here; `motifs.sweep.ts` walks the defect at many seeds.
 */
import { describe, expect, it } from 'vitest'
import { motifSchedule, motifs, type WalkStep } from '../../conformance/walk/steps.js'
import { DEFAULT_RUNS, runWalk } from '../../conformance/walk/walk.js'
import { SEQUENCE_DEFECTS, walkDefect } from './sequence-defects.js'

const ALLOW = { writes: true, generation: false, otherTeamKey: true }
const THEME_DEFECT = SEQUENCE_DEFECTS.find((d) => d.name.startsWith('a second theme patch merged'))!

/** Which motif a scheduled sample is, read from its steps alone. */
function shapeOf(steps: readonly WalkStep[]): string {
  const ops = steps.map((s) => s.op)
  const configs = steps.filter((s): s is Extract<WalkStep, { op: 'config' }> => s.op === 'config')
  if (ops.length === 3 && configs.length === 2 && ops[2] === 'readConfig') {
    const [a, b] = configs.map((c) => Object.keys(c.patch)[0])
    if (a === b && (a === 'theme' || a === 'tokens')) return 'two config patches of one nested object'
  }
  return ops.join(' ')
}

describe('the motif schedule', () => {
  it.each([1, 2, 3, 42, 2 ** 31 - 1])('at seed %i, holds every motif once, within a default-sized walk', (seed) => {
    const schedule = motifSchedule(ALLOW, seed)
    expect(schedule.map((m) => m.name)).toEqual(motifs(ALLOW).map((m) => m.name))
    expect(schedule.length).toBeLessThanOrEqual(DEFAULT_RUNS)
    for (const { steps } of schedule) expect(steps.length).toBeGreaterThan(0)
    const nested = schedule.find((m) => m.name === 'two config patches of one nested object')!
    expect(shapeOf(nested.steps)).toBe('two config patches of one nested object')
    // The slide motif starts from a project with slides, so a scheduled run does not pass over its steps.
    expect(schedule.find((m) => m.name === 'the same slide of a project and its duplicate')!.steps[0]!.op).toBe('copySlides')
  })

  it('is drawn from the seed: the same seed, the same schedule; another seed, other inputs', () => {
    expect(motifSchedule(ALLOW, 7)).toEqual(motifSchedule(ALLOW, 7))
    expect(JSON.stringify(motifSchedule(ALLOW, 7))).not.toBe(JSON.stringify(motifSchedule(ALLOW, 8)))
  })

  it('is empty for a walk without writes (every motif writes)', () => {
    expect(motifSchedule({ ...ALLOW, writes: false }, 1)).toEqual([])
  })
})

describe('the scheduled motifs in a walk', () => {
  it.each([1, 2])(
    'find two theme patches merged into one within the scheduled runs (seed %i)',
    async (seed) => {
      const result = await walkDefect(THEME_DEFECT, seed)
      expect(result.counterexample, `not found in ${result.runs} runs`).toBeDefined()
      expect(result.counterexample!.foundAtRun).toBeLessThanOrEqual(motifs(ALLOW).length)
      expect(result.counterexample!.steps.at(-1)!.divergence!.fact).toBe('config.merge')
    },
    60_000,
  )

  it('find nothing on the emulator itself, whose theme is replaced whole (seed 3, the scheduled runs)', async () => {
    const result = await runWalk({ seed: 3, runs: motifs(ALLOW).length, steps: 12 })
    expect(result.counterexample?.steps.map((s) => `${s.description}: ${JSON.stringify(s.divergence)}`)).toBeUndefined()
    expect(result.runs).toBe(motifs(ALLOW).length)
  }, 60_000)
})
