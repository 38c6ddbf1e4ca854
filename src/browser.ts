/**
 * The browser entry (the `browser` export condition, and the
 * `presentation-emulator/browser` subpath): the same exports as the Node
 * entry, but `createEmulator()` has no `listen` (there is no server to
 * run in a page: use `handlers` with msw's `setupWorker`, or `fetch`), and
 * nothing here pulls in node:http, at run time or in the types.
 */
import { http } from 'msw'
import type { EmulatorOptions } from './emulator.js'
import { buildEmulator, type PresentationEmulatorBase } from './create-emulator.js'
import { WEB_MOUNTS } from '../web/mounts.js'

/** One independent emulated service and the ways into it a browser has: msw handlers, `fetch`, `handle`. */
export type PresentationEmulator = PresentationEmulatorBase

/**
 * Creates one emulated Presentation Service with its own seeded world (or
 * the one `persist` kept).
 *
 * @example
 * import { setupWorker } from 'msw/browser'
 * import { createEmulator } from 'presentation-emulator/browser'
 *
 * const emulator = createEmulator({ baseUrl: `${location.origin}/api/v1`, persist: 'sessionStorage' })
 * await setupWorker(...emulator.handlers).start()
 */
export function createEmulator(options: EmulatorOptions = {}): PresentationEmulator {
  if ((options as { stateFile?: unknown }).stateFile !== undefined) {
    throw new TypeError('stateFile needs a file system (the Node entry): in a browser, keep the state with persist')
  }
  if (options.checkSlidesOnSave === true) {
    throw new TypeError(
      'checkSlidesOnSave needs a slide checker, which renders slides in Node: the browser entry and msw in a page have none (use createEmulator from "presentation-emulator" in Node, or the CLI\'s --check-slides-on-save)',
    )
  }
  return buildEmulator(options, { http: () => http, parts: { mounts: WEB_MOUNTS } })
}

export * from './shared-exports.js'
