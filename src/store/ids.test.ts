import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createIdFactory, hashToken, slugify } from './ids.js'

describe('ids', () => {
  it('are a pure function of seed and sequence', () => {
    const a = createIdFactory(1, { value: 0 })
    const b = createIdFactory(1, { value: 0 })
    const c = createIdFactory(2, { value: 0 })
    const first = [a('prj'), a('prj'), a('job')]
    expect([b('prj'), b('prj'), b('job')]).toEqual(first)
    expect(c('prj')).not.toEqual(first[0])
    expect(first[0]).toMatch(/^prj_[0-9a-z]{16}$/)
  })

  it('continue from a restored sequence without reissuing an id', () => {
    const sequence = { value: 0 }
    const ids = createIdFactory(1, sequence)
    const issued = Array.from({ length: 5 }, () => ids('x'))
    const restored = createIdFactory(1, { value: sequence.value })
    expect(issued).not.toContain(restored('x'))
  })

  it('do not collide over many draws', () => {
    const ids = createIdFactory(1, { value: 0 })
    const set = new Set(Array.from({ length: 50_000 }, () => ids('p')))
    expect(set.size).toBe(50_000)
  })

  it('hash tokens to the requested length', () => {
    expect(hashToken('a', 6)).toHaveLength(6)
    expect(hashToken('a', 40)).toHaveLength(40)
    expect(hashToken('a', 6)).toBe(hashToken('a', 6))
  })
})

describe('slugify', () => {
  it.each([
    ['Q3 Review!', 'q3-review'],
    ['  Café déjà vu  ', 'cafe-deja-vu'],
    ['---', 'project'],
    ['x'.repeat(60), 'x'.repeat(40)],
  ])('%s → %s', (name, slug) => {
    expect(slugify(name)).toBe(slug)
  })
})

describe('slugify on any name', () => {
  it('gives what decomposing every name first gives, for ASCII names (which skip it) and all others', () => {
    const reference = (name: string, maxLength = 40) => {
      const slug = name
        .normalize('NFKD')
        .replace(/[\u0300-\u036f]/g, '')
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, '')
        .slice(0, maxLength)
        .replace(/-+$/g, '')
      return slug.length > 0 ? slug : 'project'
    }
    const names = fc.oneof(
      fc.string({ unit: 'binary-ascii' }),
      fc.string({ unit: 'grapheme' }),
      fc.constantFrom('Crème Brûlée Q3', 'ﬁnal ＤＥＣＫ', 'Ⅻ plans', 'İstanbul'),
    )
    fc.assert(
      fc.property(names, (name) => slugify(name) === reference(name)),
      { numRuns: 5_000 },
    )
  })
})
