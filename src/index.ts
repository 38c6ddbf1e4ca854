/**
 * presentation-emulator: a local, stateful, deterministic Presentation
 * Service for development and tests. This is the Node entry; bundlers that
 * target browsers get `browser.ts` (the same exports, without `listen` and
 * `stateFile`).
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
import { resolveStateFile, StateFilePersistence, type StateFileOption } from './node/state-file-persistence.js'
import { listenNode, loadMswHttp } from './node/ways-in.js'
import { lazySlideChecker } from '../web/check/lazy.js'
import { WEB_MOUNTS } from '../web/mounts.js'
import { MCP_MOUNT } from './mcp/mount.js'

/** The options of the Node entry's `createEmulator`: every option of the browser entry, and `stateFile`. */
export interface NodeEmulatorOptions extends EmulatorOptions {
  /**
   * Keeps the world in a JSON file, as the CLI's `--state` does: loaded
   * once the world is built if the file exists (else the seeded world is
   * written to it at once), saved after changes (debounced, in the
   * background; a failed save is reported once, the last saved file is
   * kept, and the save is retried), and saved on `close()`. `ready()`
   * rejects with a `StateFileError` (its `name`) when the file cannot be
   * read, loaded or written, and the file is left as it was. A path, or
   * `{ path, onError?, onRecover? }`. Not with `persist`.
   */
  stateFile?: StateFileOption
}

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
  /**
   * With `stateFile`, once `ready()` resolves: true when the world was read
   * from the file, false when the file was new (the seeded world has been
   * written to it). Otherwise undefined.
   */
  readonly stateFileLoaded?: boolean
}

/**
 * Creates one emulated Presentation Service with its own seeded world (or
 * the one `stateFile` kept). Two emulators in one process share nothing.
 */
export function createEmulator(options: NodeEmulatorOptions = {}): PresentationEmulator {
  const { stateFile, ...emulatorOptions } = options
  // A bad option throws before anything is built.
  if (stateFile !== undefined && options.persist !== undefined) {
    throw new TypeError('persist and stateFile cannot be used together: persist keeps the state in Web Storage, stateFile in a file')
  }
  const file = stateFile === undefined ? undefined : resolveStateFile(stateFile, options.onError)
  let kept: StateFilePersistence | undefined
  const emulator = buildEmulator(emulatorOptions, {
    http: loadMswHttp,
    listen: listenNode,
    parts: { stateSchema: compiledStateSchema, mounts: [...WEB_MOUNTS, MCP_MOUNT], slideChecker: lazySlideChecker },
    persistence: file === undefined ? undefined : (built) => (kept = new StateFilePersistence(built, file)),
  })
  return Object.defineProperty(emulator, 'stateFileLoaded', { get: () => kept?.loaded, enumerable: true })
}

export * from './shared-exports.js'
export type { CloseOptions } from './create-emulator.js'
export type { HttpServerOptions, RunningServer } from './node/http-server.js'
export type { StateFileOption } from './node/state-file-persistence.js'
