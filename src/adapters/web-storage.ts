import { ServiceError } from '../core/errors.js'
import type { Emulator } from '../emulator.js'

/** What persistence needs of a Web Storage object (`sessionStorage`, `localStorage`, or your own). */
export interface WebStorageLike {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
  removeItem(key: string): void
}

/**
 * Where to keep the state across page reloads: `'sessionStorage'` (this
 * tab, until it closes), `'localStorage'` (every tab of the origin, until
 * cleared), or a storage object with an optional key.
 */
export type PersistOption = 'sessionStorage' | 'localStorage' | { storage: WebStorageLike; key?: string }

/** The storage key used unless one is given. */
export const DEFAULT_PERSIST_KEY = 'presentation-emulator:state'

/** Resolves the `persist` option to a storage and a key; throws a `TypeError` naming what is missing. */
export function resolvePersist(option: PersistOption): { storage: WebStorageLike; key: string } {
  if (typeof option === 'string') {
    if (option !== 'sessionStorage' && option !== 'localStorage') {
      throw new TypeError(`persist must be "sessionStorage", "localStorage" or { storage, key? }, not ${JSON.stringify(option)}`)
    }
    const storage = (globalThis as Record<string, unknown>)[option] as WebStorageLike | undefined
    if (storage === undefined) throw new TypeError(`persist: ${option} is not available here (it is a browser API)`)
    return { storage, key: DEFAULT_PERSIST_KEY }
  }
  if (typeof option?.storage?.getItem !== 'function' || typeof option.storage.setItem !== 'function') {
    throw new TypeError('persist: storage must have getItem and setItem')
  }
  return { storage: option.storage, key: option.key ?? DEFAULT_PERSIST_KEY }
}

/**
 * Keeps an emulator's world in Web Storage, for a browser where `--state`
 * has no file to write: loaded once before the first request is answered,
 * saved after every change, and always before the response of a request
 * that changed something is handed back, so a page that saw an answer finds
 * its effect again after a reload. The same document as `--state` and
 * `GET /_emulator/state`; `control.reset()` saves the seeded world.
 */
export class WebStoragePersistence {
  #dirty = false
  #timer: ReturnType<typeof setTimeout> | undefined
  #saving: Promise<void> = Promise.resolve()
  #unsubscribe: (() => void) | undefined

  constructor(
    private readonly emulator: Emulator,
    private readonly storage: WebStorageLike,
    readonly key: string,
    private readonly onError: (error: unknown) => void,
  ) {}

  /**
   * Loads the saved state, if any, and starts saving changes. A saved
   * document that no longer loads (another version's, or edited by hand) is
   * reported to `onError` and replaced by the seeded world.
   */
  async load(): Promise<void> {
    await this.emulator.ready()
    const text = this.storage.getItem(this.key)
    if (text !== null) {
      try {
        await this.emulator.control.putState(JSON.parse(text), { adopt: true })
      } catch (error) {
        const reason = error instanceof ServiceError ? (error.hint ?? error.error) : (error as Error).message
        this.onError(new Error(`the state saved under "${this.key}" cannot be loaded (${reason}); starting from the seeded world`))
        this.#dirty = true
      }
    }
    this.#unsubscribe = this.emulator.onChange(() => {
      this.#dirty = true
      this.#timer ??= setTimeout(() => {
        this.#timer = undefined
        void this.flush()
      }, 0)
    })
    if (this.#dirty) await this.flush()
  }

  /** Saves now if anything changed since the last save (and waits for a save in progress). */
  flush(): Promise<void> {
    this.#saving = this.#saving.then(async () => {
      if (!this.#dirty) return
      this.#dirty = false
      try {
        const { emulator } = this
        const text = await emulator.exclusive(() =>
          JSON.stringify(emulator.world.toState(emulator.clock.mode === 'manual' ? emulator.clock.iso() : undefined)),
        )
        this.storage.setItem(this.key, text)
      } catch (error) {
        this.#dirty = true
        this.onError(new Error(`cannot save the state under "${this.key}": ${(error as Error).message}`))
      }
    })
    return this.#saving
  }

  /** Stops saving (pending changes are saved first). */
  async close(): Promise<void> {
    this.#unsubscribe?.()
    if (this.#timer !== undefined) clearTimeout(this.#timer)
    this.#timer = undefined
    await this.flush()
  }
}
