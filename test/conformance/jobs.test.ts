/** Job polling: backoff, a `Retry-After` on job status answers honoured, bounded by the job timeout. */
import { describe, expect, it } from 'vitest'
import { runConformance } from '../../conformance/index.js'
import { createEmulator } from '../../src/index.js'

const BASE = 'http://127.0.0.1:4010/v1'

/**
 * An emulator (manual clock) whose job status answers carry `Retry-After`
 * while the job is processing, and a clock that records the kit's waits.
 */
function target(retryAfter: string | undefined) {
  const emulator = createEmulator({ clock: 'manual', rateLimit: 0, timeScale: 0.1 })
  const waits: number[] = []
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const response = await emulator.fetch(input, init)
    const url = new URL(input instanceof Request ? input.url : String(input))
    if (retryAfter === undefined || !url.pathname.startsWith('/v1/projects/jobs/')) return response
    const text = await response.text()
    const headers = new Headers(response.headers)
    if ((JSON.parse(text) as { status?: string }).status === 'processing') headers.set('retry-after', retryAfter)
    return new Response(text, { status: response.status, headers })
  }
  const clock = {
    now: async () => Date.parse(emulator.control.clock().now),
    sleep: async (ms: number) => {
      waits.push(ms)
      await emulator.control.advanceClock({ ms: Math.max(0, Math.ceil(ms)) })
    },
  }
  return { fetch: fetch as typeof globalThis.fetch, clock, waits }
}

const options = {
  baseUrl: BASE,
  apiKey: 'pres_test_alice',
  allowWrites: true,
  allowGeneration: true,
  grep: '^generation\\.lifecycle$',
  seed: 3,
}

describe('polling a generation job', () => {
  it('backs off 1 s, ×1.5, without Retry-After', async () => {
    const { fetch, clock, waits } = target(undefined)
    const report = await runConformance({ ...options, fetch, clock })
    expect(report.scenarios[0]!.outcome).toBe('pass')
    expect(waits.slice(0, 4)).toEqual([1000, 1500, 2250, 3375])
  })

  it('waits as long as a job status answer’s Retry-After asks (seconds or an HTTP date)', async () => {
    const seconds = target('7')
    const report = await runConformance({ ...options, fetch: seconds.fetch, clock: seconds.clock })
    expect(report.scenarios[0]!.outcome).toBe('pass')
    expect(seconds.waits.length).toBeGreaterThan(1)
    expect(new Set(seconds.waits)).toEqual(new Set([7000]))

    // An HTTP date 9 s after the emulator's start (its manual clock starts at 2026-01-01T00:00:00Z).
    const date = target(new Date(Date.parse('2026-01-01T00:00:09Z')).toUTCString())
    const dated = await runConformance({ ...options, fetch: date.fetch, clock: date.clock })
    expect(dated.scenarios[0]!.outcome).toBe('pass')
    expect(date.waits[0]).toBe(9000)
  })

  it('never waits past the job timeout, then fails with the clause', async () => {
    const { fetch, clock, waits } = target('3600')
    const report = await runConformance({ ...options, fetch, clock, jobTimeoutMs: 20_000 })
    const result = report.scenarios[0]!
    expect(result.outcome).toBe('fail')
    expect(waits).toEqual([20_000])
    expect(result.failures.map((f) => `${f.clause}: ${f.message}`)).toContain(
      'States and transitions › Generation job status: the job leaves processing within 20 s',
    )
  })
})
