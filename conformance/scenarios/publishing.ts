/** The publication state machine and its effect on detail, list and URL configuration. */
import { Clauses, contract, endpoint } from '../clauses.js'
import { type ScenarioContext, SkipScenario } from '../context.js'
import { createProject, listed, needs, projectWithSlides, scenario } from './support.js'

const PAGES = contract('§6 › pages')

/** Opens a published site as a visitor would: a GET without a key, through the fetch the API is reached with. */
async function openSite(ctx: ScenarioContext, url: string): Promise<{ status: number } | { error: string }> {
  try {
    // A site that never answers is not waited on for long: it is noted, not judged.
    const response = await ctx.target.fetch(url, { method: 'GET', redirect: 'manual', signal: AbortSignal.timeout(15_000) })
    await response.body?.cancel()
    return { status: response.status }
  } catch (error) {
    return { error: (error as Error)?.message ?? String(error) }
  }
}

const statusOf = (answer: { status: number } | { error: string }) => ('status' in answer ? answer.status : `no answer (${answer.error})`)

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
        // The site: reachable while published (the spec: "publicly reachable at its live URL"), gone once unpublished.
        // The emulator serves it and answers 404 once unpublished (contract §6): MUSTs there. A deployment's site may
        // sit behind a CDN or a host the kit cannot reach: a SHOULD, judged only when the site answered while published.
        const site = answer.publishedUrl ?? detail.publishedUrl
        const onEmulator = ctx.target.emulatorChecks
        let live = site === null ? undefined : await openSite(ctx, site)
        if (site !== null && live !== undefined && 'error' in live) {
          // No answer at all (a public URL the kit cannot reach from where it runs): nothing to judge, on any target.
          ctx.note(`the published site ${site} did not answer (${live.error}): whether it is served was not judged`)
          live = undefined
        }
        if (site !== null && live !== undefined) {
          const reached = 'status' in live && live.status >= 200 && live.status < 300
          if (onEmulator)
            ctx.must(PAGES, `the published site answers 200 while published (${round})`, reached, { expected: 200, actual: statusOf(live) })
          else if (!reached)
            ctx.note(
              `the published site ${site} answered ${statusOf(live)} while published: whether it goes away on unpublish was not judged`,
            )
        }

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
        if (site !== null && live !== undefined && (onEmulator || ('status' in live && live.status >= 200 && live.status < 300))) {
          const gone = await openSite(ctx, site)
          ctx.check(
            onEmulator ? 'MUST' : 'SHOULD',
            onEmulator ? PAGES : Clauses.publication,
            onEmulator ? 'the published site is 404 once unpublished' : 'the published site is no longer served once unpublished',
            onEmulator ? statusOf(gone) === 404 : !('status' in gone && gone.status >= 200 && gone.status < 300),
            { expected: onEmulator ? 404 : 'not a 2xx', actual: `${statusOf(gone)} at ${site}` },
          )
        }
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
