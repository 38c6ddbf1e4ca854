import type * as z from 'zod'
import { describe, expect, it } from 'vitest'
import { createEmulator } from '../index.js'
import { MAX_JSON_DEPTH } from '../core/json-depth.js'
import { safeParse } from '../core/validation.js'
import { stateSchema } from './state-schema.js'
import { StateDocument } from './world.js'

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

describe('the compiled state schema (Node)', () => {
  it('is what a state import uses in Node, and answers every document as the schema does: the same value, or the same issues', async () => {
    expect(stateSchema()).not.toBe(StateDocument)
    const emulator = createEmulator({ clock: 'manual' })
    const valid = JSON.stringify(await emulator.control.getState())
    await emulator.close()
    const variant = (change: (doc: any) => unknown) => {
      const doc = JSON.parse(valid)
      return change(doc) ?? doc
    }
    const documents = [
      variant(() => undefined),
      // Defaults: tokens without their lists get empty ones, from either parser.
      variant((d) => void (d.projects[0].config.tokens = {})),
      variant((d) => void (d.projects[0].createdAt = '2026-02-30T00:00:00Z')),
      variant((d) => void (d.projects[0].config = { layout: 'DIAGONAL' })),
      variant((d) => void (d.teams[0].credits = -1)),
      variant((d) => void (d.users[0].nickname = 'Al')),
      variant((d) => void (d.slides[0].files['slide.content.json'] = '['.repeat(100))),
      variant((d) => void delete d.jobs),
      variant((d) => ({ ...d, format: 'presentation-emulator/state@0' })),
      variant((d) => [d]),
      null,
    ]
    for (const doc of documents) {
      const compiled = safeParse(stateSchema(), doc)
      const runtime = safeParse(StateDocument, doc)
      expect(compiled.success).toBe(runtime.success)
      if (compiled.success && runtime.success) expect(compiled.data).toStrictEqual(runtime.data)
      else expect(compiled.error!.issues).toStrictEqual(runtime.error!.issues)
    }
    expect(safeParse(stateSchema(), documents[1]).data!.projects[0]!.config.tokens).toStrictEqual({ palette: [], fonts: [] })
  })
})
