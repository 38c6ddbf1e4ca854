/** Building blocks the scenarios share: projects to work on, list walks. */
import type { OperationId } from '../../src/client/index.js'
import { Clauses, endpoint } from '../clauses.js'
import type { Actor } from '../actors.js'
import type { ScenarioContext } from '../context.js'
import type { Scenario } from '../context.js'
import type { Exchange, Need } from '../types.js'
import { FACTS, type SpecFact } from '../facts/table.js'

/** The table of facts' row on a page's size: the walks' own check states it the same way, under the same rule. */
const WITHIN_LIMIT = FACTS.find((fact) => fact.id === 'list.within-limit') as SpecFact

/** Every non-extension operation (the spec's own). */
export const SPEC_OPERATIONS: OperationId[] = [
  'generateProject',
  'getJobStatus',
  'createProject',
  'listProjects',
  'listTemplates',
  'getProject',
  'renameProject',
  'getProjectConfig',
  'updateProjectConfig',
  'duplicateProject',
  'publishProject',
  'unpublishProject',
  'getProjectUrl',
  'listTeams',
  'listSlides',
  'updateSlide',
  'startSlideEditing',
  'stopSlideEditing',
]

export { PROJECT_SLUG_OPERATIONS } from '../facts/model.js'

/** A scenario definition, with defaults. */
export function scenario(
  definition: Omit<Scenario, 'kind' | 'covers' | 'needs'> & Partial<Pick<Scenario, 'kind' | 'covers' | 'needs'>>,
): Scenario {
  return { kind: 'spec', covers: [], needs: [], ...definition }
}

export const needs = (...list: Need[]) => list

/** A slug no project has. */
export function missingSlug(ctx: ScenarioContext): string {
  return `conformance-missing-${ctx.rng.token(12)}`
}

export interface CreatedProject {
  id: string
  slug: string
  versionId: string
  editorUrl: string
}

/** Creates a project named after `purpose` and records it. */
export async function createProject(ctx: ScenarioContext, actor: Actor, purpose: string): Promise<CreatedProject> {
  const body = await ctx.ok(actor, 'createProject', { body: { name: ctx.name(purpose) } })
  ctx.created(body.projectSlug)
  return { id: body.projectId, slug: body.projectSlug, versionId: body.projectVersionId, editorUrl: body.editorUrl }
}

/**
 * A project of `actor`'s with at least one slide, that the scenario may change:
 * - with the emulator, a new project with slides added through the create-slide extension;
 * - otherwise a duplicate of an accessible project that has slides (so nothing of the
 *   account's own projects is touched), found once per run on the first pages of the
 *   list, or, with generation allowed, generated.
 * Skips the scenario when none can be had.
 */
export async function projectWithSlides(
  ctx: ScenarioContext,
  actor: Actor,
  purpose: string,
): Promise<{ slug: string; slides: Array<{ id: string; name: string }> }> {
  if (ctx.has('emulator')) {
    const project = await createProject(ctx, actor, purpose)
    for (const name of ['One', 'Two', 'Three']) {
      const exchange = await ctx.call(actor, 'createSlide', { params: { slug: project.slug }, body: { name } })
      ctx.expectOk(exchange)
    }
    const { slides } = await ctx.ok(actor, 'listSlides', { params: { slug: project.slug } })
    return { slug: project.slug, slides }
  }
  // Found once per run and key: an accessible project with slides (or a generated one), never changed itself.
  const source = await ctx.shared(`slides-source:${actor.key}`, () => findProjectWithSlides(ctx, actor, purpose))
  if (source === undefined) {
    return ctx.skip(
      'no project with slides is reachable: the spec does not show how to create slides (give a key with a project that has slides, or --allow-generation)',
    )
  }
  const copy = await ctx.ok(actor, 'duplicateProject', { params: { slug: source } })
  ctx.created(copy.projectSlug, { actor, purpose })
  const copied = await ctx.ok(actor, 'listSlides', { params: { slug: copy.projectSlug } })
  if (copied.slides.length === 0) ctx.abort(`the duplicate of ${source} has no slides`)
  return { slug: copy.projectSlug, slides: copied.slides }
}

