import type { ProjectRecord } from '../store/records.js'
import type { World } from '../store/world.js'

/**
 * Publishes the project's latest version at `at`: the project is marked
 * published and its published site becomes a snapshot of its name, config
 * and slides as they are now (later edits don't show until the next publish).
 */
export function publish(world: World, projectId: string, at: string): ProjectRecord {
  const current = world.projects.get(projectId)!
  const snapshot = {
    projectId,
    versionId: current.latestVersionId,
    publishedAt: at,
    name: current.name,
    config: current.config,
    slides: world.slidesOf(projectId).map((slide) => ({ id: slide.id, name: slide.name, files: { ...slide.files } })),
  }
  const existing = world.publicationOf(projectId)
  if (existing === undefined) world.publications.insert({ id: world.ids('pub'), ...snapshot })
  else world.publications.update(existing.id, (draft) => Object.assign(draft, snapshot))
  return world.projects.update(projectId, (draft) => {
    draft.publishedAt = at
    draft.publishedVersionId = current.latestVersionId
  })
}

/** Takes the project's site offline; the project and its slides are kept. */
export function unpublish(world: World, projectId: string): ProjectRecord {
  const existing = world.publicationOf(projectId)
  if (existing !== undefined) world.publications.remove(existing.id)
  return world.projects.update(projectId, (draft) => {
    draft.publishedAt = null
    draft.publishedVersionId = null
  })
}
