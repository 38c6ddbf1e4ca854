import { fail } from '../core/errors.js'
import type { ApiKeyRecord, ProjectRecord, TeamRecord, UserRecord } from '../store/records.js'
import type { World } from '../store/world.js'

/** The service prefix of every API key, followed by an underscore (the spec's authentication rule 2). */
export const API_KEY_PREFIX = 'pres_'

/** Who a request acts for: the key, its owner, and the team it is scoped to. */
export interface Principal {
  key: ApiKeyRecord
  user: UserRecord
  team: TeamRecord
}

/**
 * Whether `userId` can access `project`: the project is owned by a team the
 * user is a member of (the key's team is always one), or it is shared with
 * the user as collaborator.
 */
export function canAccess(world: World, userId: string, project: ProjectRecord): boolean {
  return world.teamIdsOf(userId).has(project.teamId) || project.collaborators.includes(userId)
}

/**
 * The project with `slug` if the principal can access it. A project that
 * exists but is not accessible is reported exactly like a missing one: 404.
 */
export function accessibleProject(world: World, principal: Principal, slug: string): ProjectRecord {
  const project = world.projectBySlug(slug)
  if (project === undefined || !canAccess(world, principal.user.id, project)) {
    throw fail.notFound('Project', `no project "${slug}" is accessible with this API key`)
  }
  return project
}
