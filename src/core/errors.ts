import { jsonResponse, type EmulatorResponse } from './exchange.js'

/**
 * The values of the `X-Service-Error-Code` header. The first nine are the
 * emulator contract's; `FORBIDDEN` is the 403 of the security guards (a
 * foreign `Host`, a foreign page changing the emulator); a status without a
 * code of its own (possible only through fault injection) is reported as
 * `HTTP_<status>`.
 */
export const ErrorCodes = {
  VALIDATION_ERROR: 'VALIDATION_ERROR',
  UNAUTHORIZED: 'UNAUTHORIZED',
  INSUFFICIENT_CREDITS: 'INSUFFICIENT_CREDITS',
  NOT_FOUND: 'NOT_FOUND',
  METHOD_NOT_ALLOWED: 'METHOD_NOT_ALLOWED',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  RATE_LIMITED: 'RATE_LIMITED',
  INTERNAL_ERROR: 'INTERNAL_ERROR',
  DISPATCH_FAILED: 'DISPATCH_FAILED',
  FORBIDDEN: 'FORBIDDEN',
} as const
export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes]

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'VALIDATION_ERROR',
  401: 'UNAUTHORIZED',
  402: 'INSUFFICIENT_CREDITS',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  413: 'PAYLOAD_TOO_LARGE',
  429: 'RATE_LIMITED',
  500: 'INTERNAL_ERROR',
  502: 'DISPATCH_FAILED',
}

/** The error code the emulator uses for `status` when none is given. */
export function defaultErrorCode(status: number): string {
  return CODE_BY_STATUS[status] ?? `HTTP_${status}`
}

/** The `error` text of each kind of failure, as constants so tests and docs can name them. */
export const Messages = {
  validation: 'Invalid request',
  invalidJson: 'Invalid request body',
  unauthorized: 'Authentication required',
  insufficientCredits: 'Insufficient credits',
  notFound: (what: string) => `${what} not found`,
  methodNotAllowed: 'Method not allowed',
  payloadTooLarge: 'Request body too large',
  rateLimited: 'Rate limit exceeded',
  internal: 'Internal server error',
  dispatchFailed: 'Generation could not be dispatched',
} as const

/**
 * A failure with its HTTP status, `X-Service-Error-Code`, and the spec's
 * error body `{ error, hint? }`. Thrown anywhere in the pipeline or in an
 * operation; the pipeline turns it into the response.
 */
export class ServiceError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly error: string,
    readonly hint?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(hint === undefined ? error : `${error}: ${hint}`)
    this.name = 'ServiceError'
  }

  toResponse(extraHeaders: Record<string, string> = {}): EmulatorResponse {
    const body = this.hint === undefined ? { error: this.error } : { error: this.error, hint: this.hint }
    return jsonResponse(this.status, body, {
      ...extraHeaders,
      ...this.headers,
      'x-service-error-code': this.code,
    })
  }
}

/** Factories for every failure the emulator answers. */
export const fail = {
  validation: (hint: string) => new ServiceError(400, 'VALIDATION_ERROR', Messages.validation, hint),
  invalidJson: (hint: string) => new ServiceError(400, 'VALIDATION_ERROR', Messages.invalidJson, hint),
  unauthorized: (hint: string) => new ServiceError(401, 'UNAUTHORIZED', Messages.unauthorized, hint),
  insufficientCredits: (hint: string) => new ServiceError(402, 'INSUFFICIENT_CREDITS', Messages.insufficientCredits, hint),
  notFound: (what: string, hint?: string) => new ServiceError(404, 'NOT_FOUND', Messages.notFound(what), hint),
  methodNotAllowed: (allow: readonly string[]) =>
    new ServiceError(405, 'METHOD_NOT_ALLOWED', Messages.methodNotAllowed, `allowed: ${allow.join(', ')}`, {
      allow: allow.join(', '),
    }),
  payloadTooLarge: (limit: number) => new ServiceError(413, 'PAYLOAD_TOO_LARGE', Messages.payloadTooLarge, `the limit is ${limit} bytes`),
  rateLimited: (hint: string, headers: Record<string, string>) =>
    new ServiceError(429, 'RATE_LIMITED', Messages.rateLimited, hint, headers),
  internal: (hint?: string) => new ServiceError(500, 'INTERNAL_ERROR', Messages.internal, hint),
  dispatchFailed: (hint: string) => new ServiceError(502, 'DISPATCH_FAILED', Messages.dispatchFailed, hint),
}

/** Where unexpected errors go unless an `onError` option says otherwise. */
export function logUnexpectedError(error: unknown): void {
  console.error('[presentation-emulator] unexpected error:', error)
}

/**
 * The one answer to an unexpected error, at every boundary that catches
 * one (the emulator's dispatch, the `/v1` pipeline, the control plane, the
 * HTTP server): `error` goes to `onError` (the log), the client gets a 500
 * `INTERNAL_ERROR` with the spec's error body, never the error's text.
 */
export function internalError(
  error: unknown,
  onError: (error: unknown) => void = logUnexpectedError,
  headers: Record<string, string> = {},
): EmulatorResponse {
  onError(error)
  return fail.internal('an unexpected error occurred; see the emulator log').toResponse(headers)
}

/** The answer to anything thrown while serving a request: a `ServiceError`'s own, else `internalError`. */
export function errorResponse(
  error: unknown,
  onError: (error: unknown) => void = logUnexpectedError,
  headers: Record<string, string> = {},
): EmulatorResponse {
  return error instanceof ServiceError ? error.toResponse(headers) : internalError(error, onError, headers)
}
