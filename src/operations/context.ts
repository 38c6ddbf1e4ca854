import type { Clock } from '../core/clock.js'
import type { Principal } from '../model/access.js'
import type { Urls } from '../model/urls.js'
import type { OperationBody, OperationId, OperationParams, OperationQuery, OperationResult } from '../schemas/index.js'
import type { World } from '../store/world.js'
import type { Serialized } from '../core/serialized.js'

/** What an operation can use besides the world: time, URLs and settings. */
export interface Env {
  clock: Clock
  urls: Urls
  /** Simulated generation time = nominal × timeScale (0: completes at once). */
  timeScale: number
}

/** Everything an operation receives: validated input and the world it acts on. */
export interface OperationContext<Id extends OperationId> {
  world: World
  env: Env
  principal: Principal
  /** Decoded path parameters, named by the route's `{param}` placeholders. */
  params: OperationParams<Id>
  query: OperationQuery<Id>
  body: OperationBody<Id>
}

/** What a handler answers: its operation's result, or the result with its JSON text. */
export type OperationAnswer<Id extends OperationId> = OperationResult<Id> | Serialized<OperationResult<Id>>

export type OperationHandler<Id extends OperationId> = (context: OperationContext<Id>) => Promise<OperationAnswer<Id>> | OperationAnswer<Id>

/** Handlers for a set of operations, each typed by its own schemas. */
export type OperationHandlers<Ids extends OperationId = OperationId> = {
  [Id in Ids]: OperationHandler<Id>
}
