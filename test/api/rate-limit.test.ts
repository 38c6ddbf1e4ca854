import got, { HTTPError as GotHTTPError } from 'got'
import ky, { HTTPError } from 'ky'
import { describe, expect, it, vi } from 'vitest'
import { createEmulator } from '../../src/index.js'
import { RATE_WINDOW_MS, RETRY_NOW } from '../../src/core/rate-limiter.js'
import { expectError, harnessPerTest, startHarness, WAYS } from '../support/harness.js'
import { worldOf } from '../support/state.js'

describe.each(WAYS)('rate limit (%s)', (way) => {
  const h = harnessPerTest(way, { rateLimit: 50 })

  it('counts every authenticated request of a user and answers the 51st of a window 429', async () => {
    const now = Date.parse((await h.emulator.control.clock()).now)
    const reset = String(Math.ceil((now - (now % RATE_WINDOW_MS) + RATE_WINDOW_MS) / 1000))
    for (let n = 1; n <= 50; n++) {
      // Mix statuses: 200, 404, 400 and 405 all count.
      const path = n % 4 === 0 ? '/projects/nope' : n % 4 === 1 ? '/teams' : n % 4 === 2 ? '/projects?limit=0' : '/teams'
      const reply = await h.api(n % 4 === 3 ? 'POST' : 'GET', path)
      expect(reply.status).not.toBe(429)
      expect(reply.headers['x-ratelimit-limit']).toBe('50')
      expect(reply.headers['x-ratelimit-remaining']).toBe(String(50 - n))
      expect(reply.headers['x-ratelimit-reset']).toBe(reset)
    }
    const limited = await h.api('GET', '/teams')
    expectError(limited, 429, 'RATE_LIMITED')
    expect(limited.headers['x-ratelimit-remaining']).toBe('0')
    expect(limited.headers['x-ratelimit-reset']).toBe(reset)
    // On the manual clock: "retry now" (see below).
    expect(limited.headers['retry-after']).toBe(RETRY_NOW)
    expect(limited.body.hint).toBe(
      'at most 50 requests per minute per user; the window ends when the manual clock reaches 2026-01-01T00:01:00.000Z (POST /_emulator/clock/advance moves it)',
    )
  })

  it('shares one bucket between all keys of a user, and keeps other users apart', async () => {
    for (let n = 0; n < 25; n++) await h.api('GET', '/teams', { key: 'pres_test_alice' })
    for (let n = 0; n < 25; n++) await h.api('GET', '/teams', { key: 'pres_test_alice_acme' })
    expectError(await h.api('GET', '/teams', { key: 'pres_test_alice' }), 429, 'RATE_LIMITED')
    const bob = await h.api('GET', '/teams', { key: 'pres_test_bob' })
    expect(bob.status).toBe(200)
    expect(bob.headers['x-ratelimit-remaining']).toBe('49')
  })

  it('does not count requests that fail authentication', async () => {
    for (let n = 0; n < 60; n++) await h.api('GET', '/teams', { key: 'pres_test_revoked' })
    const reply = await h.api('GET', '/teams')
    expect(reply.headers['x-ratelimit-remaining']).toBe('49')
  })

  it('recovers when the window rolls over on the emulator clock', async () => {
    for (let n = 0; n < 51; n++) await h.api('GET', '/teams')
    expectError(await h.api('GET', '/teams'), 429, 'RATE_LIMITED')
    await h.emulator.control.advanceClock({ ms: RATE_WINDOW_MS })
    const reply = await h.api('GET', '/teams')
    expect(reply.status).toBe(200)
    expect(reply.headers['x-ratelimit-remaining']).toBe('49')
  })

  it('changes nothing with a rate-limited write', async () => {
    for (let n = 0; n < 50; n++) await h.api('GET', '/teams')
    const before = (await worldOf(h.emulator)).recordsText()
    expectError(await h.api('POST', '/projects', { json: { name: 'Too many' } }), 429, 'RATE_LIMITED')
    expect((await worldOf(h.emulator)).recordsText()).toBe(before)
  })
})

describe('rate limit off', () => {
  it('sends no rate-limit headers and never answers 429 when the limit is 0', async () => {
    const h = await startHarness('fetch', { rateLimit: 0 })
    for (let n = 0; n < 60; n++) expect((await h.api('GET', '/teams')).status).toBe(200)
    expect((await h.api('GET', '/teams')).headers['x-ratelimit-limit']).toBeUndefined()
    await h.close()
  })

  it('keeps the count exact under concurrent requests', async () => {
    const h = await startHarness('fetch', { rateLimit: 50 })
    const replies = await Promise.all(Array.from({ length: 80 }, () => h.api('GET', '/teams')))
    expect(replies.filter((r) => r.status === 200)).toHaveLength(50)
    expect(replies.filter((r) => r.status === 429)).toHaveLength(30)
    const remaining = replies.filter((r) => r.status === 200).map((r) => Number(r.headers['x-ratelimit-remaining']))
    expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i))
    await h.close()
  })
})

