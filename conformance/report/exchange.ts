/**
 * An exchange as every report of the kit shows it (a scenario's finding, a
 * walk's step, a proxy's finding): the request with its key redacted and
 * which key sent it, the response's status, the headers the spec's rules
 * are about, and the bodies cut to a bound.
 */
import { redactedHeaders } from '../curl.js'
import type { Exchange, ExchangeSummary } from '../types.js'

/** The response headers a summary keeps: the ones the spec's rules (and the table of facts) read. */
export const HEADERS_THAT_MATTER = [
  'content-type',
  'x-service-error-code',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'retry-after',
  'allow',
] as const

/** How much of each body a summary keeps, in characters (an ellipsis marks a cut). */
export interface SummaryLimits {
  requestBody: number
  responseBody: number
}

/** A report's bounds: enough to see what went wrong, not a megabyte per finding. */
export const SUMMARY_LIMITS: SummaryLimits = { requestBody: 1000, responseBody: 800 }

/** What a summary is made from: an exchange the kit sent, or one a proxy saw (response header names in lower case). */
export type Summarizable = Pick<Exchange, 'request' | 'status' | 'headers' | 'text' | 'credential'>

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text)

/** The exchange as a report shows it. */
export function summarize(exchange: Summarizable, limits: SummaryLimits = SUMMARY_LIMITS): ExchangeSummary {
  const headers: Record<string, string> = {}
  for (const name of HEADERS_THAT_MATTER) if (exchange.headers[name] !== undefined) headers[name] = exchange.headers[name]
  const { request } = exchange
  return {
    request: {
      method: request.method,
      url: request.url,
      headers: redactedHeaders(request.headers),
      ...(request.body === undefined ? {} : { body: cut(request.body, limits.requestBody) }),
      ...(exchange.credential === undefined ? {} : { key: exchange.credential.role }),
    },
    response: { status: exchange.status, headers, body: cut(exchange.text, limits.responseBody) },
  }
}
