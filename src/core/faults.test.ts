import { describe, expect, it } from 'vitest'
import { defaultErrorCode, ServiceError } from './errors.js'
import { Faults } from './faults.js'

/** A key as the pipeline passes it: its value and its id. */
const key = (value: string) => ({ value, id: `key_${value}` })

describe('Faults', () => {
  it('registers a fault with its defaults: once, no delay, any key', () => {
    const faults = new Faults()
    const fault = faults.add({ operationId: 'getProject', status: 500 })
    expect(fault).toEqual({
      id: expect.stringMatching(/^flt_/),
      operationId: 'getProject',
      status: 500,
      times: 1,
      remaining: 1,
      error: null,
      code: null,
      delayMs: 0,
      apiKey: null,
      retryAfter: null,
      hits: 0,
    })
  })

  it('gives every fault its own id, also after clear', () => {
    const faults = new Faults()
    const a = faults.add({ operationId: '*', status: 500 })
    faults.clear()
    const b = faults.add({ operationId: '*', status: 500 })
    const c = faults.add({ operationId: '*', status: 500 })
    expect(new Set([a.id, b.id, c.id]).size).toBe(3)
  })

  it('takes nothing when no fault matches', () => {
    const faults = new Faults()
    expect(faults.take('getProject', key('pres_a'))).toBeUndefined()
    faults.add({ operationId: 'listTeams', status: 500 })
    expect(faults.take('getProject', key('pres_a'))).toBeUndefined()
    expect(faults.list()[0]!.hits).toBe(0)
  })

  it('matches its operation, and every operation with "*"', () => {
    const faults = new Faults()
    faults.add({ operationId: 'getProject', status: 500, times: 0 })
    faults.add({ operationId: '*', status: 503, times: 0 })
    expect(faults.take('getProject', key('k'))?.error?.status).toBe(500)
    expect(faults.take('listTeams', key('k'))?.error?.status).toBe(503)
  })

  it('matches only the given API key when one is set', () => {
    const faults = new Faults()
    faults.add({ operationId: '*', status: 500, apiKey: 'pres_b', times: 0 })
    expect(faults.take('listTeams', key('pres_a'))).toBeUndefined()
    expect(faults.take('listTeams', key('pres_b'))).toBeDefined()
    expect(faults.list()[0]!.hits).toBe(1)
  })

  it('fires exactly `times` times, then removes itself so the next fault applies', () => {
    const faults = new Faults()
    const first = faults.add({ operationId: '*', status: 500, times: 2 })
    faults.add({ operationId: '*', status: 404, times: 1 })
    expect(faults.take('x', key('k'))?.faultId).toBe(first.id)
    expect(faults.list()[0]).toMatchObject({ id: first.id, remaining: 1, hits: 1 })
    expect(faults.take('x', key('k'))?.faultId).toBe(first.id)
    expect(faults.list().map((f) => f.id)).not.toContain(first.id)
    expect(faults.take('x', key('k'))?.error?.status).toBe(404)
    expect(faults.take('x', key('k'))).toBeUndefined()
  })

  it('fires a fault with times 0 until it is removed, counting hits', () => {
    const faults = new Faults()
    const fault = faults.add({ operationId: '*', status: 500, times: 0 })
    for (let i = 0; i < 100; i++) expect(faults.take('x', key('k'))).toBeDefined()
    expect(faults.list()[0]).toMatchObject({ remaining: null, hits: 100 })
    expect(faults.remove(fault.id)).toBe(true)
    expect(faults.take('x', key('k'))).toBeUndefined()
  })

  it('answers remove false for an unknown or already used-up fault', () => {
    const faults = new Faults()
    const fault = faults.add({ operationId: '*', status: 500 })
    expect(faults.remove('flt_nope')).toBe(false)
    faults.take('x', key('k'))
    expect(faults.remove(fault.id)).toBe(false)
  })

  it('lists copies that cannot change the registered faults', () => {
    const faults = new Faults()
    faults.add({ operationId: '*', status: 500 })
    const [copy] = faults.list()
    copy!.remaining = 0
    copy!.operationId = 'nothing'
    expect(faults.take('x', key('k'))).toBeDefined()
  })

  it('answers a ServiceError with the default text and code of the status, and names the fault in the hint', () => {
    const faults = new Faults()
    const fault = faults.add({ operationId: '*', status: 502 })
    const { error } = faults.take('x', key('k'))!
    expect(error).toBeInstanceOf(ServiceError)
    expect(error).toMatchObject({
      status: 502,
      code: 'DISPATCH_FAILED',
      error: 'Generation could not be dispatched',
      hint: `injected by fault ${fault.id}`,
    })
  })

  it.each([400, 401, 402, 404, 405, 413, 429, 500, 502, 503, 504, 418, 599])('uses the default code for a %i fault', (status) => {
    const faults = new Faults()
    faults.add({ operationId: '*', status })
    const { error } = faults.take('x', key('k'))!
    expect(error!.code).toBe(defaultErrorCode(status))
    expect(error!.error.length).toBeGreaterThan(0)
  })

  it('names a status without a usual message by its number', () => {
    const faults = new Faults()
    faults.add({ operationId: '*', status: 418 })
    expect(faults.take('x', key('k'))!.error!.error).toBe('HTTP 418')
  })

  it('uses the given error text and code', () => {
    const faults = new Faults()
    faults.add({ operationId: '*', status: 503, error: 'Maintenance', code: 'MAINTENANCE' })
    expect(faults.take('x', key('k'))!.error).toMatchObject({ status: 503, error: 'Maintenance', code: 'MAINTENANCE' })
  })

  it('reports a delay-only fault as a delay without an error', () => {
    const faults = new Faults()
    faults.add({ operationId: '*', delayMs: 250 })
    expect(faults.take('x', key('k'))).toEqual({ faultId: expect.any(String), delayMs: 250, error: undefined })
  })

  it('clears every fault', () => {
    const faults = new Faults()
    faults.add({ operationId: '*', status: 500, times: 0 })
    faults.add({ operationId: 'x', status: 500 })
    faults.clear()
    expect(faults.list()).toEqual([])
    expect(faults.take('x', key('k'))).toBeUndefined()
  })
})
