import { isDeepStrictEqual } from 'node:util'
import * as z from 'zod'
import { describe, expect, it } from 'vitest'
import { createEmulator } from '../index.js'
import { StateDocument } from '../store/world.js'
import { parseChanges } from './parse-changes.js'

describe('parseChanges', () => {
  it('is false exactly where the parse gives the value itself, for state documents with and without defaults to fill in', async () => {
    const emulator = createEmulator({ clock: 'manual' })
    const valid = JSON.stringify(await emulator.control.getState())
    await emulator.close()
    const variant = (change: (doc: any) => void) => {
      const doc = JSON.parse(valid)
      change(doc)
      return doc
    }
    const cases: Array<[string, unknown, boolean]> = [
      ['an export', variant(() => undefined), false],
      ['a project config without tokens', variant((d) => delete d.projects[0].config.tokens), false],
      ['tokens without their lists', variant((d) => (d.projects[0].config.tokens = {})), true],
      ['tokens without fonts', variant((d) => delete d.projects[1].config.tokens.fonts), true],
      ['a template whose tokens lack a palette', variant((d) => delete d.templates[0].config.tokens.palette), true],
      ['a publication whose tokens lack fonts', variant((d) => delete d.publications[0].config.tokens.fonts), true],
    ]
    for (const [name, doc, changes] of cases) {
      const parsed = StateDocument.parse(doc)
      expect([name, parseChanges(StateDocument, doc)]).toEqual([name, changes])
      expect([name, !isDeepStrictEqual(parsed, doc)]).toEqual([name, changes])
    }
  })

  it('is always true for a schema with a part whose output is not its input', () => {
    expect(parseChanges(z.strictObject({ a: z.string().trim() }), { a: 'x' })).toBe(true)
    expect(parseChanges(z.strictObject({ a: z.string().transform((s) => s.length) }), { a: 'x' })).toBe(true)
    expect(parseChanges(z.object({ a: z.string() }), { a: 'x' })).toBe(true)
    expect(parseChanges(z.union([z.string(), z.strictObject({ a: z.number().default(1) })]), 'x')).toBe(true)
    expect(parseChanges(z.strictObject({ a: z.array(z.string()), b: z.enum(['x']).nullable() }), { a: ['x'], b: null })).toBe(false)
    expect(parseChanges(z.strictObject({ a: z.number().default(1) }), {})).toBe(true)
    expect(parseChanges(z.strictObject({ a: z.number().default(1) }), { a: 2 })).toBe(false)
  })
})
