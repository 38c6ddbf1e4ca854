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
import { createRequire } from 'node:module'
import type { MswHttp } from './adapters/msw.js'
import { buildEmulator, type PresentationEmulator } from './presentation-emulator.js'
import type { EmulatorOptions } from './emulator.js'

let mswHttp: MswHttp | undefined

/**
 * msw's `http`, loaded when handlers are first asked for: a test that uses
 * only `fetch` or `listen` never loads msw, and one that uses msw has loaded
 * it already. `require` of msw's ES module (Node ≥ 20.19) gives the very
 * module `import 'msw/node'` loaded, so the handlers are the app's msw's.
 * `msw/core/http` is msw's own entry for `http` alone; older 2.x releases
 * only have the main entry.
 */
function loadMswHttp(): MswHttp {
  if (mswHttp === undefined) {
    const require = createRequire(import.meta.url)
    try {
      mswHttp = (require('msw/core/http') as { http: MswHttp }).http
    } catch {
      mswHttp = (require('msw') as { http: MswHttp }).http
    }
  }
  return mswHttp
}

/**
 * Creates one emulated Presentation Service with its own seeded world.
 * Two emulators in one process share nothing.
 */
export function createEmulator(options: EmulatorOptions = {}): PresentationEmulator {
  return buildEmulator(options, async (handle, listenOptions) => {
    const { listenHttp } = await import('./node/http-server.js')
    return listenHttp(handle, listenOptions)
  }, loadMswHttp)
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
