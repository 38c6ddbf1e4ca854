/**
 * The one way the tests build a server out of the emulator with test-only
 * hooks (the kit's defect servers, the spec-legal servers, the walks'
 * sequence defects): deliberately broken (or differently choosing) servers.
 * Not part of the package: the product's options know nothing of it, and it
 * builds its emulators through the same composition as `createEmulator`
 * (`buildEmulator`), the hooks given as parts.
 *
 * Two kinds of seam, neither a branch in the product's pipeline:
 * - `wrapOperation`, `authenticate` and `rateLimit` assemble the `/v1`
 *   pipeline from other parts (`PipelineParts`);
 * - `transformRequest` and `transformResponse` wrap `handle`: they rewrite
 *   what goes in and what comes out, as a proxy in front of the service
 *   would (so the journal records what the emulator itself saw and said).
 */
import { type Authenticate, type PipelineParts, type RatePolicy, STANDARD_PARTS } from '../../src/api/pipeline.js'
import { buildEmulator, type Handle } from '../../src/create-emulator.js'
import { RouteTable } from '../../src/core/router.js'
import type { Emulator, EmulatorOptions } from '../../src/emulator.js'
import type { PresentationEmulator } from '../../src/index.js'
import type { Principal } from '../../src/model/access.js'
import { listenNode, loadMswHttp } from '../../src/node/ways-in.js'
import { type OperationHandler, type OperationHandlers, Serialized } from '../../src/operations/index.js'
import { OPERATION_IDS, type OperationId, routes } from '../../src/schemas/index.js'
import { WEB_MOUNTS } from '../../web/mounts.js'
import type { HookExchange, TestHooks } from './test-hooks.js'

export type { HookExchange, TestHooks } from './test-hooks.js'

/** The pipeline parts the hooks replace; the standard ones elsewhere. */
function partsOf(hooks: TestHooks): Partial<PipelineParts> {
  const parts: Partial<PipelineParts> = {}
  const { wrapOperation, authenticate, rateLimit } = hooks
  if (wrapOperation !== undefined) {
    const handlers = {} as Record<OperationId, OperationHandler<OperationId>>
    for (const id of OPERATION_IDS) {
      const standard = STANDARD_PARTS.handlers[id] as OperationHandler<OperationId>
      // The wrapper reads plain values: a result that came with its JSON text is handed on without it.
      const plain = async (context: Parameters<typeof standard>[0]) => {
        const answer = await standard(context)
        return answer instanceof Serialized ? answer.value : answer
      }
      handlers[id] = wrapOperation(id, plain)
    }
    parts.handlers = handlers as OperationHandlers
  }
  if (authenticate !== undefined) {
    parts.authenticate = (header, world) => authenticate(header, (given) => STANDARD_PARTS.authenticate(given, world), world)
  }
  if (rateLimit !== undefined) {
    parts.rateLimit = ((principal, limiter, env) => rateLimit(principal, (bucket) => limiter.hit(bucket), env)) satisfies RatePolicy
  }
  return parts
}

/** The `/v1` operations by method and path, for the exchange the rewriting hooks see. */
const OPERATIONS = new RouteTable<OperationId>()
for (const id of OPERATION_IDS) OPERATIONS.add(routes[id].method, `/v1${routes[id].path}`, id)

/**
 * `handle` with the request and response rewriting hooks around it. The
 * exchange they see names the operation once the request's route is known
 * and its key authenticates (as the pipeline routes it, after
 * authentication); a 429 of the rate limit names none.
 */
function rewriting(handle: Handle, emulator: Emulator, authenticate: Authenticate, hooks: TestHooks): Handle {
  const { transformRequest, transformResponse } = hooks
  if (transformRequest === undefined && transformResponse === undefined) return handle
  return async (given) => {
    await emulator.ready().catch(() => undefined)
    const match = OPERATIONS.match(given.method, given.path)
    let principal: Principal | undefined
    try {
      principal = authenticate(given.headers.authorization, emulator.world)
    } catch {
      principal = undefined
    }
    const operationId = match.kind === 'route' && principal !== undefined ? match.data : undefined
    const exchange = (request: typeof given): HookExchange => ({
      request,
      operationId,
      principal,
      world: emulator.world,
      env: emulator.env,
    })
    const request = transformRequest !== undefined && operationId !== undefined ? transformRequest(exchange(given)) : given
    const response = await handle(request)
    if (transformResponse === undefined) return response
    const limited = response.status === 429 && response.headers['x-service-error-code'] === 'RATE_LIMITED'
    return transformResponse({ ...exchange(request), operationId: limited ? undefined : operationId }, response)
  }
}

/** An emulator whose `/v1` service runs with `hooks` (Node, `listen` included). */
export function createHookedEmulator(options: EmulatorOptions, hooks: TestHooks): PresentationEmulator {
  const parts = partsOf(hooks)
  const authenticate = parts.authenticate ?? STANDARD_PARTS.authenticate
  return buildEmulator(options, {
    http: loadMswHttp,
    listen: listenNode,
    // The pages (editor, published sites) as the emulator serves them: the kit opens a published site.
    parts: { mounts: WEB_MOUNTS, ...parts },
    wrapHandle: (handle, emulator) => rewriting(handle, emulator, authenticate, hooks),
  })
}
