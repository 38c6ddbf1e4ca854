import type { EmulatorRequest, EmulatorResponse } from '../../src/core/exchange.js'
import type { RateDecision } from '../../src/core/rate-limiter.js'
import type { Principal } from '../../src/model/access.js'
import type { Env, OperationContext, OperationHandler } from '../../src/operations/index.js'
import type { OperationId, OperationResult } from '../../src/schemas/index.js'
import type { World } from '../../src/store/world.js'

/** What a hook sees of the exchange in progress. */
export interface HookExchange {
  request: EmulatorRequest
  operationId: OperationId | undefined
  principal: Principal | undefined
  world: World
  env: Env
}

/**
 * Test-only replacements of pieces of the `/v1` service: the one seam
 * through which the conformance kit's tests build deliberately broken (or
 * differently-choosing, spec-legal) servers out of the emulator
 * (`createHookedEmulator`). Every defect lives in the tests; the product
 * has no option for them.
 */
/** An operation's handler that answers its plain result. */
export type PlainOperationHandler<Id extends OperationId> = (context: OperationContext<Id>) => Promise<OperationResult<Id>>

export interface TestHooks {
  /**
   * Wraps the handler of an operation (called once per operation, at
   * construction). The handler it is given answers plain values (a result
   * that came with its JSON text is given without it), so a wrapper may
   * read and change what it answers.
   */
  wrapOperation?: <Id extends OperationId>(id: Id, handler: PlainOperationHandler<Id>) => OperationHandler<Id>
  /** Replaces the rate limiter's decision; `standard` counts in the emulator's own per-user fixed windows. */
  rateLimit?: (principal: Principal, standard: (bucket: string) => RateDecision, env: Env) => RateDecision
  /** Replaces authentication; `standard` is the emulator's own. */
  authenticate?: (header: string | undefined, standard: (header: string | undefined) => Principal, world: World) => Principal
  /** Rewrites a `/v1` request that names an operation and authenticates, before the emulator sees it. */
  transformRequest?: (exchange: HookExchange) => EmulatorRequest
  /** Rewrites a response the emulator gave, before the client gets it. */
  transformResponse?: (exchange: HookExchange, response: EmulatorResponse) => EmulatorResponse
}
