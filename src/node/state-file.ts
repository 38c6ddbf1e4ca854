import { open, readdir, readFile, rm, type FileHandle } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import writeFileAtomic from 'write-file-atomic'
import { ServiceError } from '../core/errors.js'
import type { Emulator } from '../emulator.js'

/**
 * Makes a rename in `dir` durable (a power cut after it keeps the new name).
 * Best effort: some platforms and file systems cannot fsync a directory.
 */
async function syncDirectory(dir: string): Promise<void> {
  let handle: FileHandle | undefined
  try {
    handle = await open(dir, 'r')
    await handle.sync()
  } catch {
    // EISDIR / EPERM / EINVAL on Windows and some file systems: nothing more can be done.
  } finally {
    await handle?.close().catch(() => undefined)
  }
}

/**
 * A state file that cannot be loaded, or (new) cannot be written; the
 * message says why. `ready()` of an emulator with the `stateFile` option
 * rejects with it, and the CLI tells it apart by its `name` (without loading
 * this module, which only `--state` loads).
 */
export class StateFileError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'StateFileError'
  }
}

/**
 * Persists an emulator's world to a JSON file: loaded once at start, saved
 * after changes (debounced) and on demand. Every save writes a temporary file
 * in the same folder, fsyncs it, renames it over the old one and fsyncs the
 * folder, so a crash at any moment leaves either the previous or the new
 * complete document. (A crash can leave that temporary file, named
 * `<file>.<number>`, behind; it is never read, and the next start removes it.)
 */
/** Writes a whole file atomically and durably: a temporary file in the same folder, fsync, rename. */
export type WriteFile = (path: string, data: string) => Promise<void>

/** The default `WriteFile`: write-file-atomic with fsync. */
export const atomicWrite: WriteFile = (path, data) => writeFileAtomic(path, data, { fsync: true })

export interface StateFileOptions {
  /** Delay between a change and its save, in ms (default 100). */
  debounceMs?: number
  /** First delay before a failed save is tried again, in ms (default 1 s); it doubles up to `maxRetryMs`. */
  retryMs?: number
  /** Longest delay between retries of a failing save, in ms (default 30 s). */
  maxRetryMs?: number
  /** Called once when saves start failing (not again until one succeeds). */
  onError?: (error: unknown) => void
  /** Called when a save succeeds after failures. */
  onRecover?: () => void
  /** The file system's write (default `atomicWrite`); a test can put a failing disk in front of it. */
  writeFile?: WriteFile
}

export class StateFile {
  #timer: ReturnType<typeof setTimeout> | undefined
  #saving: Promise<void> = Promise.resolve()
  #dirty = false
  #unsubscribe: (() => void) | undefined
  /** True from a failed background save until one succeeds: the failure is reported once. */
  #failing = false
  #retryDelay = 0

  constructor(
    readonly path: string,
    private readonly emulator: Emulator,
    private readonly options: StateFileOptions = {},
  ) {}

  /**
   * Loads the file into the emulator if it exists. Returns false when there
   * is no file; throws `StateFileError` (and changes nothing, the file
   * included) when it cannot be read or is not a valid state document.
   */
  async load(): Promise<boolean> {
    let text: string
    try {
      text = await readFile(this.path, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        await this.#removeStaleTemporaries()
        return false
      }
      throw new StateFileError(`cannot read state file ${this.path}: ${(error as Error).message}`)
    }
    let doc: unknown
    try {
      doc = JSON.parse(text)
    } catch (error) {
      throw new StateFileError(`state file ${this.path} is not valid JSON (${(error as Error).message})`)
    }
    try {
      await this.emulator.control.putState(doc, { adopt: true })
    } catch (error) {
      const reason = error instanceof ServiceError ? (error.hint ?? error.error) : (error as Error).message
      throw new StateFileError(`state file ${this.path} cannot be loaded: ${reason}`)
    }
    await this.#removeStaleTemporaries()
    return true
  }

  /**
   * Deletes `<file>.<number>` temporaries a killed process left beside the
   * state file (only once the file itself loaded: a failed start touches
   * nothing). Best effort.
   */
  async #removeStaleTemporaries(): Promise<void> {
    const dir = dirname(this.path)
    const pattern = new RegExp(`^${basename(this.path).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.\\d+$`)
    try {
      const stale = (await readdir(dir)).filter((name) => pattern.test(name))
      await Promise.all(stale.map((name) => rm(join(dir, name), { force: true })))
    } catch {
      // A folder we cannot list: leave it be.
    }
  }

  /** Starts saving after every change, at most once per debounce interval. */
  watch(): void {
    this.#unsubscribe ??= this.emulator.onChange(() => this.#schedule())
  }

  /**
   * Saves after `delayMs`. A background save that fails (read-only folder,
   * full disk) leaves the last good file in place (the write is atomic), is
   * reported once, and is tried again after a growing delay even if nothing
   * changes; changes meanwhile wait for that retry.
   */
  #schedule(delayMs = this.options.debounceMs ?? 100): void {
    this.#dirty = true
    if (this.#timer !== undefined) return
    this.#timer = setTimeout(() => {
      this.#timer = undefined
      this.#saving = this.#saving
        .then(() => this.#save())
        .then(
          () => this.#succeeded(),
          (error: unknown) => {
            if (!this.#failing) {
              this.#failing = true
              ;(this.options.onError ?? console.error)(error)
            }
            const first = this.options.retryMs ?? 1_000
            this.#retryDelay = Math.min(this.#retryDelay === 0 ? first : this.#retryDelay * 2, this.options.maxRetryMs ?? 30_000)
            if (this.#unsubscribe !== undefined) this.#schedule(this.#retryDelay)
          },
        )
    }, delayMs)
    // A pending save never keeps the process alive by itself: shutdown saves through close().
    this.#timer.unref?.()
  }

  #succeeded(): void {
    this.#retryDelay = 0
    if (!this.#failing) return
    this.#failing = false
    this.options.onRecover?.()
  }

  async #save(): Promise<void> {
    if (!this.#dirty) return
    this.#dirty = false
    try {
      const doc = await this.emulator.control.getState()
      await (this.options.writeFile ?? atomicWrite)(this.path, `${JSON.stringify(doc)}\n`)
    } catch (error) {
      // Not saved: the next save (a later change, or close) must write it.
      this.#dirty = true
      throw error
    }
    await syncDirectory(dirname(this.path))
  }

  /** Writes the current state now (and waits for a save in progress). */
  async save(): Promise<void> {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer)
      this.#timer = undefined
    }
    this.#dirty = true
    const run = this.#saving.then(() => this.#save())
    // The chain itself never stays rejected, so a failed save does not stop every later one.
    this.#saving = run.catch(() => undefined)
    await run
    this.#succeeded()
  }

  /** Stops watching; pending changes are saved first. */
  async close(): Promise<void> {
    this.#unsubscribe?.()
    this.#unsubscribe = undefined
    if (this.#dirty || this.#timer !== undefined) await this.save()
    else await this.#saving
  }
}
