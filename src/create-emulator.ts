import type { HttpHandler } from 'msw'
import { createFetch } from './adapters/fetch.js'
import { createMswHandlers, type MswHttp } from './adapters/msw.js'
import { resolvePersist, WebStoragePersistence } from './adapters/web-storage.js'
import type { ControlPlane } from './control/control-plane.js'
import type { EmulatorRequest, EmulatorResponse } from './core/exchange.js'
import { Emulator, type EmulatorOptions, type EmulatorParts } from './emulator.js'

/** The core's entry point: one request value in, one response value out. */
export type Handle = (request: EmulatorRequest) => Promise<EmulatorResponse>

/**
 * One independent emulated service and the ways into it that work
 * everywhere (Node and browsers). The Node entry adds `listen`.
 */
export interface PresentationEmulatorBase {
  /** msw request handlers for the emulator's `baseUrl` (for `setupServer` / `setupWorker`). */
  readonly handlers: HttpHandler[]
  /** msw request handlers for another base URL (same world). */
  handlersFor(baseUrl: string): HttpHandler[]
  /** A Fetch-API function answered by the emulator without a socket. */
  readonly fetch: typeof fetch
  /** The core: one request value in, one response value out. */
  handle(request: EmulatorRequest): Promise<EmulatorResponse>
  /** Every control-plane action as a typed function. */
  readonly control: ControlPlane
  /** Resolves once the seeded (or persisted) world is loaded. */
  ready(): Promise<void>
  /** Stops servers started by `listen`, the job timer and persistence (saving what is pending). */
  close(): Promise<void>
  /** The emulator itself (world, clock, faults, journal), for advanced use. */
  readonly emulator: Emulator
}

/** How an entry point serves HTTP: the node:http adapter in Node; in a browser, nothing. */
export interface Server {
  origin: string
  close(): Promise<void>
}
export type Listen<S extends Server, O> = (handle: Handle, options: O) => Promise<S>

/** The emulator a `PresentationEmulator` wraps, and the `handle` its ways in call (the emulator's own unless wrapped). */
export interface EmulatorCore {
  emulator: Emulator
  handle: Handle
}

/** The core of `createEmulator`: an `Emulator` (assembled from `parts`, if given) answering through its own `handle`. */
export function standardCore(options: EmulatorOptions, parts: EmulatorParts = {}): EmulatorCore {
  const emulator = new Emulator(options, parts)
  return { emulator, handle: (request) => emulator.handle(request) }
}

/**
 * Wraps an `Emulator` with its ways in, without `listen`: the browser entry's
 * whole object. `http` gives msw's `http` when handlers are first asked for.
 */
export function buildEmulator(
  options: EmulatorOptions,
  http: () => MswHttp,
  listen?: undefined,
  core?: (options: EmulatorOptions) => EmulatorCore,
): PresentationEmulatorBase
/**
 * Wraps an `Emulator` with its ways in, `listen` included: the Node entry's
 * object. `core` builds the emulator (after the options are checked).
 */
export function buildEmulator<S extends Server, O>(
  options: EmulatorOptions,
  http: () => MswHttp,
  listen: Listen<S, O>,
  core?: (options: EmulatorOptions) => EmulatorCore,
): PresentationEmulatorBase & { listen(options?: O): Promise<S> }
export function buildEmulator<S extends Server, O>(
  options: EmulatorOptions,
  http: () => MswHttp,
  listen?: Listen<S, O>,
  core: (options: EmulatorOptions) => EmulatorCore = standardCore,
): PresentationEmulatorBase & { listen?(options?: O): Promise<S> } {
  // A bad `persist` throws before anything is built.
  const persist = options.persist === undefined ? undefined : resolvePersist(options.persist)
  const { emulator, handle: coreHandle } = core(options)
  const servers: S[] = []
  let handle: Handle = coreHandle
  let ready = () => emulator.ready()
  let persistence: WebStoragePersistence | undefined
  if (persist !== undefined) {
    const { storage, key } = persist
    const onError = options.onError ?? ((error: unknown) => console.error('[presentation-emulator]', error))
    persistence = new WebStoragePersistence(emulator, storage, key, onError)
    const loaded = persistence.load()
    loaded.catch(() => undefined)
    const saving = persistence
    // Nothing is answered before the saved world is in, and no answer leaves before its change is saved.
    handle = async (request) => {
      await loaded
      const response = await coreHandle(request)
      await saving.flush()
      return response
    }
    ready = () => loaded
  }
  let handlers: HttpHandler[] | undefined
  const base: PresentationEmulatorBase = {
    get handlers() {
      handlers ??= createMswHandlers(http(), handle, emulator.baseUrl, emulator.mounts)
      return handlers
    },
    handlersFor: (baseUrl) => createMswHandlers(http(), handle, new URL(baseUrl), emulator.mounts),
    fetch: createFetch(handle, () => emulator.baseUrl.pathname, emulator.mounts),
    handle,
    control: emulator.control,
    ready,
    async close() {
      emulator.close()
      await emulator.slideChecker.close()
      await persistence?.close()
      await Promise.all(servers.splice(0).map((server) => server.close()))
    },
    emulator,
  }
  if (listen === undefined) return base
  return Object.assign(base, {
    async listen(listenOptions = {} as O) {
      await ready()
      // The Node server also accepts the emulator's allowed hosts and its public URL's host (DNS-rebinding guard).
      const server = await listen(handle, {
        allowedHosts: emulator.allowedHosts,
        publicHost: emulator.publicHost,
        mounts: emulator.mounts,
        ...listenOptions,
      } as O)
      emulator.setListenOrigin(server.origin)
      servers.push(server)
      return server
    },
  })
}
