import { accessibleProject } from '../model/access.js'
import { decodeCursor, encodeCursor, takePage } from '../model/pagination.js'
import { addVersion, appendSlides, createProject, newProjectConfig } from '../model/projects.js'
import { responseCache } from '../model/response-cache.js'
import { projectDetail, projectUrlConfig } from '../model/views.js'
import { DEFAULT_PROJECT_NAME, PROJECT_CONFIG_KEYS, type ProjectConfig } from '../schemas/index.js'
import { mergeRecency } from '../store/recency-index.js'
import type { OperationHandlers } from './context.js'
import type { OperationResult } from '../schemas/index.js'

/**
 * `config` with the top-level keys of `patch` replaced. `theme` and `tokens`
 * are replaced as a whole. Keys are copied one by one from the spec's list,
 * so nothing but a known key can reach the stored object.
 */
export function mergeConfig(config: ProjectConfig, patch: ProjectConfig): ProjectConfig {
  const merged: Record<string, unknown> = {}
  for (const key of PROJECT_CONFIG_KEYS) {
    const value = Object.hasOwn(patch, key) ? patch[key] : config[key]
    if (value !== undefined) merged[key] = value
  }
  return merged as ProjectConfig
}

export const projectHandlers: OperationHandlers<
  | 'createProject'
  | 'listProjects'
  | 'getProject'
  | 'renameProject'
  | 'getProjectConfig'
  | 'updateProjectConfig'
  | 'duplicateProject'
  | 'getProjectUrl'
> = {
  createProject({ world, env, principal, body }) {
    const { project, version } = createProject(world, {
      teamId: principal.team.id,
      createdBy: principal.user.id,
      name: body.name ?? DEFAULT_PROJECT_NAME,
      config: newProjectConfig(),
      at: env.clock.iso(),
      versionName: 'Initial version',
    })
    return {
      projectId: project.id,
      projectSlug: project.slug,
      projectVersionId: version.id,
      editorUrl: env.urls.editor(project.slug),
    }
  },

  listProjects({ world, env, principal, query }) {
    const cursor = query.cursor === undefined ? undefined : decodeCursor('projects', query.cursor)
    const userId = principal.user.id
    const sources = [...world.teamIdsOf(userId)].sort().map((teamId) => world.projectsOfTeam(teamId, cursor))
    sources.push(world.projectsSharedWith(userId, cursor))
    const wanted = query.published === undefined ? undefined : query.published === 'true'
    const page = takePage(mergeRecency(sources), query.limit, (key) => {
      const project = world.projects.get(key.id)!
      return wanted === undefined || (project.publishedAt !== null) === wanted ? project : undefined
    })
    // The answer is composed from each project's cached item and text, and kept until a record of the page changes.
    const origin = env.urls.origin
    const cache = responseCache(world)
    const key = `${userId}\n${query.limit}\n${query.published ?? ''}\n${query.cursor ?? ''}`
    const kept = cache.page<OperationResult<'listProjects'>>(key, page.items, origin, page.more)
    if (kept !== undefined) return kept
    const nextCursor = page.more && page.last ? encodeCursor('projects', page.last) : undefined
    const items = page.items.map((project) => cache.listItem(project, env.urls))
    const result = {
      projects: items.map((entry) => entry.item),
      ...(nextCursor === undefined ? {} : { nextCursor }),
    }
    const json = `{"projects":[${items.map((entry) => entry.json).join(',')}]${nextCursor === undefined ? '' : `,"nextCursor":${JSON.stringify(nextCursor)}`}}`
    return cache.keepPage(key, page.items, origin, page.more, result, json)
  },

  getProject({ world, env, principal, params }) {
    return projectDetail(world, accessibleProject(world, principal, params.slug), env.urls)
  },

  renameProject({ world, env, principal, params, body }) {
    const project = accessibleProject(world, principal, params.slug)
    const renamed = world.projects.update(project.id, (draft) => {
      draft.name = body.name
      draft.updatedAt = env.clock.iso()
    })
    return { success: true, name: renamed.name }
  },

  getProjectConfig({ world, principal, params }) {
    return { config: accessibleProject(world, principal, params.slug).config }
  },

  updateProjectConfig({ world, env, principal, params, body }) {
    const project = accessibleProject(world, principal, params.slug)
    const config = mergeConfig(project.config, body.config)
    const { version } = addVersion(world, project.id, 'Updated configuration', env.clock.iso(), (draft) => {
      draft.config = config
    })
    return { versionId: version.id, config }
  },

  duplicateProject({ world, env, principal, params }) {
    const source = accessibleProject(world, principal, params.slug)
    const at = env.clock.iso()
    const { project } = createProject(world, {
      teamId: principal.team.id,
      createdBy: principal.user.id,
      name: `${source.name} (copy)`,
      config: source.config,
      at,
      versionName: `Duplicated from ${source.slug}`,
    })
    appendSlides(
      world,
      project.id,
      world.slidesOf(source.id).map((slide) => ({ name: slide.name, files: slide.files })),
      at,
    )
    return {
      projectId: project.id,
      projectSlug: project.slug,
      name: project.name,
      editorUrl: env.urls.editor(project.slug),
    }
  },

  getProjectUrl({ world, principal, params }) {
    return projectUrlConfig(world, accessibleProject(world, principal, params.slug))
  },
}
