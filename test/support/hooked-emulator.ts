/**
 * The one way the tests build a server out of the emulator with test-only
 * hooks (the kit's defect servers, the spec-legal servers, the walks'
 * sequence defects). Every such server in the tests is made here; the
 * hooks reach the emulator through its internal factory
 * (`src/testing/hooked-emulator.ts`), never through its options.
 */
import type { EmulatorOptions, PresentationEmulator } from '../../src/index.js'
import { createHookedEmulator as hookedEmulator, type TestHooks } from '../../src/testing/hooked-emulator.js'

export type { TestHooks }

/** An emulator whose `/v1` pipeline runs with `hooks`. */
export function createHookedEmulator(options: EmulatorOptions, hooks: TestHooks): PresentationEmulator {
  return hookedEmulator(options, hooks)
}
