import { accessibleProject } from '../model/access.js'
import { publish, unpublish } from '../model/publishing.js'
import type { OperationHandlers } from './context.js'

export const publishingHandlers: OperationHandlers<'publishProject' | 'unpublishProject'> = {
  async publishProject({ world, env, principal, params }) {
    const project = accessibleProject(world, principal, params.slug)
    const published = await publish(world, project.id, env.clock.iso())
    return { success: true, published: true, publishedUrl: env.urls.published(world, published) }
  },

  async unpublishProject({ world, principal, params }) {
    const project = accessibleProject(world, principal, params.slug)
    if (project.publishedAt !== null) await unpublish(world, project.id)
    return { success: true, published: false }
  },
}
