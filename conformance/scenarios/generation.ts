/** Generation: the job life cycle, templates, every bound of the body, credits. */
import { Clauses, endpoint } from '../clauses.js'
import type { Actor } from '../actors.js'
import { needMet, type ScenarioContext } from '../context.js'
import { needs, scenario } from './support.js'

const GENERATE = endpoint('generateProject')

/** 20 public image URLs: the most the spec allows. */
const IMAGES = Array.from({ length: 20 }, (_, i) => `https://images.example.com/conformance/${i + 1}.png`)

/** Starts a job, checks the creation answer, waits for it to end, checks the end state. */
async function generateAndWait(ctx: ScenarioContext, actor: Actor, body: Record<string, unknown>) {
  const exchange = await ctx.send(actor, { operationId: 'generateProject', body })
  const job = ctx.expectOk<'generateProject'>(exchange)
  ctx.created(job.projectSlug, { actor, purpose: 'generated' })
  ctx.equal('MUST', GENERATE, 'a new job starts in status processing', job.status, 'processing', exchange)
  const done = await ctx.waitForJob(actor, job.jobId)
  if (done === undefined) return undefined
  ctx.equal('MUST', Clauses.generationJob, 'the job status is the job asked for', done.jobId, job.jobId)
  ctx.must(Clauses.jobStatus, 'a job ends completed or failed', done.status === 'completed' || done.status === 'failed', {
    actual: done.status,
  })
  if (done.status === 'failed') ctx.must(Clauses.generationJob, 'a failed job has error', typeof done.error === 'string', { actual: done })
  if (job.projectSlug !== null && done.projectSlug !== null) {
    ctx.equal('SHOULD', Clauses.generationJob, 'the job keeps the projectSlug it was created with', done.projectSlug, job.projectSlug)
  }
  if (done.status === 'completed' && done.projectSlug !== null) {
    ctx.expectOk(await ctx.call(actor, 'getProject', { params: { slug: done.projectSlug } }))
  }
  // Read once more: a job that left processing stays as it ended (the table of facts' job.terminal judges it).
  const again = ctx.expectOk<'getJobStatus'>(await ctx.call(actor, 'getJobStatus', { params: { jobId: job.jobId } }))
  ctx.equal('MUST', Clauses.jobStatus, 'a job that ended stays as it ended', again.status, done.status)
  return { job, done }
}

