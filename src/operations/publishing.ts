import { accessibleProject } from '../model/access.js'
import { publish, unpublish } from '../model/publishing.js'
import type { OperationHandlers } from './context.js'

export const publishingHandlers: OperationHandlers<'publishProject' | 'unpublishProject'> = {
  publishProject({ world, env, principal, params }) {
    const project = accessibleProject(world, principal, params.slug)
    const published = publish(world, project.id, env.clock.iso())
    return { success: true, published: true, publishedUrl: env.urls.published(world, published) }
  },

  unpublishProject({ world, principal, params }) {
    const project = accessibleProject(world, principal, params.slug)
    if (project.publishedAt !== null) unpublish(world, project.id)
    return { success: true, published: false }
  },
}
