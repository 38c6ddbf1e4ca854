import { describe, expect, it } from 'vitest'
import { RETRY_NOW } from '../../src/core/rate-limiter.js'
import { ClockResponse } from '../../src/control/schemas.js'
import { JobStatusResponse } from '../../src/schemas/index.js'
import { expectError, expectSchema, harnessPerTest, WAYS } from '../support/harness.js'
import { worldOf } from '../support/state.js'
import { createAccount, creditsOf, expectBadInput, expectUnknown, generate, rejection } from './support.js'

const EPOCH = '2026-01-01T00:00:00.000Z'

describe.each(WAYS)('control plane: clock and jobs (%s)', (way) => {
  const h = harnessPerTest(way, { rateLimit: 2 })

  describe('clock', () => {
    it('reads the clock: its time, mode and time scale', async () => {
      const reply = await h.control('GET', '/clock')
      expect(reply.status).toBe(200)
      expect(expectSchema(ClockResponse, reply.body)).toEqual({ now: EPOCH, mode: 'manual', timeScale: 0.02 })
    })

    it('advances a manual clock, and the API dates follow it', async () => {
      const reply = await h.control('POST', '/clock/advance', { json: { ms: 90_500 } })
      expect(reply.status).toBe(200)
      expect(reply.body).toEqual({ now: '2026-01-01T00:01:30.500Z' })
      expect((await h.control('GET', '/clock')).body.now).toBe('2026-01-01T00:01:30.500Z')

      const created = await h.api('POST', '/projects', { json: { name: 'Dated' } })
      const detail = await h.api('GET', `/projects/${created.body.projectSlug}`)
      expect(detail.body.createdAt).toBe('2026-01-01T00:01:30.500Z')
    })

    it('accepts an advance of 0 ms', async () => {
      const reply = await h.control('POST', '/clock/advance', { json: { ms: 0 } })
      expect(reply.body).toEqual({ now: EPOCH })
    })

    it('completes a due job when the clock advances, without anyone polling it', async () => {
      const job = await generate(h, 'pres_test_alice')
      await h.control('POST', '/clock/advance', { json: { ms: 1_000 } })
      expect((await worldOf(h.emulator)).job(job.jobId)?.status).toBe('processing')

      // 240 s × 0.02 ± 20% is at most 5.76 s.
      await h.control('POST', '/clock/advance', { json: { ms: 10_000 } })
      expect((await worldOf(h.emulator)).job(job.jobId)?.status).toBe('completed')
      const status = await h.api('GET', `/projects/jobs/${job.jobId}`)
      const body = expectSchema(JobStatusResponse, status.body)
      expect(body.status).toBe('completed')
      expect(body.publishedUrl).toBeTypeOf('string')
      expect(body.finalDuration).toMatch(/^[45] seconds$/)
    })

    it('fails a due job whose prompt asked for a failure, refunding its credit', async () => {
      const job = await generate(h, 'pres_test_alice', { prompt: 'emulator:fail please' })
      expect(await creditsOf(h, 'team_alice')).toBe(19)
      await h.control('POST', '/clock/advance', { json: { ms: 60_000 } })
      expect((await worldOf(h.emulator)).job(job.jobId)?.status).toBe('failed')
      expect(await creditsOf(h, 'team_alice')).toBe(20)
    })

    it('rolls the rate-limit window when the clock passes the minute', async () => {
      await h.api('GET', '/teams')
      await h.api('GET', '/teams')
      const refused = await h.api('GET', '/teams')
      expectError(refused, 429, 'RATE_LIMITED')
      expect(refused.headers['retry-after']).toBe(RETRY_NOW)

      await h.control('POST', '/clock/advance', { json: { ms: 59_999 } })
      expectError(await h.api('GET', '/teams'), 429, 'RATE_LIMITED')
      await h.control('POST', '/clock/advance', { json: { ms: 1 } })
      const allowed = await h.api('GET', '/teams')
      expect(allowed.status).toBe(200)
      expect(allowed.headers['x-ratelimit-remaining']).toBe('1')
    })

    it.each([
      [{ ms: -1 }, /^ms: must be at least 0/],
      [{ ms: 1.5 }, /^ms: /],
      [{ ms: '1000' }, /^ms: must be a number, got a string/],
      [{}, /^ms: is required/],
      [{ ms: 367 * 24 * 3_600_000 }, /^ms: must be at most/],
      [{ ms: 1, by: 'x' }, /unknown key "by"/],
    ])('rejects an advance of %j with 400 and leaves the clock alone', async (json, hint) => {
      expectBadInput(await h.control('POST', '/clock/advance', { json }), hint)
      expect((await h.control('GET', '/clock')).body.now).toBe(EPOCH)
    })
  })

  describe('jobs', () => {
    it('completes a processing job now, with its slides and publication', async () => {
      const job = await generate(h, 'pres_test_alice')
      const reply = await h.control('POST', `/jobs/${job.jobId}/complete`)
      expect(reply.status).toBe(200)
      const body = expectSchema(JobStatusResponse, reply.body)
      expect(body).toMatchObject({ jobId: job.jobId, status: 'completed', finalDuration: '0 seconds' })
      expect(body.publishedUrl).toBeTypeOf('string')

      const status = await h.api('GET', `/projects/jobs/${job.jobId}`)
      expect(status.body.status).toBe('completed')
      expect((await worldOf(h.emulator)).slidesOf(job.projectId).length).toBeGreaterThanOrEqual(4)
    })

    it('fails a processing job now with the given error and refunds its credit', async () => {
      const account = await createAccount(h, { credits: 1 })
      const job = await generate(h, account.apiKey)
      expect(await creditsOf(h, account.teamId)).toBe(0)

      const reply = await h.control('POST', `/jobs/${job.jobId}/fail`, { json: { error: 'GPU on fire' } })
      expect(reply.status).toBe(200)
      expect(reply.body).toMatchObject({ jobId: job.jobId, status: 'failed', error: 'GPU on fire' })
      expect(await creditsOf(h, account.teamId)).toBe(1)

      const status = await h.api('GET', `/projects/jobs/${job.jobId}`, { key: account.apiKey })
      expect(status.body).toMatchObject({ status: 'failed', error: 'GPU on fire' })
      expect((await worldOf(h.emulator)).slidesOf(job.projectId)).toEqual([])
    })

    it('fails a job without a body with a default error', async () => {
      const job = await generate(h, 'pres_test_alice')
      const reply = await h.control('POST', `/jobs/${job.jobId}/fail`)
      expect(reply.body).toMatchObject({ status: 'failed', error: 'Generation failed' })
    })

    it('answers 400 to finishing a finished job, and changes nothing', async () => {
      const job = await generate(h, 'pres_test_alice')
      await h.control('POST', `/jobs/${job.jobId}/complete`)
      const credits = await creditsOf(h, 'team_alice')

      expectBadInput(await h.control('POST', `/jobs/${job.jobId}/complete`), /already completed/)
      expectBadInput(await h.control('POST', `/jobs/${job.jobId}/fail`), /already completed/)
      expect(await creditsOf(h, 'team_alice')).toBe(credits)
      expect((await worldOf(h.emulator)).job(job.jobId)?.status).toBe('completed')
    })

    it('answers 400 to finishing a job that became due before the call', async () => {
      const job = await generate(h, 'pres_test_alice')
      // Due, but not yet settled: nobody has called since.
      h.emulator.emulator.clock.advance(60_000)
      expectBadInput(await h.control('POST', `/jobs/${job.jobId}/fail`), /already completed/)
    })

    it('answers 400 to a bad fail body, leaving the job processing', async () => {
      const job = await generate(h, 'pres_test_alice')
      expectBadInput(await h.control('POST', `/jobs/${job.jobId}/fail`, { json: { error: '' } }), /^error: must not be empty/)
      expectBadInput(await h.control('POST', `/jobs/${job.jobId}/fail`, { json: { reason: 'x' } }), /unknown key "reason"/)
      expect((await worldOf(h.emulator)).job(job.jobId)?.status).toBe('processing')
    })

    it('answers 404 for an unknown job', async () => {
      expectUnknown(await h.control('POST', '/jobs/job_nobody/complete'))
      expectUnknown(await h.control('POST', '/jobs/job_nobody/fail', { json: { error: 'x' } }))
    })
  })
})

