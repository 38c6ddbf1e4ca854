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
import { createRequire } from 'node:module'
import type { MswHttp } from './adapters/msw.js'
import type { HttpServerOptions, RunningServer } from './node/http-server.js'
import { buildEmulator, type PresentationEmulatorBase } from './presentation-emulator.js'
import type { EmulatorOptions } from './emulator.js'
import './node/compiled-state-schema.js'

/** One independent emulated service and every way into it, `listen` included. */
export interface PresentationEmulator extends PresentationEmulatorBase {
  /** Serves the emulator over HTTP (Node only); `editorUrl` and friends then point at it. */
  listen(options?: HttpServerOptions): Promise<RunningServer>
}

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
  return buildEmulator<RunningServer, HttpServerOptions>(options, loadMswHttp, async (handle, listenOptions) => {
    const { listenHttp } = await import('./node/http-server.js')
    return listenHttp(handle, listenOptions)
  })
}

export * from './exports.js'
export type { HttpServerOptions, RunningServer } from './node/http-server.js'
