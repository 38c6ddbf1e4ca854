/**
 * The slide-checker port as each composition root wires it: the Node entry
 * hands its emulator the web room's checker (loaded on first use), the
 * browser entry has none and says so when asked. (That the Node entry's
 * checker renders in Chromium: test/browser/slide-checker.test.ts.)
 */
import { describe, expect, it } from 'vitest'
import { createEmulator as createBrowserEmulator } from '../../src/browser.js'
import { createEmulator } from '../../src/index.js'
import { NO_SLIDE_CHECKER, NO_SLIDE_CHECKER_MESSAGE, SlideCheckerUnavailableError } from '../../src/model/slide-checker.js'
import type { SlideFiles } from '../../src/schemas/index.js'

const BROKEN: SlideFiles = {
  'slide.tsx': 'export default function Slide() {\n  return <h1>unclosed\n}\n',
  'slide.content.json': '{}',
  'slide.controls.json': '{"controls":[]}',
}

describe('the slide-checker port', () => {
  it('is the web room’s checker in the Node entry: a slide whose source cannot run is reported with its place, no browser needed', async () => {
    const emulator = createEmulator({ clock: 'manual' })
    try {
      const checker = emulator.emulator.slideChecker
      expect(checker.available).toBe(true)
      const result = await checker.check({ files: BROKEN, config: {} })
      expect(result).toMatchObject({ status: 'error', error: { kind: 'source', file: 'slide.tsx', line: expect.any(Number) } })
    } finally {
      await emulator.close()
    }
  })

  it('is absent from the browser entry, which answers every check and picture with why', async () => {
    const emulator = createBrowserEmulator({ clock: 'manual' })
    try {
      expect(emulator.emulator.slideChecker).toBe(NO_SLIDE_CHECKER)
      const check = emulator.emulator.slideChecker.check({ files: BROKEN, config: {} })
      await expect(check).rejects.toBeInstanceOf(SlideCheckerUnavailableError)
      await expect(emulator.emulator.slideChecker.picture({ files: BROKEN, config: {} }, { width: 640 })).rejects.toThrow(
        NO_SLIDE_CHECKER_MESSAGE,
      )
    } finally {
      await emulator.close()
    }
  })
})
