import type { OperationId } from '../schemas/operation-routes.js'

/** The spec's error body. */
export interface ErrorBody {
  error: string
  hint?: string
}

/** The rate-limit headers of a response, as numbers where they parse. */
export interface RateLimitInfo {
  /** `X-RateLimit-Limit`. */
  limit: number | undefined
  /** `X-RateLimit-Remaining`. */
  remaining: number | undefined
  /** `X-RateLimit-Reset`, as sent (its format is not fixed by the spec). */
  reset: string | undefined
  /** `Retry-After` in seconds (a number or an HTTP date converted to seconds from now). */
  retryAfterSeconds: number | undefined
}

/** Reads `X-RateLimit-*` and `Retry-After` from response headers. */
export function rateLimitOf(headers: Headers, now: number = Date.now()): RateLimitInfo {
  const int = (name: string) => {
    const value = headers.get(name)
    if (value === null || !/^\s*\d+\s*$/.test(value)) return undefined
    return Number(value)
  }
  return {
    limit: int('x-ratelimit-limit'),
    remaining: int('x-ratelimit-remaining'),
    reset: headers.get('x-ratelimit-reset') ?? undefined,
    retryAfterSeconds: retryAfterSeconds(headers.get('retry-after'), now),
  }
}

/** `Retry-After` as seconds: a number of seconds, or an HTTP date. */
export function retryAfterSeconds(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined
  const trimmed = value.trim()
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed)
  const date = Date.parse(trimmed)
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000))
}

/**
 * A response with an error status, as the client throws it: the status, the
 * spec's error body (when the server sent one), `X-Service-Error-Code`, and
 * the rate-limit headers.
 */
export class ServiceApiError extends Error {
  override readonly name = 'ServiceApiError'

  constructor(
    /** The operation that failed. */
    readonly operationId: OperationId | undefined,
    /** HTTP status. */
    readonly status: number,
    /** The parsed error body, or undefined when the body was not the spec's error body. */
    readonly body: ErrorBody | undefined,
    /** `X-Service-Error-Code`, or undefined when absent. */
    readonly code: string | undefined,
    /** `X-RateLimit-*` and `Retry-After`. */
    readonly rateLimit: RateLimitInfo,
    /** Every response header. */
    readonly headers: Headers,
    /** The body as received. */
    readonly text: string,
  ) {
    const what = operationId === undefined ? 'request' : operationId
    const detail = body === undefined ? text.slice(0, 200) : body.hint === undefined ? body.error : `${body.error}: ${body.hint}`
    super(`${what} failed with ${status}${code === undefined ? '' : ` ${code}`}${detail === '' ? '' : `: ${detail}`}`)
  }

  /** The `error` text of the body (empty when there is none). */
  get error(): string {
    return this.body?.error ?? ''
  }

  /** The `hint` of the body, if any. */
  get hint(): string | undefined {
    return this.body?.hint
  }
}

/** The `ServiceApiError` of a response with an error status, its body already read as `text`. */
export function serviceApiError(operationId: OperationId | undefined, response: Response, text: string): ServiceApiError {
  return new ServiceApiError(
    operationId,
    response.status,
    parseErrorBody(text),
    response.headers.get('x-service-error-code') ?? undefined,
    rateLimitOf(response.headers),
    response.headers,
    text,
  )
}

/** Parses text as the spec's error body, or undefined. */
export function parseErrorBody(text: string): ErrorBody | undefined {
  try {
    const value = JSON.parse(text) as unknown
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined
    const { error, hint } = value as Record<string, unknown>
    if (typeof error !== 'string') return undefined
    return typeof hint === 'string' ? { error, hint } : { error }
  } catch {
    return undefined
  }
}

/** Thrown by `waitForJob` when the job is still processing after its time limit. */
export class JobTimeoutError extends Error {
  override readonly name = 'JobTimeoutError'
  constructor(
    readonly jobId: string,
    readonly waitedMs: number,
    readonly lastStatus: string,
  ) {
    super(`job ${jobId} was still ${lastStatus} after ${Math.round(waitedMs / 1000)} s`)
  }
}
