import { describe, expect, it } from 'vitest'
import { safeParse } from '../core/validation.js'
import { createEmulator } from '../index.js'
import { StateDocument } from '../store/world.js'
import { compiledStateSchema } from './compiled-state-schema.js'

describe('the compiled state schema (Node)', () => {
  it('is what a state import uses in Node, and answers every document as the schema does: the same value, or the same issues', async () => {
    const emulator = createEmulator({ clock: 'manual' })
    expect(emulator.emulator.stateSchema()).toBe(compiledStateSchema())
    expect(compiledStateSchema()).not.toBe(StateDocument)
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
      const compiled = safeParse(compiledStateSchema(), doc)
      const runtime = safeParse(StateDocument, doc)
      expect(compiled.success).toBe(runtime.success)
      if (compiled.success && runtime.success) expect(compiled.data).toStrictEqual(runtime.data)
      else expect(compiled.error!.issues).toStrictEqual(runtime.error!.issues)
      expect(compiledStateSchema().validate(doc)).toBe(StateDocument.validate(doc))
    }
    expect(safeParse(compiledStateSchema(), documents[1]).data!.projects[0]!.config.tokens).toStrictEqual({ palette: [], fonts: [] })
  })
})
