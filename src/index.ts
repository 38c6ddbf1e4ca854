/**
 * presentation-emulator: a local, stateful, deterministic Presentation
 * Service for development and tests. This is the Node entry; bundlers that
 * target browsers get `browser.ts` (the same exports, without `listen`).
 *
 * @example
 * import { setupServer } from 'msw/node'
 * import { createEmulator } from 'presentation-emulator'
 *
 * const emulator = createEmulator({ baseUrl: 'https://api.example.com/v1' })
 * const server = setupServer(...emulator.handlers)
 * server.listen()
 */
import { buildEmulator, standardCore, type PresentationEmulatorBase } from './create-emulator.js'
import type { EmulatorOptions } from './emulator.js'
import type { HttpServerOptions, RunningServer } from './node/http-server.js'
import { compiledStateSchema } from './node/compiled-state-schema.js'
import { listenNode, loadMswHttp } from './node/ways-in.js'
import { WEB_MOUNTS } from '../web/mounts.js'

/** One independent emulated service and every way into it, `listen` included. */
export interface PresentationEmulator extends PresentationEmulatorBase {
  /** Serves the emulator over HTTP (Node only); `editorUrl` and friends then point at it. */
  listen(options?: HttpServerOptions): Promise<RunningServer>
}

/**
 * Creates one emulated Presentation Service with its own seeded world.
 * Two emulators in one process share nothing.
 */
export function createEmulator(options: EmulatorOptions = {}): PresentationEmulator {
  return buildEmulator<RunningServer, HttpServerOptions>(options, loadMswHttp, listenNode, (checked) =>
    standardCore(checked, { stateSchema: compiledStateSchema, mounts: WEB_MOUNTS }),
  )
}

export * from './shared-exports.js'
export type { HttpServerOptions, RunningServer } from './node/http-server.js'
