import type { HttpHandler } from 'msw'
import { createFetch } from './adapters/fetch.js'
import { createMswHandlers, type MswHttp } from './adapters/msw.js'
import { resolvePersist, WebStoragePersistence } from './adapters/web-storage.js'
import type { ControlPlane } from './control/control-plane.js'
import { fail } from './core/errors.js'
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
  /** Resolves once the seeded (or persisted) world is loaded; rejects with the reason it cannot be. */
  ready(): Promise<void>
  /**
   * Stops the job timer and journal waits, then servers started by `listen`
   * (their requests in flight finish first), then persistence, saving what
   * is pending; rejects when that last save fails.
   */
  close(): Promise<void>
  /** The emulator itself (world, clock, faults, journal), for advanced use. */
  readonly emulator: Emulator
}

/** How an entry point serves HTTP: the node:http adapter in Node; in a browser, nothing. */
export interface Server {
  origin: string
  /** Stops accepting connections and lets requests in flight finish, cutting them after `forceAfterMs`. */
  close(forceAfterMs?: number): Promise<void>
}
export type Listen<S extends Server, O> = (handle: Handle, options: O) => Promise<S>

/** How `close()` stops the servers `listen` started. */
export interface CloseOptions {
  /** How long requests in flight may take to finish before their connections are cut, in ms (the server's default: 10 s). */
  forceAfterMs?: number
}

/**
 * Where an emulator's world is kept between runs (Web Storage, a state
 * file): loaded after the emulator's own world is built and before anything
 * is answered, saved on change, closed last.
 */
export interface Persistence {
  /** Puts the kept world, if there is one, in place of the seeded one; rejects with why it cannot. */
  load(): Promise<void>
  /** Saves what changed; when present, each answer waits for it before it leaves. */
  flush?(): Promise<void>
  /** Stops saving, after saving what is pending; rejects when that save fails. */
  close(): Promise<void>
}

/** What an entry point puts around the emulator: the one place an emulator is composed. */
export interface Environment {
  /** msw's `http`, asked for when handlers are first made. */
  http: () => MswHttp
  /** How the `Emulator` is assembled beyond its options (state schema, the web room's mounts, pipeline parts). */
  parts?: EmulatorParts
  /** How it serves HTTP (the Node entry's node:http server); without it, the result has no `listen`. */
  listen?: Listen<Server, never>
  /** Where the world is kept (the Node entry's state file); without it, the `persist` option's Web Storage, if given. */
  persistence?: (emulator: Emulator) => Persistence
  /** Wraps the emulator's `handle` for every way in (the tests' rewriting servers). */
  wrapHandle?: (handle: Handle, emulator: Emulator) => Handle
}

/** `listen`, typed by the server and options of the environment's `listen`. */
export type ListenOf<E extends Environment> = E extends { listen: (handle: Handle, options: infer O) => Promise<infer S> }
  ? { listen(options?: O): Promise<S> }
  : unknown

/**
 * Builds an `Emulator` from `options` and the entry's `environment`, and
 * wraps it with its ways in: msw handlers, `fetch`, `handle`, persistence,
 * and `listen` when the environment can serve HTTP. Both entries, the CLI
 * (through the Node entry) and the tests' servers are built here.
 */
export function buildEmulator<E extends Environment>(options: EmulatorOptions, environment: E): PresentationEmulatorBase & ListenOf<E> {
  const { http, parts = {}, listen, wrapHandle } = environment
  // A bad `persist`, or `persist` beside the entry's own persistence, throws before anything is built.
  const persist = options.persist === undefined ? undefined : resolvePersist(options.persist)
  if (persist !== undefined && environment.persistence !== undefined) {
    throw new TypeError('persist cannot be used with another persistence (stateFile): choose one place to keep the state')
  }
  const emulator = new Emulator(options, parts)
  const own: Handle = (request) => emulator.handle(request)
  const coreHandle = wrapHandle === undefined ? own : wrapHandle(own, emulator)
  let persistence: Persistence | undefined
  if (persist !== undefined) {
    const onError = options.onError ?? ((error: unknown) => console.error('[presentation-emulator]', error))
    persistence = new WebStoragePersistence(emulator, persist.storage, persist.key, onError)
  } else persistence = environment.persistence?.(emulator)
  let handle = coreHandle
  let ready = () => emulator.ready()
  // Settles once persistence has loaded or failed to: it is closed only after that.
  let loading: Promise<unknown> = Promise.resolve()
  if (persistence !== undefined) {
    const kept = persistence
    const loaded = emulator.ready().then(() => kept.load())
    // Reported by ready() and by every request; never as an unhandled rejection.
    loading = loaded.catch(() => undefined)
    let settled = false
    let failure: unknown
    loaded.then(
      () => {
        settled = true
      },
      (error: unknown) => {
        settled = true
        failure = error
      },
    )
    const flush = kept.flush?.bind(kept)
    // Nothing is answered before the kept world is in (a world that could not be loaded is answered
    // as the emulator answers one it could not build), and, with `flush`, no answer leaves before its change is kept.
    const guarded: Handle = async (request) => {
      if (!settled) await loading
      if (failure !== undefined) {
        return fail.internal(`the emulator could not load its world: ${(failure as Error)?.message ?? String(failure)}`).toResponse()
      }
      const response = await coreHandle(request)
      if (flush !== undefined) await flush()
      return response
    }
    // Saved in the background (a state file): once loaded, a request goes straight to the emulator.
    handle = flush === undefined ? (request) => (settled && failure === undefined ? coreHandle(request) : guarded(request)) : guarded
    ready = () => loaded
  }
  const servers: Server[] = []
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
    async close({ forceAfterMs }: CloseOptions = {}) {
      emulator.close()
      // The servers first: the requests in flight finish, and their changes are in the last save.
      await Promise.all(servers.splice(0).map((server) => server.close(forceAfterMs)))
      await emulator.slideChecker.close()
      await loading
      await persistence?.close()
    },
    emulator,
  }
  if (listen === undefined) return base as PresentationEmulatorBase & ListenOf<E>
  return Object.assign(base, {
    async listen(listenOptions = {}) {
      await ready()
      // The Node server also accepts the emulator's allowed hosts and its public URL's host (DNS-rebinding guard).
      const server = await listen(handle, {
        allowedHosts: emulator.allowedHosts,
        publicHost: emulator.publicHost,
        mounts: emulator.mounts,
        ...listenOptions,
      } as never)
      emulator.setListenOrigin(server.origin)
      servers.push(server)
      return server
    },
  }) as unknown as PresentationEmulatorBase & ListenOf<E>
}
