import { describe, expect, it } from 'vitest'
import * as z from 'zod'
import { ServiceError } from './errors.js'
import { formatPath, parseInput } from './validation.js'

function hintOf(schema: z.ZodType, value: unknown): string | undefined {
  try {
    parseInput(schema, value)
    return undefined
  } catch (error) {
    expect(error).toBeInstanceOf(ServiceError)
    return (error as ServiceError).hint
  }
}

describe('validation hints', () => {
  it('names the field and the rule', () => {
    const schema = z.strictObject({ name: z.string().min(1).max(3), tags: z.array(z.string()).max(1), model: z.enum(['fast', 'quality']) })
    expect(hintOf(schema, { name: '', tags: [], model: 'fast' })).toBe('name: must not be empty')
    expect(hintOf(schema, { name: 'abcd', tags: [], model: 'fast' })).toBe('name: must be at most 3 characters long')
    expect(hintOf(schema, { name: 'a', tags: ['x', 'y'], model: 'fast' })).toBe('tags: must have at most 1 item')
    expect(hintOf(schema, { name: 'a', tags: [], model: 'slow' })).toBe('model: must be one of: "fast", "quality"')
    expect(hintOf(schema, { tags: [], model: 'fast' })).toBe('name: is required')
    expect(hintOf(schema, { name: 'a', tags: [], model: 'fast', extra: 1 })).toBe('unknown key "extra"')
    expect(hintOf(schema, { name: 1, tags: [], model: 'fast' })).toBe('name: must be a string, got a number')
  })

  it('says "a whole number" for an integer (zod calls it "int")', () => {
    const schema = z.object({ n: z.number().int() })
    expect(hintOf(schema, { n: 1.5 })).toBe('n: must be a whole number, got 1.5')
    expect(hintOf(schema, { n: 'x' })).toBe('n: must be a number, got a string')
  })

  it('lists several issues separated by semicolons, at most five', () => {
    const schema = z.object(Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`f${i}`, z.string()])))
    expect(hintOf(schema, {})).toBe('f0: is required; f1: is required; f2: is required; f3: is required; f4: is required; (2 more)')
  })

  it('formats paths with indexes and quoted odd keys', () => {
    expect(formatPath(['config', 'tokens', 'palette', 0, 'name'])).toBe('config.tokens.palette[0].name')
    expect(formatPath(['files', 'slide.tsx'])).toBe('files["slide.tsx"]')
    expect(formatPath([])).toBe('')
  })

  it('returns the parsed value, with defaults applied', () => {
    const schema = z.object({ limit: z.number().default(20) })
    expect(parseInput(schema, {})).toEqual({ limit: 20 })
  })
})