describe('rate-limit defaults', () => {
  it('is off in-process unless rateLimit is given: 200 requests under the manual clock see no 429', async () => {
    const emulator = createEmulator({ clock: 'manual' })
    for (let n = 0; n < 200; n++) {
      const res = await emulator.fetch('http://127.0.0.1:4010/v1/teams', { headers: { authorization: 'Bearer pres_test_alice' } })
      expect(res.status).toBe(200)
      expect(res.headers.get('x-ratelimit-limit')).toBeNull()
    }
    await emulator.close()
  })

  it('applies the spec’s 50 per minute when asked for', async () => {
    const emulator = createEmulator({ clock: 'manual', rateLimit: 50 })
    const statuses: number[] = []
    for (let n = 0; n < 51; n++) {
      statuses.push(
        (await emulator.fetch('http://127.0.0.1:4010/v1/teams', { headers: { authorization: 'Bearer pres_test_alice' } })).status,
      )
    }
    expect(statuses.filter((status) => status === 429)).toEqual([429])
    await emulator.close()
  })
})

describe('Retry-After', () => {
  it('on a real clock: whole seconds until the window ends, at least 1', async () => {
    const h = await startHarness('fetch', { clock: 'real', rateLimit: 1 })
    await h.api('GET', '/teams')
    const sent = Date.now()
    const limited = await h.api('GET', '/teams')
    const received = Date.now()
    expectError(limited, 429, 'RATE_LIMITED')
    const seconds = Number(limited.headers['retry-after'])
    expect(Number.isInteger(seconds)).toBe(true)
    expect(seconds).toBeGreaterThanOrEqual(1)
    expect(seconds).toBeLessThanOrEqual(60)
    // It agrees with the window end the other headers announce: the seconds from the moment of the answer
    // (somewhere between sending and receiving, however long that took) to the reset, rounded up; the reset
    // is itself in whole seconds, hence the second either side.
    const resetMs = Number(limited.headers['x-ratelimit-reset']) * 1000
    expect(resetMs + 1000).toBeGreaterThan(sent + (seconds - 1) * 1000)
    expect(resetMs - 1000).toBeLessThanOrEqual(received + seconds * 1000)
    expect(limited.body.hint).toMatch(/^at most 1 requests per minute per user; retry after \d+ s$/)
    await h.close()
  })

  it('on a manual clock: an HTTP-date in the past, "retry now"', () => {
    expect(Date.parse(RETRY_NOW)).toBe(0)
  })
})

/**
 * Real retrying clients against a manual-clock emulator: a 429 must reach the
 * test within milliseconds, after the client's own retries, instead of the
 * client sleeping for real. Asserted on the number of attempts the journal
 * saw and on how long the client waited between them (Retry-After advice),
 * never on wall-clock timings of the whole call.
 */
describe.each(['injected', 'real'] as const)('retrying clients and a %s 429 under the manual clock', (kind) => {
  async function limitedServer() {
    const emulator = createEmulator({ clock: 'manual', rateLimit: kind === 'real' ? 1 : 0 })
    const server = await emulator.listen({ port: 0 })
    if (kind === 'real') {
      await fetch(`${server.origin}/v1/teams`, { headers: { authorization: 'Bearer pres_test_alice' } })
      emulator.control.clearRequests()
    } else emulator.control.addFault({ operationId: 'listTeams', status: 429, times: 0 })
    return { emulator, server }
  }

  it('ky retries at once, twice, then throws the 429', async () => {
    const { emulator, server } = await limitedServer()
    const delays: number[] = []
    const api = ky.create({
      prefixUrl: `${server.origin}/v1`,
      headers: { authorization: 'Bearer pres_test_alice' },
      hooks: { beforeRetry: [({ retryCount }) => void delays.push(retryCount)] },
    })
    // What ky sleeps between its attempts: the timers its own delay function sets (told apart from the
    // HTTP stack's by where they are set from).
    const sleeps: number[] = []
    const realSetTimeout = globalThis.setTimeout
    const spy = vi.spyOn(globalThis, 'setTimeout').mockImplementation(((handler: () => void, ms?: number) => {
      if (/[\\/]ky[\\/]distribution[\\/]utils[\\/]delay\.js/.test(new Error().stack ?? '')) sleeps.push(ms ?? 0)
      return realSetTimeout(handler, ms)
    }) as typeof setTimeout)
    const error = await api
      .get('teams')
      .catch((e: unknown) => e)
      .finally(() => spy.mockRestore())
    expect(error).toBeInstanceOf(HTTPError)
    expect((error as HTTPError).response.status).toBe(429)
    expect(delays).toEqual([1, 2])
    expect(emulator.control.listRequests({ status: 429 }).requests).toHaveLength(3)
    // ky read Retry-After as "now": two sleeps of no time. The smallest advice in seconds (1) would be 1000 ms each.
    expect(sleeps).toHaveLength(2)
    for (const ms of sleeps) expect(ms).toBeLessThanOrEqual(0)
    await emulator.close()
  })

  it('got retries after 1 ms, twice, then throws the 429', async () => {
    const { emulator, server } = await limitedServer()
    const computed: number[] = []
    const error = await got(`${server.origin}/v1/teams`, {
      headers: { authorization: 'Bearer pres_test_alice' },
      retry: {
        // got's default delay function, observed: what it would sleep.
        calculateDelay: ({ computedValue }) => {
          computed.push(computedValue)
          return computedValue
        },
      },
    }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(GotHTTPError)
    expect((error as GotHTTPError).response.statusCode).toBe(429)
    expect(computed).toEqual([1, 1, 0])
    expect(emulator.control.listRequests({ status: 429 }).requests).toHaveLength(3)
    await emulator.close()
  })
})
