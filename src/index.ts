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
import { buildEmulator, type CloseOptions, type PresentationEmulatorBase } from './create-emulator.js'
import type { EmulatorOptions } from './emulator.js'
import type { HttpServerOptions, RunningServer } from './node/http-server.js'
import { compiledStateSchema } from './node/compiled-state-schema.js'
import { listenNode, loadMswHttp } from './node/ways-in.js'
import { WEB_MOUNTS } from '../web/mounts.js'

/** One independent emulated service and every way into it, `listen` included. */
export interface PresentationEmulator extends PresentationEmulatorBase {
  /** Serves the emulator over HTTP (Node only); `editorUrl` and friends then point at it. */
  listen(options?: HttpServerOptions): Promise<RunningServer>
  /**
   * Stops the job timer and journal waits, then the servers `listen` started
   * (their requests in flight finish, cut after `forceAfterMs`), then
   * persistence, saving what is pending; rejects when that last save fails.
   */
  close(options?: CloseOptions): Promise<void>
}

/**
 * Creates one emulated Presentation Service with its own seeded world.
 * Two emulators in one process share nothing.
 */
export function createEmulator(options: EmulatorOptions = {}): PresentationEmulator {
  return buildEmulator(options, {
    http: loadMswHttp,
    listen: listenNode,
    parts: { stateSchema: compiledStateSchema, mounts: WEB_MOUNTS },
  })
}

export * from './shared-exports.js'
export type { CloseOptions } from './create-emulator.js'
export type { HttpServerOptions, RunningServer } from './node/http-server.js'
