/**
 * The one way the tests build a server out of the emulator with test-only
 * hooks (the kit's defect servers, the spec-legal servers, the walks'
 * sequence defects). Every such server in the tests is made here, so how
 * hooks reach the emulator can change in one place.
 */
import type { TestHooks } from '../../src/api/test-hooks.js'
import { createEmulator, type EmulatorOptions, type PresentationEmulator } from '../../src/index.js'

export type { TestHooks }

/** An emulator whose `/v1` pipeline runs with `hooks`. */
export function createHookedEmulator(options: EmulatorOptions, hooks: TestHooks): PresentationEmulator {
  return createEmulator({ ...options, testHooks: hooks })
}