describe('control plane in process: clock and jobs', () => {
  const h = harnessPerTest('fetch')

  it('reads and advances the clock, completing due jobs', async () => {
    const control = h.emulator.control
    expect(control.clock()).toEqual({ now: EPOCH, mode: 'manual', timeScale: 0.02 })
    const job = await generate(h, 'pres_test_alice')
    expect(await control.advanceClock({ ms: 10_000 })).toEqual({ now: '2026-01-01T00:00:10.000Z' })
    expect((await worldOf(h.emulator)).job(job.jobId)?.status).toBe('completed')
  })

  it('completes and fails jobs, refusing finished and unknown ones', async () => {
    const control = h.emulator.control
    const first = await generate(h, 'pres_test_alice')
    const second = await generate(h, 'pres_test_alice')
    expect(await creditsOf(h, 'team_alice')).toBe(18)
    expect((await control.completeJob(first.jobId)).status).toBe('completed')
    expect(await control.failJob(second.jobId, { error: 'nope' })).toMatchObject({ status: 'failed', error: 'nope' })
    expect(await creditsOf(h, 'team_alice')).toBe(19)

    expect(await rejection(() => control.completeJob(first.jobId))).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' })
    expect(await rejection(() => control.failJob(second.jobId))).toMatchObject({ status: 400 })
    expect(await rejection(() => control.completeJob('job_nobody'))).toMatchObject({ status: 404, code: 'NOT_FOUND' })
    expect(await rejection(() => control.advanceClock({ ms: -5 }))).toMatchObject({ status: 400 })
  })
})
