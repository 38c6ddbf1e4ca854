/**
 * Progress on stderr (issue 36): a run prints each scenario as it starts and
 * each wait with its expected length, so it is not silent between its start
 * line and its report; quiet when stderr is not a terminal or CI is set,
 * and `--progress` forces it.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { main, runConformance, type RunWait } from '../../conformance/index.js'
import { progressWanted, waitLine } from '../../conformance/cli/progress.js'
import { createEmulator } from '../../src/index.js'
import { manualClockOf } from './variants.js'

async function cli(...args: string[]) {
  let out = ''
  let err = ''
  const code = await main(['node', 'presentation-conformance', ...args], { out: (t) => void (out += t), err: (t) => void (err += t) })
  return { code, out, err }
}

afterEach(() => {
  vi.unstubAllEnvs()
})

describe('progress', () => {
  it('--progress prints each scenario on stderr as it starts, before the report, even under CI', async () => {
    vi.stubEnv('CI', 'true')
    const { code, out, err } = await cli('--grep', '^teams\\.', '--progress', '--seed', '1')
    expect(code).toBe(0)
    const started = err.split('\n').filter((line) => line.startsWith('▸ '))
    expect(started.length).toBeGreaterThan(0)
    expect(started.every((line) => /^▸ teams\.[\w.-]+: \S/.test(line))).toBe(true)
    // The report itself stays on stdout, with no progress in it.
    expect(out).not.toContain('▸ ')
    expect(out).toMatch(/passed/)
  })

  it('is quiet without --progress when stderr is not a terminal, or under CI', async () => {
    vi.stubEnv('CI', 'true')
    const { code, err } = await cli('--grep', '^teams\\.', '--seed', '1')
    expect(code).toBe(0)
    expect(err).not.toContain('▸ ')
    expect(progressWanted(undefined, false, {})).toBe(false)
    expect(progressWanted(undefined, true, { CI: 'true' })).toBe(false)
    expect(progressWanted(undefined, true, {})).toBe(true)
    expect(progressWanted(undefined, true, { CI: 'false' })).toBe(true)
    expect(progressWanted(true, false, { CI: '1' })).toBe(true)
  })

  it('tells of each wait on the rate limit as it starts, with its expected length and scenario', async () => {
    const emulator = createEmulator({ clock: 'manual', rateLimit: 3 })
    const waits: RunWait[] = []
    try {
      const report = await runConformance({
        fetch: emulator.fetch,
        baseUrl: 'http://127.0.0.1:4010/v1',
        apiKey: 'pres_test_alice',
        clock: manualClockOf(emulator),
        grep: /^projects\.detail$/,
        seed: 1,
        onWait: (wait) => waits.push(wait),
      })
      const result = report.scenarios[0]!
      expect(result.rateLimitWaitMs).toBeGreaterThan(0)
      const own = waits.filter((w) => w.scenario === 'projects.detail')
      expect(own.length).toBeGreaterThan(0)
      expect(own.every((w) => w.kind === 'rate-limit' && w.ms > 0)).toBe(true)
      // What was announced is what the scenario waited (each wait its own, none queued behind another).
      expect(own.reduce((sum, w) => sum + w.ms, 0)).toBeLessThanOrEqual(result.rateLimitWaitMs!)
    } finally {
      await emulator.close()
    }
  })

  it('says what a wait is on and how long it is expected to take', () => {
    expect(waitLine({ kind: 'rate-limit', ms: 60_250, scenario: 'projects.list' })).toBe(
      '  … waiting 60 s on the rate limit (projects.list)\n',
    )
    expect(waitLine({ kind: 'job', ms: 1_500, scenario: 'generate.basic', jobId: 'job_1' })).toBe(
      '  … waiting 1.5 s on job job_1 (generate.basic)\n',
    )
    expect(waitLine({ kind: 'rate-limit', ms: 250 })).toBe('  … waiting 250 ms on the rate limit\n')
  })

  it('tells of each wait on a generation job', async () => {
    const emulator = createEmulator({ clock: 'manual' })
    const waits: RunWait[] = []
    try {
      await runConformance({
        fetch: emulator.fetch,
        baseUrl: 'http://127.0.0.1:4010/v1',
        apiKey: 'pres_test_alice',
        clock: manualClockOf(emulator),
        allowWrites: true,
        allowGeneration: true,
        grep: /generat/,
        seed: 1,
        onWait: (wait) => waits.push(wait),
      })
    } finally {
      await emulator.close()
    }
    const jobs = waits.filter((w) => w.kind === 'job')
    expect(jobs.length).toBeGreaterThan(0)
    expect(jobs.every((w) => typeof w.jobId === 'string' && w.ms > 0 && w.scenario !== undefined)).toBe(true)
  })
})
