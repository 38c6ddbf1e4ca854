/** Reads every key can make: teams, templates, the project list and detail, and what a missing resource answers. */
import { Clauses, endpoint } from '../clauses.js'
import type { Actor } from '../actors.js'
import type { ScenarioContext } from '../context.js'
import { createProject, missingSlug, needs, PROJECT_SLUG_OPERATIONS, scenario } from './support.js'

/**
 * A project to read that nothing else changes meanwhile: a new one when
 * writes are allowed (other scenarios may be changing the ones they made),
 * else the first listed (no scenario writes then).
 */
async function someProject(ctx: ScenarioContext, main: Actor): Promise<string> {
  if (ctx.has('writes')) return (await createProject(ctx, main, 'read')).slug
  const list = await ctx.ok(main, 'listProjects', { query: { limit: 1 } })
  if (list.projects[0] !== undefined) return list.projects[0].slug
  return ctx.skip('the key can access no project, and creating one needs --allow-writes')
}

export const readScenarios = [
  scenario({
    id: 'teams.list',
    title: 'GET /teams lists the user’s teams',
    covers: [['listTeams', 200]],
    async run(ctx) {
      const main = await ctx.main()
      const { teams } = await ctx.ok(main, 'listTeams')
      ctx.must(endpoint('listTeams'), 'the key’s owner belongs to at least the key’s team', teams.length >= 1, { actual: teams.length })
      ctx.must(Clauses.team, 'team ids are unique', new Set(teams.map((t) => t.id)).size === teams.length, {
        actual: teams.map((t) => t.id),
      })
      ctx.should(Clauses.authentication, 'at most one team is marked isPersonal', teams.filter((t) => t.isPersonal).length <= 1, {
        actual: teams.filter((t) => t.isPersonal).map((t) => t.id),
      })
    },
  }),
  scenario({
    id: 'templates.list',
    title: 'GET /projects/templates lists templates with the default and bounded limit',
    covers: [
      ['listTemplates', 200],
      ['listTemplates', 400],
    ],
    async run(ctx) {
      const main = await ctx.main()
      const page = await ctx.ok(main, 'listTemplates')
      ctx.must(Clauses.limits, 'the default page holds at most 50 templates', page.templates.length <= 50, {
        actual: page.templates.length,
      })
      const one = await ctx.ok(main, 'listTemplates', { query: { limit: 1 } })
      ctx.must(Clauses.limits, 'limit=1 gives at most 1 template', one.templates.length <= 1, { actual: one.templates.length })
      await ctx.ok(main, 'listTemplates', { query: { limit: 100 } })
      for (const limit of [0, 101]) {
        const exchange = await ctx.call(main, 'listTemplates', { query: { limit } })
        ctx.must(
          Clauses.limits,
          `limit=${limit} is refused or held within 1–100`,
          exchange.status === 400 ||
            (exchange.status === 200 && ((exchange.json as { templates?: unknown[] } | undefined)?.templates?.length ?? 0) <= 100),
          {
            actual: exchange.status,
            exchange,
          },
        )
        if (exchange.status === 400) ctx.expectError(exchange, 400)
        else
          ctx.should(Clauses.limits, `limit=${limit} is outside 1–100: a 400 is expected`, false, {
            expected: 400,
            actual: exchange.status,
            exchange,
          })
      }
    },
  }),
  scenario({
    id: 'projects.list',
    title: 'GET /projects lists accessible projects, 20 by default',
    covers: [
      ['listProjects', 200],
      ['createProject', 200],
    ],
    async run(ctx) {
      const main = await ctx.main()
      // A list with something in it shows more than an empty one.
      if (ctx.has('writes') && (await ctx.ok(main, 'listProjects', { query: { limit: 1 } })).projects.length === 0)
        await createProject(ctx, main, 'listed')
      const exchange = await ctx.call(main, 'listProjects')
      const page = ctx.expectOk<'listProjects'>(exchange)
      ctx.must(Clauses.limits, 'the default page holds at most 20 projects', page.projects.length <= 20, {
        actual: page.projects.length,
        exchange,
      })
      if (page.nextCursor !== undefined) {
        ctx.should(Clauses.limits, 'a page followed by more results is full (20 by default)', page.projects.length === 20, {
          actual: page.projects.length,
          exchange,
        })
      }
    },
  }),
  scenario({
    id: 'projects.detail',
    title: 'GET /projects/{slug} has the list fields and the detail fields',
    covers: [
      ['getProject', 200],
      ['getProjectConfig', 200],
      ['getProjectUrl', 200],
      ['listSlides', 200],
      ['createProject', 200],
      ['listProjects', 200],
    ],
    async run(ctx) {
      const main = await ctx.main()
      const slug = await someProject(ctx, main)
      const detail = await ctx.ok(main, 'getProject', { params: { slug } })
      ctx.must(Clauses.projectDetail, 'the detail is the project asked for', detail.slug === slug, { expected: slug, actual: detail.slug })
      if (detail.publishedAt === null) {
        ctx.must(Clauses.projectDetail, 'publishedUrl is null when the project is not published', detail.publishedUrl === null, {
          actual: detail.publishedUrl,
        })
      }
      const list = await ctx.ok(main, 'listProjects', { query: { limit: 100 } })
      const item = list.projects.find((p) => p.slug === slug)
      if (item !== undefined) {
        for (const key of ['id', 'name', 'publishedAt', 'updatedAt', 'editorUrl'] as const) {
          ctx.must(Clauses.projectDetail, `the detail’s ${key} is the list item’s`, detail[key] === item[key], {
            expected: item[key],
            actual: detail[key],
          })
        }
      }
      await ctx.ok(main, 'getProjectConfig', { params: { slug } })
      await ctx.ok(main, 'getProjectUrl', { params: { slug } })
      const slides = await ctx.ok(main, 'listSlides', { params: { slug } })
      ctx.must(
        Clauses.slide,
        'slide ids are unique within a project',
        new Set(slides.slides.map((s) => s.id)).size === slides.slides.length,
        {
          actual: slides.slides.map((s) => s.id),
        },
      )
    },
  }),
  scenario({
    id: 'projects.not-found',
    title: 'A missing project or job is 404 on every operation that names one',
    covers: [...PROJECT_SLUG_OPERATIONS.map((id) => [id, 404] as const), ['getJobStatus', 404]],
    async run(ctx) {
      const main = await ctx.main()
      const slug = missingSlug(ctx)
      const params = { params: { slug } }
      ctx.expectError(await ctx.call(main, 'getProject', params), 404)
      ctx.expectError(await ctx.call(main, 'getProjectConfig', params), 404)
      ctx.expectError(await ctx.call(main, 'getProjectUrl', params), 404)
      ctx.expectError(await ctx.call(main, 'renameProject', { params: { slug }, body: { name: 'never' } }), 404)
      ctx.expectError(await ctx.call(main, 'updateProjectConfig', { params: { slug }, body: { config: { layout: 'SLIDES' } } }), 404)
      ctx.expectError(await ctx.call(main, 'duplicateProject', params), 404)
      ctx.expectError(await ctx.call(main, 'publishProject', params), 404)
      ctx.expectError(await ctx.call(main, 'unpublishProject', params), 404)
      ctx.expectError(await ctx.call(main, 'getJobStatus', { params: { jobId: `conformance-missing-${ctx.rng.token(12)}` } }), 404)
    },
  }),
  scenario({
    id: 'slides.not-found',
    title: 'Slide operations on a missing project answer an error (statuses not shown by the spec)',
    covers: [['listSlides', 404]],
    async run(ctx) {
      const main = await ctx.main()
      const exchange = await ctx.call(main, 'listSlides', { params: { slug: missingSlug(ctx) } })
      ctx.expectError(exchange, 404, endpoint('listSlides'), 'SHOULD')
    },
  }),
  scenario({
    id: 'projects.list-published-filter-shape',
    title: 'published=true lists only published projects, published=false only unpublished',
    needs: needs(),
    covers: [['listProjects', 200]],
    async run(ctx) {
      const main = await ctx.main()
      const published = await ctx.ok(main, 'listProjects', { query: { published: true, limit: 100 } })
      ctx.must(
        endpoint('listProjects'),
        'published=true lists only published projects',
        published.projects.every((p) => p.publishedAt !== null),
        {
          actual: published.projects.filter((p) => p.publishedAt === null).map((p) => p.slug),
        },
      )
      const unpublished = await ctx.ok(main, 'listProjects', { query: { published: false, limit: 100 } })
      ctx.must(
        endpoint('listProjects'),
        'published=false lists only unpublished projects',
        unpublished.projects.every((p) => p.publishedAt === null),
        {
          actual: unpublished.projects.filter((p) => p.publishedAt !== null).map((p) => p.slug),
        },
      )
    },
  }),
]
