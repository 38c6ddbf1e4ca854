/** The publication state machine and its effect on detail, list and URL configuration. */
import { Clauses, endpoint } from '../clauses.js'
import { SkipScenario } from '../context.js'
import { createProject, listed, needs, projectWithSlides, scenario } from './support.js'

export const publishingScenarios = [
  scenario({
    id: 'publishing.state-machine',
    title: 'Publish and unpublish move detail between published and unpublished; slides are kept; it can be published again',
    needs: needs('writes'),
    covers: [
      ['publishProject', 200],
      ['unpublishProject', 200],
      ['getProjectUrl', 200],
      ['getProject', 200],
      ['createProject', 200],
      ['listSlides', 200],
      ['createSlide', 200],
    ],
    async run(ctx) {
      const main = await ctx.main()
      // A project with slides shows that they are kept; without one, a blank project still shows the states.
      const { slug, slides } = await projectWithSlides(ctx, main, 'publish').catch(async (error: unknown) => {
        if (error instanceof SkipScenario) return { slug: (await createProject(ctx, main, 'publish')).slug, slides: [] }
        throw error
      })
      // Start from unpublished (a duplicate already is).
      await ctx.ok(main, 'unpublishProject', { params: { slug } })
      const before = await ctx.ok(main, 'getProject', { params: { slug } })
      ctx.must(
        Clauses.publication,
        'an unpublished project has publishedAt and publishedUrl null',
        before.publishedAt === null && before.publishedUrl === null,
        {
          actual: { publishedAt: before.publishedAt, publishedUrl: before.publishedUrl },
        },
      )

      for (const round of ['first', 'again'] as const) {
        const publish = await ctx.call(main, 'publishProject', { params: { slug } })
        const answer = ctx.expectOk<'publishProject'>(publish)
        ctx.must(
          endpoint('publishProject'),
          `publishing (${round}) answers success and published: true`,
          answer.success === true && answer.published === true,
          { actual: answer, exchange: publish },
        )
        const detailExchange = await ctx.call(main, 'getProject', { params: { slug } })
        const detail = ctx.expectOk<'getProject'>(detailExchange)
        ctx.must(Clauses.publication, `after publishing (${round}), publishedAt is set`, detail.publishedAt !== null, {
          actual: detail.publishedAt,
          exchange: detailExchange,
        })
        ctx.equal(
          'MUST',
          Clauses.projectDetail,
          'detail’s publishedUrl is the one publish answered',
          detail.publishedUrl,
          answer.publishedUrl,
          detailExchange,
        )
        await ctx.ok(main, 'getProjectUrl', { params: { slug } })

        const unpublish = await ctx.call(main, 'unpublishProject', { params: { slug } })
        const off = ctx.expectOk<'unpublishProject'>(unpublish)
        ctx.must(
          endpoint('unpublishProject'),
          'unpublishing answers success: true and published: false',
          off.success === true && off.published === false,
          { actual: off, exchange: unpublish },
        )
        const afterExchange = await ctx.call(main, 'getProject', { params: { slug } })
        const after = ctx.expectOk<'getProject'>(afterExchange)
        ctx.must(
          Clauses.publication,
          'after unpublishing, publishedAt and publishedUrl are null',
          after.publishedAt === null && after.publishedUrl === null,
          {
            actual: { publishedAt: after.publishedAt, publishedUrl: after.publishedUrl },
            exchange: afterExchange,
          },
        )
        const kept = await ctx.ok(main, 'listSlides', { params: { slug } })
        ctx.equal(
          'MUST',
          Clauses.publication,
          'unpublishing keeps the slides',
          kept.slides.map((s) => s.id).sort(),
          slides.map((s) => s.id).sort(),
        )
      }
    },
  }),
  scenario({
    id: 'publishing.list-filter',
    title: 'The published filter follows publish and unpublish',
    needs: needs('writes'),
    phase: 'quiet',
    covers: [
      ['listProjects', 200],
      ['publishProject', 200],
      ['unpublishProject', 200],
      ['createProject', 200],
    ],
    async run(ctx) {
      const main = await ctx.main()
      const published = await createProject(ctx, main, 'listed published')
      const draft = await createProject(ctx, main, 'listed draft')
      await ctx.ok(main, 'publishProject', { params: { slug: published.slug } })
      const yes = await listed(ctx, main, published.slug, { published: true })
      if (yes.complete)
        ctx.must(endpoint('listProjects'), 'a published project is listed with published=true', yes.found, { exchange: yes.last })
      const draftInPublished = await listed(ctx, main, draft.slug, { published: true })
      if (draftInPublished.complete)
        ctx.must(endpoint('listProjects'), 'an unpublished project is not listed with published=true', !draftInPublished.found, {
          exchange: draftInPublished.last,
        })
      const no = await listed(ctx, main, draft.slug, { published: false })
      if (no.complete)
        ctx.must(endpoint('listProjects'), 'an unpublished project is listed with published=false', no.found, { exchange: no.last })
      const all = await listed(ctx, main, published.slug)
      if (all.complete) ctx.must(endpoint('listProjects'), 'an owned project is listed without a filter', all.found, { exchange: all.last })

      await ctx.ok(main, 'unpublishProject', { params: { slug: published.slug } })
      const gone = await listed(ctx, main, published.slug, { published: true })
      if (gone.complete)
        ctx.must(Clauses.publication, 'an unpublished project leaves the published=true list', !gone.found, { exchange: gone.last })
      const back = await listed(ctx, main, published.slug, { published: false })
      if (back.complete)
        ctx.must(Clauses.publication, 'an unpublished project is listed with published=false again', back.found, { exchange: back.last })
    },
  }),
]
