/**
 * The walk never flags a legal server: the emulator and every spec-legal
 * server of the tests (as deployments, generation allowed), at seeds 1 to 10
 * with the walk's defaults, diverge nowhere (`npm run test:walks`).
 */
import { describe, expect, it } from 'vitest'
import { runWalk } from '../../conformance/walk/walk.js'
import { manualClockOf, SPEC_LEGAL_SERVERS } from '../conformance/variants.js'

const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
const divergences = (result: Awaited<ReturnType<typeof runWalk>>) =>
  result.counterexample?.steps.map((s) => [s.description, s.divergence]) ?? []

describe('the emulator (in-process)', () => {
  it.each(SEEDS)('seed %i: no divergence', async (seed) => {
    const result = await runWalk({ seed })
    expect(divergences(result)).toEqual([])
  })
})

describe.each(SPEC_LEGAL_SERVERS.map((server) => [server.name, server] as const))('%s, as a deployment', (_, legal) => {
  it.each(SEEDS)('seed %i: no divergence', async (seed) => {
    const server = legal.make()
    const result = await runWalk({
      fetch: server.fetch,
      baseUrl: 'http://127.0.0.1:4010/v1',
      apiKey: legal.keys.main,
      otherTeamKey: legal.keys.other,
      allowWrites: true,
      allowGeneration: true,
      clock: manualClockOf(server),
      seed,
    })
    expect(divergences(result)).toEqual([])
    expect(result.unchecked).toEqual({})
  })
})
