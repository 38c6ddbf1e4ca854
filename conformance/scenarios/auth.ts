/** Authentication: every operation needs a bearer key; a missing, malformed or revoked one is 401. */
import type { OperationId } from '../../src/client/index.js'
import { Clauses } from '../clauses.js'
import type { ScenarioContext } from '../context.js'
import { appended, derivedCredential, lastCharacterReplaced, literalCredential, type Credential } from '../curl.js'
import type { KitRequest } from '../types.js'
import { missingSlug, needs, scenario, SPEC_OPERATIONS } from './support.js'

/** A request of `operationId` that would be valid but for its key (and the missing project it names). */
export function plausibleRequest(ctx: ScenarioContext, operationId: OperationId): KitRequest {
  const slug = missingSlug(ctx)
  const params = { slug, slideId: 'conformance-slide', jobId: 'conformance-job' }
  const bodies: Partial<Record<OperationId, unknown>> = {
    generateProject: { prompt: ctx.name('never generated') },
    createProject: { name: ctx.name('never created') },
    renameProject: { name: 'never renamed' },
    updateProjectConfig: { config: { layout: 'SLIDES' } },
    updateSlide: { files: { 'slide.content.json': '{}' } },
    startSlideEditing: { agentName: 'conformance', editPrompt: 'never shown' },
  }
  return { operationId, params, body: bodies[operationId] }
}

export const authScenarios = [
  scenario({
    id: 'auth.missing-key',
    title: 'Every operation answers 401 without an API key',
    covers: SPEC_OPERATIONS.map((id) => [id, 401] as const),
    async run(ctx) {
      for (const operationId of SPEC_OPERATIONS) {
        const exchange = await ctx.send(null, { ...plausibleRequest(ctx, operationId), apiKey: null })
        ctx.expectError(exchange, 401, Clauses.authentication)
      }
    },
  }),
  scenario({
    id: 'auth.malformed-key',
    title: 'A malformed or unknown key is 401',
    covers: [
      ['listTeams', 401],
      ['listProjects', 401],
    ],
    async run(ctx) {
      const main = await ctx.main()
      // Each says how a reproduction sends it: a made-up value as is, one made from the main key
      // as the shell expansion that makes it from $PRESENTATION_API_KEY (never the key itself).
      const last = main.key.endsWith('x') ? 'y' : 'x'
      const suffix = ctx.rng.token(6)
      const made = (what: string, value: string): [string, string, Credential] => [
        what,
        value,
        literalCredential(value, `a malformed header: ${what}`),
      ]
      const variants: Array<[string, string, Credential]> = [
        made('a Bearer header without a key', 'Bearer'),
        made('another scheme (Basic)', 'Basic Y29uZm9ybWFuY2U6a2l0'),
        made('a key without the service prefix', `Bearer conformance${ctx.rng.token(20)}`),
        [
          'a valid key with one character changed',
          `Bearer ${main.key.slice(0, -1)}${last}`,
          derivedCredential(main.role === 'main' ? 'main' : 'extra', `its last character changed to ${last}`, lastCharacterReplaced(last)),
        ],
        [
          'a valid key with characters appended',
          `Bearer ${main.key}${suffix}`,
          derivedCredential(main.role === 'main' ? 'main' : 'extra', `${suffix} appended`, appended(suffix)),
        ],
      ]
      for (const [what, authorization, credential] of variants) {
        const exchange = await ctx.send(null, { operationId: 'listTeams', authorization }, { credential })
        if (!ctx.expectError(exchange, 401, Clauses.authentication)) ctx.note(`not refused: ${what}`)
      }
      ctx.expectError(
        await ctx.send(null, { operationId: 'listProjects', authorization: variants[3]![1] }, { credential: variants[3]![2] }),
        401,
        Clauses.authentication,
      )
    },
  }),
  scenario({
    id: 'auth.revoked-key',
    title: 'A revoked key is refused at once',
    needs: needs('revokedKey'),
    covers: [
      ['listTeams', 401],
      ['listProjects', 401],
      ['createProject', 401],
    ],
    async run(ctx) {
      const revoked = await ctx.revokedKey()
      ctx.expectError(await ctx.call(revoked, 'listTeams'), 401, Clauses.authentication)
      ctx.expectError(await ctx.call(revoked, 'listProjects'), 401, Clauses.authentication)
      ctx.expectError(await ctx.call(revoked, 'createProject', { body: { name: ctx.name('never created') } }), 401, Clauses.authentication)
    },
  }),
  scenario({
    id: 'auth.valid-key',
    title: 'A valid key is accepted',
    covers: [['listTeams', 200]],
    async run(ctx) {
      const main = await ctx.main()
      ctx.expectOk(await ctx.call(main, 'listTeams'))
    },
  }),
]
