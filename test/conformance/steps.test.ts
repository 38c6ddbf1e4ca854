/**
 * Emulator checks keep going: each step of a scenario is reported; a failed
 * check fails its step only; a step that cannot complete fails, and the steps
 * that depend on it are skipped, naming it. The human report lists the steps.
 */
import { describe, expect, it } from 'vitest'
import { runConformance, scenarioLine } from '../../conformance/index.js'
import { createHookedEmulator } from '../support/hooked-emulator.js'
import { DEFECTS, runAgainstDefect } from './variants.js'

describe('an emulator check in steps', () => {
  it('reports the failing step and goes on with the others', async () => {
    const defect = DEFECTS.find((d) => d.name === 'a fault with times 0 fires only once')!
    const report = await runAgainstDefect(defect)
    const result = report.scenarios.find((s) => s.id === 'emulator.control-plane')!
    expect(result.outcome).toBe('fail')
    const steps = result.steps!
    const failed = steps.filter((s) => s.outcome === 'fail').map((s) => s.name)
    expect(failed).toEqual(['a fault with times 0 fires until removed; without a code it answers its status’s default code'])
    // Every other step ran, and passed: one mismatch hides nothing after it.
    expect(steps.filter((s) => s.outcome === 'pass').length).toBe(steps.length - 1)
    expect(steps.length).toBeGreaterThanOrEqual(15)
    expect(steps.every((s) => s.checks > 0 || s.outcome !== 'pass')).toBe(true)
    const line = scenarioLine(result)
    expect(line).toContain('    ✗ a fault with times 0 fires until removed')
    expect(line).toContain('    ✓ DELETE /faults clears every fault')
  })

  it('skips the steps that depend on one that could not complete, naming it, and runs the rest', async () => {
    // A control plane whose accounts cannot be made: every step that needs the account is skipped.
    const emulator = createHookedEmulator({ clock: 'manual', rateLimit: 50, onError: () => undefined }, {})
    const fetch: typeof emulator.fetch = async (input, init) => {
      const request = new Request(input, init)
      if (request.method === 'POST' && new URL(request.url).pathname === '/_emulator/accounts')
        return Response.json({ error: 'Accounts are closed' }, { status: 503, headers: { 'x-service-error-code': 'CLOSED' } })
      return emulator.fetch(request)
    }
    const report = await runConformance({
      fetch,
      baseUrl: 'http://127.0.0.1:4010/v1',
      controlUrl: 'http://127.0.0.1:4010/_emulator',
      emulatorChecks: true,
      allowWrites: true,
      grep: /^emulator\.control-plane$/,
      seed: 3,
    })
    const result = report.scenarios[0]!
    const step = (name: string) => result.steps!.find((s) => s.name.startsWith(name))!
    expect(step('a fresh account shares nothing')).toMatchObject({
      outcome: 'fail',
      reason: expect.stringMatching(/^did not complete: could not run: /),
    })
    for (const name of [
      'a second key works',
      'credits set to 0',
      'a created template',
      'a fault answers its status',
      'the journal records',
    ]) {
      expect(step(name), name).toMatchObject({
        outcome: 'skip',
        reason: 'depends on "a fresh account shares nothing", which did not complete',
      })
    }
    // A step that depends on a skipped one says so too.
    expect(step('a job fails on purpose').reason).toMatch(/^depends on "a fresh account shares nothing"/)
    // The steps that need no account ran and passed.
    for (const name of ['health answers', 'the clock reads and moves forward', 'bad input is 400', 'an invalid state document is 400'])
      expect(step(name).outcome, name).toBe('pass')
    expect(scenarioLine(result)).toContain('- a second key works, is scoped to the personal team by default')
  })
})
