/**
 * The Node entry's `stateFile` option: the world kept in a JSON file
 * (`StateFile`), as the CLI's `--state` keeps it. The state file's code
 * (and write-file-atomic) is loaded only by an emulator that has one.
 */
import type { Persistence } from '../create-emulator.js'
import type { Emulator } from '../emulator.js'
import type { StateFile } from './state-file.js'

/**
 * Where the Node entry keeps the world: a file path, or the path with what
 * to call when background saves start failing (`onError`, once until one
 * works again) and when one works again (`onRecover`).
 */
export type StateFileOption =
  | string
  | {
      path: string
      /** Called once when saves start failing (the last saved file is kept, and the save is retried). Default: the emulator's `onError`, else `console.error`. */
      onError?: (error: unknown) => void
      /** Called when a save works again after failures. Default: nothing. */
      onRecover?: () => void
    }

/** The option checked, with its defaults. */
export interface ResolvedStateFile {
  path: string
  onError: (error: unknown) => void
  onRecover: (() => void) | undefined
}

/**
 * Checks the `stateFile` option (a `TypeError` names what is wrong) and fills
 * in its defaults; `fallback` is the emulator's `onError`, if given.
 */
export function resolveStateFile(option: StateFileOption, fallback?: (error: unknown) => void): ResolvedStateFile {
  const given = typeof option === 'string' ? { path: option } : option
  if (typeof given?.path !== 'string' || given.path === '') {
    throw new TypeError('stateFile must be a file path, or { path, onError?, onRecover? }')
  }
  const { path } = given
  const report = fallback ?? ((error: unknown) => console.error('[presentation-emulator]', error))
  return {
    path,
    onError:
      given.onError ??
      ((error) =>
        report(
          new Error(
            `cannot save state to ${path}: ${(error as Error)?.message ?? String(error)}. The last saved file is kept, and the save is retried`,
          ),
        )),
    onRecover: given.onRecover,
  }
}

/**
 * A state file as an emulator's persistence: loaded once the world is built
 * (a file that does not exist yet is written at once, so a path that cannot
 * be written is reported by `ready()`), saved after changes (debounced, in
 * the background) and on `close()`.
 */
export class StateFilePersistence implements Persistence {
  readonly #emulator: Emulator
  readonly #option: ResolvedStateFile
  readonly #module: Promise<typeof import('./state-file.js')>
  #file: StateFile | undefined
  #loaded: boolean | undefined

  constructor(emulator: Emulator, option: ResolvedStateFile) {
    this.#emulator = emulator
    this.#option = option
    // Loaded while the world is built, not after it.
    this.#module = import('./state-file.js')
    this.#module.catch(() => undefined)
  }

  /** Once loaded: true when the world came from the file, false when the file was new (and has been written). */
  get loaded(): boolean | undefined {
    return this.#loaded
  }

  async load(): Promise<void> {
    const { StateFile, StateFileError } = await this.#module
    const { path, onError, onRecover } = this.#option
    const file = new StateFile(path, this.#emulator, { onError, onRecover })
    const loaded = await file.load()
    if (!loaded) {
      try {
        await file.save()
      } catch (error) {
        throw new StateFileError(`cannot write state file ${path}: ${(error as Error).message}`)
      }
    }
    file.watch()
    this.#file = file
    this.#loaded = loaded
  }

  async close(): Promise<void> {
    await this.#file?.close()
  }
}
