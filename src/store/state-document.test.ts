import type * as z from 'zod'
import { describe, expect, it } from 'vitest'
import { createEmulator } from '../index.js'
import { MAX_JSON_DEPTH } from '../core/json-depth.js'
import { StateDocument, withStateDefaults } from './world.js'

/**
 * Levels of arrays and objects a value the schema accepts can have, read
 * from the schema itself; throws on a part that accepts any value (such a
 * part would let a valid document nest without bound).
 */
function schemaDepth(schema: z.core.$ZodType): number {
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string }
  switch (def.type) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'null':
    case 'literal':
    case 'enum':
    case 'undefined':
    case 'bigint':
    case 'date':
      return 0
    case 'optional':
    case 'nullable':
    case 'default':
    case 'readonly':
    case 'prefault':
    case 'nonoptional':
    case 'catch':
      return schemaDepth(def.innerType as z.core.$ZodType)
    case 'pipe':
      return Math.max(schemaDepth(def.in as z.core.$ZodType), schemaDepth(def.out as z.core.$ZodType))
    case 'union':
      return Math.max(...(def.options as z.core.$ZodType[]).map(schemaDepth))
    case 'array':
      return 1 + schemaDepth(def.element as z.core.$ZodType)
    case 'object': {
      if (def.catchall !== undefined && (def.catchall as z.core.$ZodType)._zod.def.type !== 'never')
        throw new Error('an object that accepts other keys')
      return 1 + Math.max(0, ...Object.values(def.shape as Record<string, z.core.$ZodType>).map(schemaDepth))
    }
    default:
      throw new Error(`a ${def.type} part: it may accept values of any depth`)
  }
}

describe('the state document schema', () => {
  it(`has no open-ended part and nests at most ${MAX_JSON_DEPTH} levels, so a document it accepts is within the nesting bound`, () => {
    const depth = schemaDepth(StateDocument)
    expect(depth).toBeGreaterThanOrEqual(6)
    expect(depth).toBeLessThanOrEqual(MAX_JSON_DEPTH)
  })

  it('a document it refuses is named for its depth first, wherever the depth is', async () => {
    const emulator = createEmulator({ clock: 'manual' })
    const state = await emulator.control.getState()
    let deep: unknown = 'x'
    for (let i = 0; i < 100_000; i++) deep = { a: deep }
    const withDeep = (doc: object) =>
      emulator.control.putState(doc).then(
        () => 'accepted',
        (error: { hint?: string }) => error.hint,
      )
    expect(await withDeep({ ...state, extra: deep })).toMatch(/^not a valid state document: extra(\.a)+: nested deeper than 64 levels$/)
    expect(await withDeep({ ...state, users: [{ ...state.users[0], name: deep }] })).toMatch(
      /^not a valid state document: users\[0\]\.name(\.a)+: nested/,
    )
    expect(await withDeep({ ...state, users: [{ ...state.users[0], name: 42 }] })).toMatch(
      /^not a valid state document: users\[0\]\.name: must be a string/,
    )
    await emulator.close()
  })
})

/**
 * Where a parse with `schema` can give something else than the value it
 * accepts: the paths of its defaults, and of any part that rewrites a value
 * (a transform, a catch, an object that drops unknown keys, …). Read from
 * the schema itself, so a new default or transform shows here first.
 */
function rewrites(schema: z.core.$ZodType, path = ''): string[] {
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string; checks?: Array<{ _zod: { def: { check: string } } }> }
  const own = def.checks?.some((check) => check._zod.def.check === 'overwrite') ? [`${path} (overwrite)`] : []
  switch (def.type) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'null':
    case 'literal':
    case 'enum':
      return own
    case 'optional':
    case 'nullable':
      return [...own, ...rewrites(def.innerType as z.core.$ZodType, path)]
    case 'default':
      return [...own, `${path} (default)`, ...rewrites(def.innerType as z.core.$ZodType, path)]
    case 'array':
      return [...own, ...rewrites(def.element as z.core.$ZodType, `${path}[]`)]
    case 'union':
      return [...own, ...(def.options as z.core.$ZodType[]).flatMap((option) => rewrites(option, path))]
    case 'object': {
      const catchall = def.catchall as z.core.$ZodType | undefined
      const strict = catchall !== undefined && catchall._zod.def.type === 'never'
      return [
        ...own,
        ...(strict ? [] : [`${path} (drops unknown keys)`]),
        ...Object.entries(def.shape as Record<string, z.core.$ZodType>).flatMap(([key, part]) => rewrites(part, `${path}.${key}`)),
      ]
    }
    default:
      return [...own, `${path} (${def.type})`]
  }
}

describe('withStateDefaults', () => {
  it('covers every place a parse with the state schema could change a document it accepts', () => {
    const configs = ['.projects[].config', '.templates[].config', '.publications[].config']
    expect(rewrites(StateDocument).sort()).toEqual(
      configs.flatMap((config) => [`${config}.tokens.fonts (default)`, `${config}.tokens.palette (default)`]).sort(),
    )
  })

  it('gives what the parse gives, for documents with and without token lists to fill in', async () => {
    const emulator = createEmulator({ clock: 'manual' })
    const valid = JSON.stringify(await emulator.control.getState())
    await emulator.close()
    const variant = (change: (doc: any) => void) => {
      const doc = JSON.parse(valid)
      change(doc)
      return doc
    }
    const documents = [
      variant(() => undefined),
      variant((d) => delete d.projects[0].config.tokens),
      variant((d) => (d.projects[0].config.tokens = {})),
      variant((d) => delete d.projects[1].config.tokens.fonts),
      variant((d) => delete d.templates[0].config.tokens.palette),
      variant((d) => delete d.publications[0].config.tokens.fonts),
    ]
    for (const doc of documents) {
      expect(StateDocument.validate(doc)).toBe(true)
      const parsed = StateDocument.parse(doc)
      expect(withStateDefaults(doc)).toStrictEqual(parsed)
    }
  })
})
