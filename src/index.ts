/**
 * presentation-emulator: a local, stateful, deterministic Presentation
 * Service for development and tests.
 *
 * @example
 * import { setupServer } from 'msw/node'
 * import { createEmulator } from 'presentation-emulator'
 *
 * const emulator = createEmulator({ baseUrl: 'https://api.example.com/v1' })
 * const server = setupServer(...emulator.handlers)
 * server.listen()
 */
import { buildEmulator, type PresentationEmulator } from './presentation-emulator.js'
import type { EmulatorOptions } from './emulator.js'

/**
 * Creates one emulated Presentation Service with its own seeded world.
 * Two emulators in one process share nothing.
 */
export function createEmulator(options: EmulatorOptions = {}): PresentationEmulator {
  return buildEmulator(options, async (handle, listenOptions) => {
    const { listenHttp } = await import('./node/http-server.js')
    return listenHttp(handle, listenOptions)
  })
}

export type { PresentationEmulator } from './presentation-emulator.js'
export { Emulator, DEFAULT_BASE_URL, type EmulatorOptions } from './emulator.js'
export { ServiceError, ErrorCodes, Messages, defaultErrorCode, type ErrorCode } from './core/errors.js'
export type { EmulatorRequest, EmulatorResponse } from './core/exchange.js'
export type { JournalEntry } from './core/journal.js'
export type { Fault, FaultSpec } from './core/faults.js'
export { ControlPlane } from './control/control-plane.js'
export { BUILT_IN_FIXTURES, FixturesError, parseFixtures } from './fixtures/load.js'
export { FixturesDocument, type FixturesInput } from './fixtures/schema.js'
export { StateDocument, STATE_FORMAT } from './store/world.js'
export type { HttpServerOptions, RunningServer } from './node/http-server.js'
export { VERSION } from './version.js'
export * as schemas from './schemas/index.js'
