/**
 * The typed client of the Presentation Service API
 * (`presentation-emulator/client`): one method per operation, on `fetch`,
 * with no runtime dependency. It works against the emulator (any way in) and
 * against any deployment.
 *
 * @example
 * import { createClient, paginate } from 'presentation-emulator/client'
 *
 * const client = createClient({ baseUrl: 'http://127.0.0.1:4010/v1', apiKey: 'pres_test_alice_acme' })
 * const { jobId } = await client.generateProject({ prompt: 'Quarterly results' })
 * const job = await client.waitForJob(jobId, { timeoutMs: 60_000 })
 */
export {
  createClient,
  fillPath,
  paginate,
  type CallOptions,
  type ClientOptions,
  type PresentationClient,
  type RawExchange,
  type RawRequest,
  type RetryOptions,
  type SentRequest,
  type WaitForJobOptions,
} from './client.js'
export { createControlClient, type ControlClient, type ControlClientOptions } from './control.js'
export {
  JobTimeoutError,
  parseErrorBody,
  rateLimitOf,
  retryAfterSeconds,
  ServiceApiError,
  serviceApiError,
  type ErrorBody,
  type RateLimitInfo,
} from './errors.js'
export {
  routes,
  OPERATION_IDS,
  COMMON_ERROR_STATUSES,
  type HttpMethod,
  type OperationId,
  type RouteSpec,
} from '../schemas/operation-routes.js'
export type * from './types.js'
export { VERSION } from '../version.js'
