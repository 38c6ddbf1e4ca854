/**
 * The defaults of the HTTP server's timeouts and connection cap (docs/security.md,
 * "Limits and timeouts"): bounds a local test client never comes near, so
 * only a stalled or hostile client meets them.
 */
export const SERVER_DEFAULTS = {
  /** A client has this long to send a request's headers; then 408. */
  headersTimeoutMs: 10_000,
  /** A client has this long to send a whole request, body included; then 408. */
  requestTimeoutMs: 60_000,
  /** An idle keep-alive connection is closed after this long. */
  keepAliveTimeoutMs: 5_000,
  /** Connections open at once; more are closed as they arrive. */
  maxConnections: 1_000,
} as const
