import { describe, expect, it } from 'vitest'
import { ServiceError } from '../core/errors.js'
import { decodeCursor, encodeCursor, takePage } from './pagination.js'

describe('cursors', () => {
  const key = { at: '2026-01-01T00:00:00.000Z', id: 'prj_abc' }

  it('round-trips a key and is URL-safe', () => {
    const cursor = encodeCursor('projects', key)
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/)
    expect(decodeCursor('projects', cursor)).toEqual(key)
  })

  it('rejects a cursor of another list, garbage and tampered values with a 400', () => {
    for (const bad of [encodeCursor('templates', key), 'garbage!', btoa('["p","not a date","x"]'), btoa('{}'), '']) {
      expect(() => decodeCursor('projects', bad)).toThrow(ServiceError)
    }
  })
})

describe('takePage', () => {
  it('takes up to the limit of accepted items and says whether more remain', () => {
    const keys = ['a', 'b', 'c', 'd', 'e'].map((id) => ({ at: '2026-01-01T00:00:00.000Z', id }))
    const odd = (k: { id: string }) => (k.id === 'b' || k.id === 'd' ? undefined : k.id)
    expect(takePage(keys, 2, odd)).toEqual({ items: ['a', 'c'], last: keys[2], more: true })
    expect(takePage(keys, 3, odd)).toEqual({ items: ['a', 'c', 'e'], last: keys[4], more: false })
  })
})
