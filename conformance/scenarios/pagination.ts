/**
 * Cursor pagination, walked while nothing is in flight for the account: no
 * repeats, no gaps, `nextCursor` absent at the end, `limit` honoured, and the
 * `published` filter.
 */
import { Clauses, endpoint } from '../clauses.js'
import type { Actor } from '../actors.js'
import type { ScenarioContext } from '../context.js'
import { createProject, expectNoRepeats, scenario, walk } from './support.js'

/**
 * Makes sure the account can show a walk something: at least `count`
 * projects, some published and some not, creating them when it may.
 */
async function atLeast(ctx: ScenarioContext, main: Actor, count: number, published: number): Promise<void> {
  const first = await ctx.ok(main, 'listProjects', { query: { limit: 100 } })
  const have = first.projects.length
  const havePublished = first.projects.some((p) => p.publishedAt !== null)
  const haveDraft = first.projects.some((p) => p.publishedAt === null)
  if (have >= count && havePublished && haveDraft) return
  if (!ctx.has('writes')) {
    if (have < 2) ctx.skip('the key can access fewer than 2 projects; creating some needs --allow-writes')
    return
  }
  const toPublish = havePublished ? 0 : published
  const toCreate = Math.max(count - have, toPublish + (haveDraft ? 0 : 1))
  for (let i = 0; i < toCreate; i++) {
    const { slug } = await createProject(ctx, main, `page ${i + 1}`)
    if (i < toPublish) await ctx.ok(main, 'publishProject', { params: { slug } })
  }
}

