import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MAX_JSON_DEPTH, valueDepthExceeded } from './json-depth.js'

/** Levels of arrays and objects in `value` (0 for a scalar), by plain recursion: the test's values are shallow enough. */
function depth(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0
  const children = Array.isArray(value) ? value : Object.values(value)
  return 1 + children.reduce((deepest: number, child) => Math.max(deepest, depth(child)), 0)
}

const { tree } = fc.letrec((tie) => ({
  tree: fc.oneof({ depthSize: 'small', withCrossShrink: true }, fc.constantFrom(null, 1, 'x', true), tie('array'), tie('object')),
  array: fc.array(tie('tree'), { maxLength: 3 }),
  object: fc.dictionary(fc.constantFrom('a', 'b', 'c d', '0'), tie('tree'), { maxKeys: 3 }),
}))

describe('valueDepthExceeded', () => {
  it('refuses exactly the values nested deeper than the bound, whatever their shape', () => {
    fc.assert(
      fc.property(tree, fc.integer({ min: 0, max: 6 }), (value, max) => {
        expect(valueDepthExceeded(value, max) === undefined).toBe(depth(value) <= max)
      }),
      { numRuns: 2_000 },
    )
  })

  it('accepts 64 levels, refuses 65 and names the place, and never overflows the stack', () => {
    const nest = (levels: number, inner: unknown = 1) => {
      let value = inner
      for (let i = 0; i < levels; i++) value = i % 2 === 0 ? [value] : { k: value }
      return value
    }
    expect(valueDepthExceeded(nest(MAX_JSON_DEPTH))).toBeUndefined()
    expect(valueDepthExceeded({ ok: nest(MAX_JSON_DEPTH - 1), deep: [nest(MAX_JSON_DEPTH)] })).toBe(`deep[0]${'.k[0]'.repeat(31)}`)
    expect(valueDepthExceeded(nest(1_000_000))).toMatch(/^k\[0\](\.k\[0\])+$/)
    expect(valueDepthExceeded('text')).toBeUndefined()
  })
})
