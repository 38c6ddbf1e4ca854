import { describe, expect, it } from 'vitest'
import { RATE_WINDOW_MS } from '../../src/core/rate-limiter.js'
import { expectError, harnessPerTest, startHarness, WAYS } from '../support/harness.js'

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
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0)
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60)
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
    const before = h.emulator.emulator.world.projects.size
    expectError(await h.api('POST', '/projects', { json: { name: 'Too many' } }), 429, 'RATE_LIMITED')
    expect(h.emulator.emulator.world.projects.size).toBe(before)
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
