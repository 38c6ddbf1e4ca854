/**
 * Sequence defects: servers whose every single answer looks right, but whose
 * answers disagree with each other after a certain sequence. Built from the
 * emulator through its test-only hooks, for the walk's tests.
 */
import { runWalk, type WalkResult } from '../../conformance/walk/walk.js'
import { createHookedEmulator } from '../support/hooked-emulator.js'
import type { PlainOperationHandler, TestHooks } from '../support/test-hooks.js'
import type { EmulatorResponse } from '../../src/core/exchange.js'
import type { PresentationEmulator } from '../../src/index.js'
import { unpublish } from '../../src/model/publishing.js'
import { projectDetail } from '../../src/model/views.js'
import type { OperationHandler } from '../../src/operations/index.js'
import type { OperationId } from '../../src/schemas/index.js'

export interface SequenceDefect {
  name: string
  make(): TestHooks
}

type Wrappers = Partial<{ [Id in OperationId]: (handler: PlainOperationHandler<Id>) => OperationHandler<Id> }>

function wrapping(wrappers: Wrappers): TestHooks['wrapOperation'] {
  return ((id: OperationId, handler: PlainOperationHandler<OperationId>) => {
    const wrap = wrappers[id] as ((h: PlainOperationHandler<OperationId>) => OperationHandler<OperationId>) | undefined
    return wrap === undefined ? handler : wrap(handler)
  }) as TestHooks['wrapOperation']
}

/** Wraps duplicateProject to remember each copy's source: `sourceOf(copyId)`. */
function trackingCopies(): { duplicateProject: Wrappers['duplicateProject']; sourceOf: Map<string, string> } {
  const sourceOf = new Map<string, string>()
  return {
    sourceOf,
    duplicateProject: (handler) => async (ctx) => {
      const result = await handler(ctx)
      sourceOf.set(result.projectId, ctx.world.projectBySlug(ctx.params.slug!)!.id)
      return result
    },
  }
}

function jsonOf(response: EmulatorResponse): any {
  return response.body === null ? undefined : JSON.parse(response.body)
}

/** The projects linked to `id` by duplication (its source and its copies, either way). */
function linked(sourceOf: Map<string, string>, id: string): string[] {
  return [...sourceOf].flatMap(([copy, source]) => (copy === id ? [source] : source === id ? [copy] : []))
}

