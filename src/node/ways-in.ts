/**
 * What the Node entry adds to the ways into an emulator: msw's `http`,
 * loaded when handlers are first asked for, and `listen` (node:http, loaded
 * when a server is first started).
 */
import { createRequire } from 'node:module'
import type { MswHttp } from '../adapters/msw.js'
import type { Handle } from '../create-emulator.js'
import type { HttpServerOptions, RunningServer } from './http-server.js'

let mswHttp: MswHttp | undefined
/**
 * msw's `http`, loaded when handlers are first asked for: a test that uses
 * only `fetch` or `listen` never loads msw, and one that uses msw has loaded
 * it already. `require` of msw's ES module (Node ≥ 20.19) gives the very
 * module `import 'msw/node'` loaded, so the handlers are the app's msw's.
 * `msw/core/http` is msw's own entry for `http` alone; older 2.x releases
 * only have the main entry.
 */
export function loadMswHttp(): MswHttp {
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

/** Serves `handle` over HTTP, loading the node:http adapter on first use. */
export async function listenNode(handle: Handle, options: HttpServerOptions): Promise<RunningServer> {
  const { listenHttp } = await import('./http-server.js')
  return listenHttp(handle, options)
}
