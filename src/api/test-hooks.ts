import type { EmulatorRequest, EmulatorResponse } from '../core/exchange.js'
import type { Principal } from '../model/access.js'
import type { OperationHandler } from '../operations/index.js'
import type { OperationId } from '../schemas/index.js'
import type { World } from '../store/world.js'

/**
 * Test-only replacements of pieces of the `/v1` pipeline: the one seam
 * through which the conformance kit's tests build deliberately broken (or
 * differently-choosing) servers out of the emulator. Every defect lives in
 * the tests; the shipped code only calls these when they are given.
 */
export interface TestHooks {
  /** Wraps the handler of an operation (called once per operation, at construction). */
  wrapOperation?: <Id extends OperationId>(id: Id, handler: OperationHandler<Id>) => OperationHandler<Id>
  /** Which rate-limit bucket a request counts in; the default is its user's id. */
  rateLimitBucket?: (principal: Principal) => string
  /** Replaces authentication; `standard` is the emulator's own. */
  authenticate?: (header: string | undefined, standard: (header: string | undefined) => Principal, world: World) => Principal
  /** Rewrites a `/v1` response before it is sent. */
  transformResponse?: (
    exchange: { request: EmulatorRequest; operationId: OperationId | undefined; principal: Principal | undefined; world: World },
    response: EmulatorResponse,
  ) => EmulatorResponse
}
