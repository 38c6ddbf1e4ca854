import type { HttpHandler } from 'msw'
import { createFetch } from './adapters/fetch.js'
import { createMswHandlers, type MswHttp } from './adapters/msw.js'
import type { ControlPlane } from './control/control-plane.js'
import type { EmulatorRequest, EmulatorResponse } from './core/exchange.js'
import { Emulator, type EmulatorOptions } from './emulator.js'
import type { HttpServerOptions, RunningServer } from './node/http-server.js'

/** One independent emulated service and every way into it. */
export interface PresentationEmulator {
  /** msw request handlers for the emulator's `baseUrl` (for `setupServer` / `setupWorker`). */
  readonly handlers: HttpHandler[]
  /** msw request handlers for another base URL (same world). */
  handlersFor(baseUrl: string): HttpHandler[]
  /** A Fetch-API function answered by the emulator without a socket. */
  readonly fetch: typeof fetch
  /** The core: one request value in, one response value out. */
  handle(request: EmulatorRequest): Promise<EmulatorResponse>
  /** Serves the emulator over HTTP (Node only); `editorUrl` and friends then point at it. */
  listen(options?: HttpServerOptions): Promise<RunningServer>
  /** Every control-plane action as a typed function. */
  readonly control: ControlPlane
  /** Resolves once the seeded world is built. */
  ready(): Promise<void>
  /** Stops servers started by `listen` and the job timer. */
  close(): Promise<void>
  /** The emulator itself (world, clock, faults, journal), for advanced use. */
  readonly emulator: Emulator
}

/** How `listen` serves a handler: the node:http adapter in Node, unavailable in a browser. */
export type Listen = (
  handle: (request: EmulatorRequest) => Promise<EmulatorResponse>,
  options: HttpServerOptions,
) => Promise<RunningServer>

/** Wraps an `Emulator` with its ways in; the entry points choose how to listen. */
export function buildEmulator(options: EmulatorOptions, listen: Listen, http: () => MswHttp): PresentationEmulator {
  const emulator = new Emulator(options)
  const handle = (request: EmulatorRequest) => emulator.handle(request)
  const servers: RunningServer[] = []
  let handlers: HttpHandler[] | undefined
  return {
    get handlers() {
      handlers ??= createMswHandlers(http(), handle, emulator.baseUrl)
      return handlers
    },
    handlersFor: (baseUrl) => createMswHandlers(http(), handle, new URL(baseUrl)),
    fetch: createFetch(handle, () => emulator.baseUrl.pathname),
    handle,
    async listen(listenOptions = {}) {
      await emulator.ready()
      const server = await listen(handle, listenOptions)
      emulator.setListenOrigin(server.origin)
      servers.push(server)
      return server
    },
    control: emulator.control,
    ready: () => emulator.ready(),
    async close() {
      emulator.close()
      await Promise.all(servers.splice(0).map((server) => server.close()))
    },
    emulator,
  }
}
