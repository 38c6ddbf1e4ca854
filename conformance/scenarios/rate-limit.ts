/** The rate limit: 50 requests per minute per user, shared by all endpoints; 429 with the three headers. */
import { Clauses } from '../clauses.js'
import type { Actor } from '../actors.js'
import type { ScenarioContext } from '../context.js'
import { SPEC_RATE_LIMIT } from '../pacer.js'
import type { Exchange } from '../types.js'
import { OPERATION_IDS } from '../../src/client/index.js'
import { plausibleRequest } from './auth.js'
import { needs, scenario, SPEC_OPERATIONS } from './support.js'

/** Sends requests with the given keys in turn until a 429, at most `max`. */
async function burst(
  ctx: ScenarioContext,
  actors: Actor[],
  max: number,
): Promise<{ limited: Exchange | undefined; sent: number; elapsedMs: number }> {
  const started = await ctx.target.clock.now()
  for (let sent = 1; sent <= max; sent++) {
    const actor = actors[(sent - 1) % actors.length]!
    const exchange = await ctx.send(
      actor,
      { operationId: sent % 2 === 0 ? 'listTeams' : 'listProjects', query: sent % 2 === 0 ? undefined : { limit: 1 } },
      { expectRateLimit: true },
    )
    if (exchange.status === 429) return { limited: exchange, sent, elapsedMs: (await ctx.target.clock.now()) - started }
    if (exchange.status !== 200) ctx.expectStatus(exchange, 200)
  }
  return { limited: undefined, sent: max, elapsedMs: (await ctx.target.clock.now()) - started }
}

/**
 * With a control plane, starts a fresh minute first, so the burst meets no
 * window boundary (the emulator counts in minute-aligned windows; this only
 * arranges the test, it judges nothing of the windows).
 */
async function freshMinute(ctx: ScenarioContext): Promise<boolean> {
  if (ctx.target.control === undefined) return false
  const now = await ctx.target.clock.now()
  await ctx.sleep(60_000 - (now % 60_000))
  return true
}

function checkRefusal(ctx: ScenarioContext, exchange: Exchange): void {
  ctx.expectError(exchange, 429, Clauses.limits)
  for (const header of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
    ctx.must(
      Clauses.errors,
      `a 429 carries ${header.replace(/(^|-)(\w)/g, (m) => m.toUpperCase())}`,
      exchange.headers[header] !== undefined,
      { actual: '(absent)', exchange },
    )
  }
}

/** The operations a target has: the spec's, and the emulator's extensions when it is ours. */
function operationsOf(ctx: ScenarioContext) {
  return ctx.has('emulator') ? OPERATION_IDS : SPEC_OPERATIONS
}

export const rateLimitScenarios = [
  scenario({
    id: 'rate-limit.429',
    title: 'Past 50 requests in a minute, a 429 with X-RateLimit-Limit, -Remaining and -Reset',
    phase: 'last',
    covers: [
      ['listTeams', 429],
      ['listProjects', 429],
      ['listProjects', 200],
      ['listTeams', 200],
    ],
    async run(ctx) {
      const main = await ctx.main()
      const aligned = await freshMinute(ctx)
      // A burst may straddle the edge of a fixed window, where up to 2 × 50 pass: allow for it.
      const { limited, sent, elapsedMs } = await burst(ctx, [main], aligned ? SPEC_RATE_LIMIT + 5 : 2 * SPEC_RATE_LIMIT + 1)
      const inAMinute = elapsedMs < 60_000
      if (limited === undefined) {
        ctx.check(
          inAMinute ? 'MUST' : 'SHOULD',
          Clauses.limits,
          `${sent} requests in ${Math.round(elapsedMs / 1000)} s met no 429 (the limit is 50 per minute per user)`,
          false,
          {
            expected: 'a 429',
            actual: 'none',
          },
        )
        return
      }
      ctx.check(
        aligned ? 'MUST' : 'SHOULD',
        Clauses.limits,
        'the 429 comes by the 51st request of the minute',
        sent <= SPEC_RATE_LIMIT + 1,
        { actual: sent, exchange: limited },
      )
      checkRefusal(ctx, limited)
    },
  }),
  scenario({
    id: 'rate-limit.per-user',
    title: 'Two keys of one user share one rate-limit bucket',
    needs: needs('controlPlane'),
    phase: 'last',
    covers: [
      ['listTeams', 429],
      ['listProjects', 429],
      ['listProjects', 200],
      ['listTeams', 200],
    ],
    async run(ctx) {
      const main = await ctx.main()
      const second = await ctx.control.createKey({ userId: main.userId!, name: 'second key' })
      const other: Actor = { key: second.apiKey, label: 'second key of the main user' }
      await freshMinute(ctx)
      const { limited, sent, elapsedMs } = await burst(ctx, [main, other], SPEC_RATE_LIMIT * 2 + 2)
      ctx.must(
        Clauses.limits,
        'requests with two keys of one user count together: a 429 by the 51st',
        limited !== undefined && sent <= SPEC_RATE_LIMIT + 1,
        {
          expected: `429 by request ${SPEC_RATE_LIMIT + 1}`,
          actual: limited === undefined ? `no 429 in ${sent} requests` : `429 at request ${sent}`,
          ...(limited === undefined ? {} : { exchange: limited }),
        },
      )
      if (limited !== undefined) checkRefusal(ctx, limited)
      ctx.note(`burst took ${Math.round(elapsedMs)} ms of target time`)
    },
  }),
  scenario({
    id: 'rate-limit.every-operation',
    title: 'The limit is shared by all endpoints: once it is reached, every operation answers 429',
    needs: needs('controlPlane'),
    phase: 'last',
    covers: [
      ...[...SPEC_OPERATIONS, 'createSlide' as const, 'getSlideGuide' as const, 'getSlideFiles' as const].map((id) => [id, 429] as const),
      ['listProjects', 200],
      ['listTeams', 200],
    ],
    async run(ctx) {
      const main = await ctx.main()
      await freshMinute(ctx)
      const { limited } = await burst(ctx, [main], SPEC_RATE_LIMIT + 5)
      if (limited === undefined) return ctx.abort(`no 429 in ${SPEC_RATE_LIMIT + 5} requests (rate-limit.429 judges that)`)
      for (const operationId of operationsOf(ctx)) {
        const exchange = await ctx.send(main, plausibleRequest(ctx, operationId), { expectRateLimit: true })
        ctx.expectError(exchange, 429, Clauses.limits)
        if (exchange.status === 429) checkRefusal(ctx, exchange)
      }
    },
  }),
]
