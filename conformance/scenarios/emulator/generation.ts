/** Emulator checks of generation: durations, models, credits, magic prompts, what completion does, timing. */
import { contract } from '../../clauses.js'
import { needs, scenario } from '../support.js'

const CHOICES = contract('§4 › choices for "not shown" items')

const emulatorScenario = (definition: Parameters<typeof scenario>[0]) =>
  scenario({ kind: 'emulator', needs: needs('emulator', 'controlPlane'), ...definition })

export const emulatorGenerationScenarios = [
  emulatorScenario({
    id: 'emulator.generation',
    title:
      'Generation: model ids fast and quality, estimated durations, credits charged at acceptance and refunded on failure, magic prompts, completion publishes',
    // Alone: it counts on jobs still processing, and other scenarios' waits move the shared clock.
    phase: 'last',
    async run(ctx) {
      const account = await ctx.freshAccount('generation', 3)
      const { templateId } = await ctx.control.createTemplate({ teamId: account.teamId!, name: 'House', slideCount: 3 })
      const STARTED = 'estimatedDuration is "240 seconds" from scratch, "120 seconds" with a template; models fast and quality'
      const CHARGED = 'credits are charged at acceptance (not by a dispatch error, which is 502)'
      const started = await ctx.step(STARTED, async () => {
        const scratch = await ctx.ok(account, 'generateProject', { body: { prompt: 'From scratch', model: 'fast' } })
        ctx.created(scratch.projectSlug, { actor: account, purpose: 'from scratch' })
        ctx.equal('MUST', CHOICES, 'estimatedDuration from scratch is "240 seconds"', scratch.estimatedDuration, '240 seconds')
        const templated = await ctx.ok(account, 'generateProject', { body: { prompt: 'From a template', model: 'quality', templateId } })
        ctx.created(templated.projectSlug, { actor: account, purpose: 'from a template' })
        ctx.equal('MUST', CHOICES, 'estimatedDuration with a template is "120 seconds"', templated.estimatedDuration, '120 seconds')
        return { scratch, templated }
      })
      await ctx.step('a model other than fast or quality is 400', async () => {
        const badModel = await ctx.send(account, { operationId: 'generateProject', body: { prompt: 'x', model: 'turbo' } })
        ctx.equal('MUST', CHOICES, 'a model other than fast or quality is 400', badModel.status, 400, badModel)
      })
      const failing = await ctx.step(
        CHARGED,
        async () => {
          // 3 credits, 2 charged at acceptance: one left. A dispatch error charges nothing.
          const dispatch = await ctx.call(account, 'generateProject', { body: { prompt: 'emulator:dispatch-error now' } })
          ctx.equal('MUST', CHOICES, 'a dispatch-error prompt answers 502', dispatch.status, 502, dispatch)
          const failing = await ctx.ok(account, 'generateProject', { body: { prompt: 'emulator:fail on purpose' } })
          ctx.created(failing.projectSlug, { actor: account, purpose: 'failing' })
          const none = await ctx.call(account, 'generateProject', { body: { prompt: 'no credit left' } })
          ctx.equal(
            'MUST',
            CHOICES,
            'credits are charged at acceptance (and not by a dispatch error): a fourth job on 3 credits is 402',
            none.status,
            402,
            none,
          )
          return failing
        },
        { after: [STARTED] },
      )
      await ctx.step(
        'an emulator:fail prompt ends failed with an error, and its credit is refunded',
        async () => {
          const failed = await ctx.waitForJob(account, failing!.jobId)
          ctx.equal('MUST', CHOICES, 'an emulator:fail prompt ends failed', failed?.status, 'failed')
          ctx.must(CHOICES, 'a failed job has an error text', typeof failed?.error === 'string' && failed.error.length > 0, {
            actual: failed,
          })
          const refunded = await ctx.call(account, 'generateProject', { body: { prompt: 'the refund pays for this' } })
          ctx.equal('MUST', CHOICES, 'a failed job’s credit is refunded', refunded.status, 200, refunded)
          ctx.created((refunded.json as { projectSlug?: string }).projectSlug, { actor: account, purpose: 'refunded' })
        },
        { after: [CHARGED] },
      )
      await ctx.step(
        'a template job completes with publishedUrl and finalDuration, one slide per template slide, and publishes its project',
        async () => {
          const done = await ctx.waitForJob(account, started!.templated.jobId)
          ctx.equal('MUST', CHOICES, 'a job completes', done?.status, 'completed')
          ctx.must(
            CHOICES,
            'a completed job has publishedUrl and finalDuration "N seconds"',
            typeof done?.publishedUrl === 'string' && /^\d+ seconds$/.test(done?.finalDuration ?? ''),
            { actual: done },
          )
          const slides = await ctx.ok(account, 'listSlides', { params: { slug: started!.templated.projectSlug! } })
          ctx.equal('MUST', CHOICES, 'a template job makes one slide per template slide', slides.slides.length, 3)
          const detail = await ctx.ok(account, 'getProject', { params: { slug: started!.templated.projectSlug! } })
          ctx.must(
            CHOICES,
            'a completed job’s project is published',
            detail.publishedAt !== null && detail.publishedUrl === done?.publishedUrl,
            { actual: detail },
          )
        },
        { after: [STARTED] },
      )
      await ctx.step(
        'a job from scratch makes 4 to 8 slides',
        async () => {
          const fromScratch = await ctx.waitForJob(account, started!.scratch.jobId)
          const count = (await ctx.ok(account, 'listSlides', { params: { slug: started!.scratch.projectSlug! } })).slides.length
          ctx.must(CHOICES, 'a job from scratch makes 4 to 8 slides', fromScratch?.status === 'completed' && count >= 4 && count <= 8, {
            actual: count,
          })
        },
        { after: [STARTED] },
      )
    },
  }),
  emulatorScenario({
    id: 'emulator.generation-timing',
    title: 'A job completes at createdAt + nominal × time scale (±20%), on the emulator clock, whether polled or not',
    phase: 'last',
    async run(ctx) {
      await ctx.step('a job is processing before 80% of its nominal time and completed after 120%, polled or not', async () => {
        const account = await ctx.freshAccount('timing', 2)
        const { timeScale } = await ctx.control.clock()
        const job = await ctx.ok(account, 'generateProject', { body: { prompt: 'Timing' } })
        ctx.created(job.projectSlug, { actor: account, purpose: 'timing' })
        const nominal = 240_000 * timeScale
        await ctx.sleep(Math.floor(nominal * 0.79))
        const early = await ctx.ok(account, 'getJobStatus', { params: { jobId: job.jobId } })
        if (timeScale > 0) ctx.equal('MUST', CHOICES, 'before 80% of the nominal time the job is processing', early.status, 'processing')
        await ctx.sleep(Math.ceil(nominal * 0.42) + 1)
        const journal = await ctx.control.listRequests({ operationId: 'getJobStatus', limit: 1 })
        const late = await ctx.ok(account, 'getJobStatus', { params: { jobId: job.jobId } })
        ctx.equal('MUST', CHOICES, 'after 120% of the nominal time the job has completed', late.status, 'completed')
        ctx.must(CHOICES, 'the journal records the polls', journal.requests.length === 1, { actual: journal.requests.length })
      })
    },
  }),
]