export const generationScenarios = [
  scenario({
    id: 'generation.lifecycle',
    title: 'A job from scratch (with 20 reference images) starts processing and ends completed or failed',
    needs: needs('generation'),
    covers: [
      ['generateProject', 200],
      ['getJobStatus', 200],
      ['getProject', 200],
    ],
    async run(ctx) {
      const main = await ctx.main()
      await generateAndWait(ctx, main, { prompt: ctx.name('a three-slide deck about conformance testing'), referenceImageUrls: IMAGES })
    },
  }),
  scenario({
    id: 'generation.template',
    title: 'A job from one of the team’s templates',
    needs: needs('generation'),
    covers: [
      ['generateProject', 200],
      ['listTemplates', 200],
      ['getJobStatus', 200],
      ['getProject', 200],
    ],
    async run(ctx) {
      const main = await ctx.main()
      if (ctx.target.control !== undefined && main.teamId !== undefined) {
        await ctx.control.createTemplate({ teamId: main.teamId, name: ctx.name('template').slice(0, 200), slideCount: 3 })
      }
      const { templates } = await ctx.ok(main, 'listTemplates')
      if (templates.length === 0) ctx.skip('the key’s team has no template')
      const templateId = templates[0]!.id
      const result = await generateAndWait(ctx, main, { prompt: ctx.name('a deck in the house style'), templateId })
      if (result?.job.templateId !== undefined)
        ctx.equal('MUST', Clauses.generationJob, 'the answer’s templateId is the one given', result.job.templateId, templateId)
    },
  }),
  scenario({
    id: 'generation.validation',
    title: 'The generate body is checked: prompt, referenceImageUrls (at most 20 URIs), model, templateId',
    needs: needs('generation'),
    covers: [
      ['generateProject', 400],
      ['generateProject', 404],
    ],
    async run(ctx) {
      const main = await ctx.main()
      const refused: Array<[string, unknown]> = [
        ['an empty prompt', { prompt: '' }],
        ['no prompt', {}],
        ['a prompt that is not a string', { prompt: 42 }],
        [
          '21 reference images',
          { prompt: ctx.name('too many images'), referenceImageUrls: [...IMAGES, 'https://images.example.com/21.png'] },
        ],
        ['a reference image that is not a URI', { prompt: ctx.name('bad image'), referenceImageUrls: ['not a uri'] }],
        [
          'referenceImageUrls that is not an array',
          { prompt: ctx.name('bad images'), referenceImageUrls: 'https://images.example.com/1.png' },
        ],
        ['a model that is not one of the two', { prompt: ctx.name('bad model'), model: `conformance-no-such-model-${ctx.rng.token(6)}` }],
      ]
      for (const [what, body] of refused) {
        const exchange = await ctx.send(main, { operationId: 'generateProject', body })
        if (!ctx.expectError(exchange, 400, what.includes('images') || what.includes('prompt') ? Clauses.limits : GENERATE)) {
          ctx.note(`accepted: ${what}`)
          if (exchange.status === 200)
            ctx.created((exchange.json as { projectSlug?: string }).projectSlug, { actor: main, purpose: `generated: ${what}` })
        }
      }
      const template = await ctx.send(main, {
        operationId: 'generateProject',
        body: { prompt: ctx.name('missing template'), templateId: `conformance-missing-${ctx.rng.token(10)}` },
      })
      ctx.expectError(template, 404, GENERATE)
    },
  }),
  scenario({
    id: 'generation.template-scope',
    title: 'Another team’s template is 404 on generate',
    // The template comes from --other-team-template, or from the other key's team (made there with a control plane).
    needs: needs('generation'),
    covers: [
      ['generateProject', 404],
      ['listTemplates', 200],
    ],
    async run(ctx) {
      const main = await ctx.main()
      const given = ctx.target.fixtures.otherTeamTemplate
      let foreign = given
      if (foreign === undefined) {
        if (!needMet(ctx.target, 'otherTeamKey'))
          return ctx.skip(
            'needs another team’s template: pass --other-team-template ID (a template of a team the main key is not scoped to), or --other-team-key whose team has one',
          )
        const other = await ctx.other()
        const own = new Set((await ctx.ok(main, 'listTemplates', { query: { limit: 100 } })).templates.map((t) => t.id))
        if (ctx.target.control !== undefined) {
          // The other key's team: known when the kit made the key, else the teams GET /teams lists for it, less the main key's.
          let teams = other.teamId === undefined ? [] : [other.teamId]
          if (teams.length === 0) {
            const mine = new Set((await ctx.ok(main, 'listTeams')).teams.map((t) => t.id))
            teams = (await ctx.ok(other, 'listTeams')).teams.map((t) => t.id).filter((id) => !mine.has(id))
          }
          for (const teamId of teams.slice(0, 3))
            await ctx.control.createTemplate({ teamId, name: ctx.name('foreign template').slice(0, 200), slideCount: 1 })
        }
        const { templates } = await ctx.ok(other, 'listTemplates', { query: { limit: 100 } })
        foreign = templates.find((t) => !own.has(t.id))?.id
        if (foreign === undefined)
          return ctx.skip(
            'the other key’s team has no template the main key’s team lacks: pass --other-team-template ID (a template of a team the main key is not scoped to)',
          )
      }
      const exchange = await ctx.send(main, {
        operationId: 'generateProject',
        body: { prompt: ctx.name('foreign template'), templateId: foreign },
      })
      ctx.expectError(exchange, 404, GENERATE)
      if (exchange.status === 200)
        ctx.created((exchange.json as { projectSlug?: string }).projectSlug, {
          actor: main,
          purpose: 'generated with another team’s template',
        })
    },
  }),
  scenario({
    id: 'credits.insufficient',
    title: 'A team without credits gets 402 on generate',
    needs: needs('generation', 'noCreditsKey'),
    covers: [['generateProject', 402]],
    async run(ctx) {
      const broke = await ctx.noCreditsKey()
      const exchange = await ctx.send(broke, { operationId: 'generateProject', body: { prompt: ctx.name('no credits') } })
      ctx.expectError(exchange, 402, GENERATE)
      if (exchange.status === 200)
        ctx.created((exchange.json as { projectSlug?: string }).projectSlug, { actor: broke, purpose: 'generated without credits' })
    },
  }),
]
