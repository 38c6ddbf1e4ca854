import type { OperationHandlers } from './context.js'
import { generationHandlers } from './generation.js'
import { projectHandlers } from './projects.js'
import { publishingHandlers } from './publishing.js'
import { slideHandlers } from './slides.js'
import { teamHandlers } from './teams.js'

/** The handler of every operation of the API, by operation id (the type says none is missing). */
export const handlers: OperationHandlers = {
  ...generationHandlers,
  ...projectHandlers,
  ...publishingHandlers,
  ...slideHandlers,
  ...teamHandlers,
}

export { Serialized } from '../core/serialized.js'
export type { Env, OperationAnswer, OperationContext, OperationHandler, OperationHandlers } from './context.js'