/** The slug of an accessible project with slides, from the first pages of the list, else a generated one. */
async function findProjectWithSlides(ctx: ScenarioContext, actor: Actor, purpose: string): Promise<string | undefined> {
  let cursor: string | undefined
  for (let page = 0; page < 3; page++) {
    const list = await ctx.ok(actor, 'listProjects', { query: { limit: 20, ...(cursor === undefined ? {} : { cursor }) } })
    for (const item of list.projects) {
      const slides = await ctx.call(actor, 'listSlides', { params: { slug: item.slug } })
      if (slides.status !== 200) continue
      const body = ctx.expectShape<'listSlides'>(slides)
      if (body !== undefined && body.slides.length > 0) return item.slug
    }
    if (list.nextCursor === undefined) break
    cursor = list.nextCursor
  }
  if (ctx.has('generation')) {
    const job = await ctx.ok(actor, 'generateProject', { body: { prompt: ctx.name(`${purpose}: a short deck about conformance testing`) } })
    ctx.created(job.projectSlug, { actor, purpose: `${purpose} (generated)` })
    const done = await ctx.waitForJob(actor, job.jobId)
    if (done?.status === 'completed' && done.projectSlug !== null) {
      const { slides } = await ctx.ok(actor, 'listSlides', { params: { slug: done.projectSlug } })
      if (slides.length > 0) return done.projectSlug
    }
  }
  return undefined
}

export interface Walk<T> {
  items: T[]
  pages: number
  /** False when the walk stopped early (a failed page, or the page cap). */
  complete: boolean
  exchanges: Exchange[]
}

/**
 * Follows `nextCursor` through a list, checking each page: 200 and a body
 * the spec allows, at most `limit` items, no cursor handed out twice.
 */
export async function walk<Id extends 'listProjects' | 'listTemplates'>(
  ctx: ScenarioContext,
  actor: Actor,
  operationId: Id,
  query: Record<string, string | number | boolean>,
  options: { maxPages?: number } = {},
): Promise<
  Walk<
    Id extends 'listProjects'
      ? { id: string; slug: string; publishedAt: string | null; updatedAt: string; name: string }
      : { id: string; name: string }
  >
> {
  const maxPages = options.maxPages ?? 200
  // biome-ignore lint/suspicious/noExplicitAny: the items are checked against their schema by the caller; the result type says what they are
  const items: any[] = []
  const exchanges: Exchange[] = []
  const cursors = new Set<string>()
  let cursor: string | undefined
  const limit = typeof query.limit === 'number' ? query.limit : operationId === 'listProjects' ? 20 : 50
  for (let page = 1; page <= maxPages; page++) {
    const exchange = await ctx.send(actor, { operationId, query: { ...query, ...(cursor === undefined ? {} : { cursor }) } })
    exchanges.push(exchange)
    if (!ctx.expectStatus(exchange, 200)) return { items, pages: page, complete: false, exchanges }
    const body = ctx.expectShape(exchange) as { nextCursor?: string; projects?: unknown[]; templates?: unknown[] } | undefined
    if (body === undefined) return { items, pages: page, complete: false, exchanges }
    const list = (operationId === 'listProjects' ? body.projects : body.templates) ?? []
    // One rule, one wording: the table of facts' row, which judged the page already when an observer saw it.
    if (!ctx.judged(exchange))
      ctx.must(Clauses.limits, WITHIN_LIMIT.statement, list.length <= limit, {
        rule: WITHIN_LIMIT.id,
        expected: `≤ ${limit}`,
        actual: list.length,
        exchange,
      })
    items.push(...list)
    if (body.nextCursor === undefined) return { items, pages: page, complete: true, exchanges }
    if (
      !ctx.must(Clauses.pagination, 'a cursor is never handed out twice in one walk', !cursors.has(body.nextCursor), {
        actual: body.nextCursor,
        exchange,
      })
    ) {
      return { items, pages: page, complete: false, exchanges }
    }
    cursors.add(body.nextCursor)
    cursor = body.nextCursor
  }
  ctx.note(`the ${operationId} walk stopped after ${maxPages} pages`)
  return { items, pages: maxPages, complete: false, exchanges }
}

/** Checks a walk's items are each listed once. */
export function expectNoRepeats(ctx: ScenarioContext, items: Array<{ id: string }>, what: string, exchange?: Exchange): boolean {
  const seen = new Set<string>()
  const repeated = items
    .filter((item) => {
      if (seen.has(item.id)) return true
      seen.add(item.id)
      return false
    })
    .map((item) => item.id)
  return ctx.must(Clauses.pagination, `${what}: no item is listed twice`, repeated.length === 0, {
    expected: 'each id once',
    actual: `repeated: ${repeated.slice(0, 5).join(', ')}`,
    ...(exchange === undefined ? {} : { exchange }),
  })
}

/** Finds `slug` in a full walk of the list with `query`. */
export async function listed(
  ctx: ScenarioContext,
  actor: Actor,
  slug: string,
  query: Record<string, string | number | boolean> = {},
): Promise<{ found: boolean; complete: boolean; last?: Exchange }> {
  const result = await walk(ctx, actor, 'listProjects', { limit: 100, ...query })
  return { found: result.items.some((item) => item.slug === slug), complete: result.complete, last: result.exchanges.at(-1)! }
}

/** The endpoint clause of an operation. */
export { endpoint }