export const SEQUENCE_DEFECTS: SequenceDefect[] = [
  {
    name: 'a duplicate shares its config with its source',
    make() {
      const { sourceOf, duplicateProject } = trackingCopies()
      // Copies and sources share one config: a write to either shows on the other.
      return {
        wrapOperation: wrapping({
          duplicateProject,
          updateProjectConfig: (handler) => async (ctx) => {
            const result = await handler(ctx)
            const project = ctx.world.projectBySlug(ctx.params.slug!)!
            for (const id of linked(sourceOf, project.id))
              await ctx.world.projects.update(id, (draft) => void (draft.config = structuredClone(project.config)))
            return result
          },
        }),
      }
    },
  },
  {
    name: 'a second rename changes the slug',
    make() {
      const renames = new Map<string, number>()
      return {
        wrapOperation: wrapping({
          renameProject: (handler) => async (ctx) => {
            const result = await handler(ctx)
            const project = ctx.world.projectBySlug(ctx.params.slug!)!
            const count = (renames.get(project.id) ?? 0) + 1
            renames.set(project.id, count)
            if (count === 2) await ctx.world.projects.update(project.id, (draft) => void (draft.slug = `${draft.slug}-renamed`))
            return result
          },
        }),
      }
    },
  },
  {
    name: 'a list cached before a rename',
    make() {
      const cache = new Map<string, unknown>()
      return {
        wrapOperation: wrapping({
          listProjects: (handler) => async (ctx) => {
            // Cached per user and filter (not per page size).
            const key = `${ctx.principal.user.id} ${ctx.query.published ?? ''}`
            const cached = cache.get(key) as Awaited<ReturnType<typeof handler>> | undefined
            const fresh = await handler(ctx)
            // Stale names, fresh membership: the cache only refreshes items it has not seen.
            if (cached !== undefined) {
              const names = new Map(cached.projects.map((p) => [p.id, p.name]))
              const stale = { ...fresh, projects: fresh.projects.map((p) => ({ ...p, name: names.get(p.id) ?? p.name })) }
              cache.set(key, stale)
              return stale
            }
            cache.set(key, fresh)
            return fresh
          },
        }),
      }
    },
  },
  {
    name: 'an unpublished project stays in the published=true list',
    make() {
      const everPublished = new Set<string>()
      return {
        wrapOperation: wrapping({
          publishProject: (handler) => async (ctx) => {
            const result = await handler(ctx)
            everPublished.add(ctx.world.projectBySlug(ctx.params.slug!)!.id)
            return result
          },
          listProjects: (handler) => async (ctx) => {
            const page = await handler(ctx)
            if (ctx.query.published !== 'true' || ctx.query.cursor !== undefined) return page
            const extra = [...everPublished]
              .map((id) => ctx.world.projects.get(id)!)
              .filter((p) => p.teamId === ctx.principal.team.id && p.publishedAt === null && !page.projects.some((x) => x.id === p.id))
              .map((p) => ({
                id: p.id,
                slug: p.slug,
                name: p.name,
                publishedAt: p.updatedAt,
                updatedAt: p.updatedAt,
                editorUrl: `http://127.0.0.1:4010/editor/${p.slug}`,
              }))
            return { ...page, projects: [...extra, ...page.projects].slice(0, ctx.query.limit) }
          },
        }),
      }
    },
  },
  {
    name: 'a config write with tokens drops the other keys',
    make() {
      return {
        wrapOperation: wrapping({
          updateProjectConfig: (handler) => async (ctx) => {
            if (ctx.body.config.tokens !== undefined) {
              const project = ctx.world.projectBySlug(ctx.params.slug!)
              if (project !== undefined) await ctx.world.projects.update(project.id, (draft) => void (draft.config = {}))
            }
            return handler(ctx)
          },
        }),
      }
    },
  },
  {
    name: 'renaming a duplicate renames its source',
    make() {
      const { sourceOf, duplicateProject } = trackingCopies()
      return {
        wrapOperation: wrapping({
          duplicateProject,
          renameProject: (handler) => async (ctx) => {
            const result = await handler(ctx)
            const source = sourceOf.get(ctx.world.projectBySlug(ctx.params.slug!)!.id)
            if (source !== undefined) await ctx.world.projects.update(source, (draft) => void (draft.name = ctx.body.name))
            return result
          },
        }),
      }
    },
  },
  {
    name: 'publishing brings back the name the project was created with',
    make() {
      const original = new Map<string, string>()
      return {
        wrapOperation: wrapping({
          createProject: (handler) => async (ctx) => {
            const result = await handler(ctx)
            original.set(result.projectId, ctx.world.projects.get(result.projectId)!.name)
            return result
          },
          publishProject: (handler) => async (ctx) => {
            const result = await handler(ctx)
            const project = ctx.world.projectBySlug(ctx.params.slug!)!
            const name = original.get(project.id)
            if (name !== undefined) await ctx.world.projects.update(project.id, (draft) => void (draft.name = name))
            return result
          },
        }),
      }
    },
  },
  {
    name: 'only the first config write moves latestVersion',
    make() {
      const written = new Set<string>()
      return {
        transformResponse: ({ operationId, request }, response) => {
          if (operationId !== 'updateProjectConfig' || response.status !== 200) return response
          const slug = request.path.split('/')[3]!
          if (!written.has(slug)) {
            written.add(slug)
            return response
          }
          return { ...response, body: JSON.stringify({ ...jsonOf(response), versionId: `${jsonOf(response).versionId}-pending` }) }
        },
      }
    },
  },
  {
    name: 'unpublishing a duplicate unpublishes its source',
    make() {
      const { sourceOf, duplicateProject } = trackingCopies()
      return {
        wrapOperation: wrapping({
          duplicateProject,
          unpublishProject: (handler) => async (ctx) => {
            const result = await handler(ctx)
            const source = sourceOf.get(ctx.world.projectBySlug(ctx.params.slug!)!.id)
            if (source !== undefined) await unpublish(ctx.world, source)
            return result
          },
        }),
      }
    },
  },
  {
    name: 'the editor URL changes after a rename',
    make() {
      const renamed = new Set<string>()
      return {
        wrapOperation: wrapping({
          renameProject: (handler) => async (ctx) => {
            renamed.add(ctx.params.slug!)
            return handler(ctx)
          },
        }),
        transformResponse: ({ operationId, request }, response) => {
          if (operationId !== 'getProject' || response.status !== 200 || !renamed.has(request.path.split('/')[3]!)) return response
          const detail = jsonOf(response)
          return { ...response, body: JSON.stringify({ ...detail, editorUrl: `${detail.editorUrl}?v=2` }) }
        },
      }
    },
  },
  {
    name: 'a duplicate shares its slides’ files with its source',
    make() {
      const { sourceOf, duplicateProject } = trackingCopies()
      // A copy's slides point at its source's files: a write to a slide of either shows on the other's slide at the same place.
      return {
        wrapOperation: wrapping({
          duplicateProject,
          updateSlide: (handler) => async (ctx) => {
            const result = await handler(ctx)
            const project = ctx.world.projectBySlug(ctx.params.slug!)!
            const at = ctx.world.slidesOf(project.id).findIndex((slide) => slide.id === ctx.params.slideId)
            for (const id of linked(sourceOf, project.id)) {
              const twin = ctx.world.slidesOf(id)[at]
              if (twin !== undefined) await ctx.world.slides.update(twin.id, (draft) => void Object.assign(draft.files, ctx.body.files))
            }
            return result
          },
        }),
      }
    },
  },
  {
    name: 'a republish does nothing',
    make() {
      // Publishing a project that was published before answers as if it published, and leaves it as it is.
      const urls = new Map<string, string | null>()
      return {
        wrapOperation: wrapping({
          publishProject: (handler) => async (ctx) => {
            const project = ctx.world.projectBySlug(ctx.params.slug!)
            if (project !== undefined && urls.has(project.id))
              return { success: true, published: true, publishedUrl: urls.get(project.id)! }
            const result = await handler(ctx)
            urls.set(ctx.world.projectBySlug(ctx.params.slug!)!.id, result.publishedUrl)
            return result
          },
        }),
      }
    },
  },
  {
    name: 'the second update of a slide resets the files it was not sent',
    make() {
      const updates = new Map<string, number>()
      return {
        wrapOperation: wrapping({
          updateSlide: (handler) => async (ctx) => {
            const count = (updates.get(ctx.params.slideId!) ?? 0) + 1
            updates.set(ctx.params.slideId!, count)
            if (count < 2) return handler(ctx)
            const files = { 'slide.content.json': '{"title":"","blocks":[]}', 'slide.controls.json': '{"controls":[]}', ...ctx.body.files }
            return handler({ ...ctx, body: { ...ctx.body, files } })
          },
        }),
      }
    },
  },
  {
    name: 'a published project is readable with another team’s key',
    make() {
      return {
        wrapOperation: wrapping({
          getProject: (handler) => async (ctx) => {
            const project = ctx.world.projectBySlug(ctx.params.slug!)
            // "Published means public": the access check is skipped for published projects.
            if (project !== undefined && project.publishedAt !== null) return projectDetail(ctx.world, project, ctx.env.urls)
            return handler(ctx)
          },
        }),
      }
    },
  },
  {
    name: 'a duplicate answers its source’s URL configuration',
    make() {
      const { sourceOf, duplicateProject } = trackingCopies()
      return {
        wrapOperation: wrapping({
          duplicateProject,
          getProjectUrl: (handler) => async (ctx) => {
            const project = ctx.world.projectBySlug(ctx.params.slug!)
            const source = project === undefined ? undefined : sourceOf.get(project.id)
            if (source === undefined) return handler(ctx)
            return handler({ ...ctx, params: { ...ctx.params, slug: ctx.world.projects.get(source)!.slug } })
          },
        }),
      }
    },
  },
  {
    name: 'a config write unpublishes a published project',
    make() {
      return {
        wrapOperation: wrapping({
          updateProjectConfig: (handler) => async (ctx) => {
            const result = await handler(ctx)
            const project = ctx.world.projectBySlug(ctx.params.slug!)!
            if (project.publishedAt !== null) await unpublish(ctx.world, project.id)
            return result
          },
        }),
      }
    },
  },
  {
    // Every answer alone looks right (a config holding what was written); only two patches of one theme show it.
    name: 'a second theme patch merged into the first (the emulator’s contract replaces theme whole)',
    make() {
      return {
        wrapOperation: wrapping({
          updateProjectConfig: (handler) => async (ctx) => {
            const stored = ctx.world.projectBySlug(ctx.params.slug!)?.config.theme
            const theme = ctx.body.config.theme
            if (stored === undefined || theme === undefined) return handler(ctx)
            const merged = {
              ...stored,
              ...theme,
              colors: { ...stored.colors, ...theme.colors, default: { ...stored.colors.default, ...theme.colors.default } },
            }
            return handler({ ...ctx, body: { ...ctx.body, config: { ...ctx.body.config, theme: merged } } })
          },
        }),
      }
    },
  },
  {
    name: 'a duplicate leaves out its source’s last slide',
    make() {
      return {
        wrapOperation: wrapping({
          duplicateProject: (handler) => async (ctx) => {
            const result = await handler(ctx)
            const slides = ctx.world.slidesOf(result.projectId)
            if (slides.length > 1) ctx.world.slides.remove(slides.at(-1)!.id)
            return result
          },
        }),
      }
    },
  },
]

export function sequenceDefectEmulator(defect: SequenceDefect): PresentationEmulator {
  return createHookedEmulator({ clock: 'manual', rateLimit: 0, onError: () => undefined }, defect.make())
}

/** A walk of a defect's server with the walk's defaults (runs, steps) at `seed`, through its control plane. */
export function walkDefect(defect: SequenceDefect, seed: number): Promise<WalkResult> {
  return runWalk({
    fetch: sequenceDefectEmulator(defect).fetch,
    baseUrl: 'http://127.0.0.1:4010/v1',
    controlUrl: 'http://127.0.0.1:4010/_emulator',
    allowWrites: true,
    seed,
  })
}
