/**
 * `summarize`, the one way the kit's reports show an exchange (a scenario's
 * finding, a walk's step, a proxy's finding): pinned for one exchange, so
 * the three callers cannot drift apart again.
 */
import { describe, expect, it } from 'vitest'
import { keyCredential } from '../../conformance/curl.js'
import { SUMMARY_LIMITS, summarize } from '../../conformance/report/exchange.js'
import type { Exchange } from '../../conformance/types.js'

const exchange: Exchange = {
  operationId: 'renameProject',
  request: {
    method: 'PATCH',
    url: 'http://127.0.0.1:4010/v1/projects/q3-deck',
    headers: { authorization: 'Bearer pres_test_alice', 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ name: 'x'.repeat(1200) }),
  },
  status: 400,
  headers: {
    'content-type': 'application/json',
    'x-service-error-code': 'VALIDATION_ERROR',
    'x-ratelimit-limit': '50',
    'x-ratelimit-remaining': '49',
    'x-ratelimit-reset': '1767225600',
    date: 'Thu, 01 Jan 2026 00:00:00 GMT',
    'content-length': '2000',
  },
  text: JSON.stringify({ error: 'y'.repeat(1000) }),
  json: undefined,
  durationMs: 3,
  credential: keyCredential('main'),
}

describe('summarize', () => {
  it('redacts the key, names who sent it, keeps the headers the rules read and cuts the bodies', () => {
    expect(summarize(exchange)).toEqual({
      request: {
        method: 'PATCH',
        url: 'http://127.0.0.1:4010/v1/projects/q3-deck',
        headers: { authorization: 'Bearer <redacted>', 'content-type': 'application/json', accept: 'application/json' },
        body: `${exchange.request.body!.slice(0, 1000)}…`,
        key: 'main key (--api-key)',
      },
      response: {
        status: 400,
        headers: {
          'content-type': 'application/json',
          'x-service-error-code': 'VALIDATION_ERROR',
          'x-ratelimit-limit': '50',
          'x-ratelimit-remaining': '49',
          'x-ratelimit-reset': '1767225600',
        },
        body: `${exchange.text.slice(0, 800)}…`,
      },
    })
    expect(SUMMARY_LIMITS).toEqual({ requestBody: 1000, responseBody: 800 })
  })

  it('leaves out what the exchange does not have, and keeps a body whole under its limit', () => {
    const { credential: _, ...bare } = exchange
    const summary = summarize(
      { ...bare, request: { ...bare.request, body: undefined }, text: '{"error":"short"}' },
      { requestBody: Number.POSITIVE_INFINITY, responseBody: 800 },
    )
    expect(summary.request).not.toHaveProperty('body')
    expect(summary.request).not.toHaveProperty('key')
    expect(summary.response.body).toBe('{"error":"short"}')
    expect(summarize(exchange, { requestBody: Number.POSITIVE_INFINITY, responseBody: 800 }).request.body).toBe(exchange.request.body)
  })
})