export const paginationScenarios = [
  scenario({
    id: 'pagination.projects',
    title: 'Walking the project list: no repeats, no gaps, nextCursor absent at the end, limit honoured',
    phase: 'quiet',
    covers: [
      ['listProjects', 200],
      ['listProjects', 400],
      ['createProject', 200],
      ['publishProject', 200],
    ],
    async run(ctx) {
      const main = await ctx.main()
      await atLeast(ctx, main, 7, 2)
      const reference = await walk(ctx, main, 'listProjects', { limit: 100 })
      if (!reference.complete) ctx.abort('the reference walk (limit=100) did not finish')
      expectNoRepeats(ctx, reference.items, 'limit=100 walk', reference.exchanges.at(-1))
      const total = reference.items.length
      const limit = Math.max(1, Math.min(100, Math.ceil(total / 4)))
      const small = await walk(ctx, main, 'listProjects', { limit })
      if (!small.complete) ctx.abort(`the limit=${limit} walk did not finish`)
      expectNoRepeats(ctx, small.items, `limit=${limit} walk`, small.exchanges.at(-1))
      const referenceIds = new Set(reference.items.map((p) => p.id))
      const missing = [...referenceIds].filter((id) => !small.items.some((p) => p.id === id))
      const extra = small.items.filter((p) => !referenceIds.has(p.id)).map((p) => p.id)
      ctx.must(Clauses.pagination, `a limit=${limit} walk lists every project once: no gaps`, missing.length === 0 && extra.length === 0, {
        expected: `${total} projects`,
        actual: `missing ${missing.length} (${missing.slice(0, 3).join(', ')}), extra ${extra.length}`,
        exchange: small.exchanges.at(-1)!,
      })
      if (total > limit)
        ctx.must(Clauses.pagination, `${total} projects at limit=${limit} take more than one page`, small.pages > 1, {
          actual: small.pages,
        })
      const last = small.exchanges.at(-1)!
      ctx.must(
        Clauses.pagination,
        'the last page has a project or is the only page (no nextCursor on the page before an empty one)',
        small.pages === 1 || ((last.json as { projects?: unknown[] }).projects?.length ?? 0) > 0,
        {
          expected: 'nextCursor absent on the last page with results',
          actual: `page ${small.pages} is empty`,
          exchange: last,
        },
      )

      // The default limit is 20.
      const defaults = await ctx.call(main, 'listProjects')
      const page = ctx.expectOk<'listProjects'>(defaults)
      ctx.must(Clauses.limits, 'without limit, a page holds at most 20 projects', page.projects.length <= 20, {
        actual: page.projects.length,
        exchange: defaults,
      })
      if (total > 20)
        ctx.should(Clauses.limits, 'without limit, a page of a longer list holds 20', page.projects.length === 20, {
          actual: page.projects.length,
          exchange: defaults,
        })
      ctx.must(
        Clauses.pagination,
        'nextCursor is present exactly when more projects follow',
        (page.nextCursor !== undefined) === total > page.projects.length,
        {
          actual: { nextCursor: page.nextCursor ?? '(absent)', total, onPage: page.projects.length },
          exchange: defaults,
        },
      )
      // Both ends of limit.
      const one = await ctx.call(main, 'listProjects', { query: { limit: 1 } })
      ctx.must(Clauses.limits, 'limit=1 gives one project', ctx.expectOk<'listProjects'>(one).projects.length === Math.min(1, total), {
        exchange: one,
      })
      ctx.expectOk(await ctx.call(main, 'listProjects', { query: { limit: 100 } }))
      for (const limit of [0, 101]) {
        const exchange = await ctx.call(main, 'listProjects', { query: { limit } })
        const count = (exchange.json as { projects?: unknown[] } | undefined)?.projects?.length ?? 0
        ctx.must(
          Clauses.limits,
          `limit=${limit} is refused or held within 1–100`,
          exchange.status === 400 || (exchange.status === 200 && count <= 100),
          { actual: exchange.status, exchange },
        )
        if (exchange.status === 400) ctx.expectError(exchange, 400)
        else
          ctx.should(Clauses.limits, `limit=${limit} is outside 1–100: a 400 is expected`, false, {
            expected: 400,
            actual: exchange.status,
            exchange,
          })
      }
      const text = await ctx.send(main, { operationId: 'listProjects', query: 'limit=twenty' })
      ctx.expectError(text, 400, endpoint('listProjects'), 'SHOULD')
    },
  }),
  scenario({
    id: 'pagination.published',
    title: 'published=true and published=false split the list: disjoint, complete, each item in the right state',
    phase: 'quiet',
    covers: [
      ['listProjects', 200],
      ['createProject', 200],
      ['publishProject', 200],
    ],
    async run(ctx) {
      const main = await ctx.main()
      await atLeast(ctx, main, 5, 2)
      const all = await walk(ctx, main, 'listProjects', { limit: 100 })
      // A few pages each, whatever the account's size.
      const limit = Math.max(1, Math.min(100, Math.ceil(all.items.length / 6)))
      const yes = await walk(ctx, main, 'listProjects', { limit, published: true })
      const no = await walk(ctx, main, 'listProjects', { limit, published: false })
      if (!all.complete || !yes.complete || !no.complete) ctx.abort('a walk did not finish')
      ctx.must(
        endpoint('listProjects'),
        'published=true lists only published projects',
        yes.items.every((p) => p.publishedAt !== null),
        {
          actual: yes.items.filter((p) => p.publishedAt === null).map((p) => p.slug),
          exchange: yes.exchanges[0]!,
        },
      )
      ctx.must(
        endpoint('listProjects'),
        'published=false lists only unpublished projects',
        no.items.every((p) => p.publishedAt === null),
        {
          actual: no.items.filter((p) => p.publishedAt !== null).map((p) => p.slug),
          exchange: no.exchanges[0]!,
        },
      )
      expectNoRepeats(ctx, yes.items, 'published=true walk')
      expectNoRepeats(ctx, no.items, 'published=false walk')
      const split = [...yes.items, ...no.items].map((p) => p.id).sort()
      ctx.equal(
        'MUST',
        endpoint('listProjects'),
        'published=true and published=false together list every project once',
        split,
        all.items.map((p) => p.id).sort(),
      )
    },
  }),
  scenario({
    id: 'pagination.templates',
    title: 'Walking the template list: no repeats, no gaps, limit honoured',
    covers: [['listTemplates', 200]],
    async run(ctx) {
      const main = await ctx.main()
      if (ctx.target.control !== undefined && main.teamId !== undefined) {
        for (const name of ['A', 'B', 'C'])
          await ctx.control.createTemplate({ teamId: main.teamId, name: ctx.name(`template ${name}`).slice(0, 200), slideCount: 2 })
      }
      const reference = await walk(ctx, main, 'listTemplates', { limit: 100 })
      if (!reference.complete) ctx.abort('the reference walk did not finish')
      if (reference.items.length < 2) ctx.skip('the key’s team has fewer than 2 templates: nothing to page through')
      const small = await walk(ctx, main, 'listTemplates', { limit: 1 })
      if (!small.complete) ctx.abort('the limit=1 walk did not finish')
      expectNoRepeats(ctx, small.items, 'limit=1 template walk')
      ctx.equal(
        'MUST',
        Clauses.pagination,
        'a limit=1 walk lists every template once',
        small.items.map((t) => t.id).sort(),
        reference.items.map((t) => t.id).sort(),
      )
      ctx.must(Clauses.pagination, 'limit=1 takes one page per template', small.pages >= reference.items.length, { actual: small.pages })
    },
  }),
]
