/**
 * The browser entry (the `browser` export condition): everything of the
 * Node entry but `listen`, so a bundle for `setupWorker` pulls in no
 * node:http.
 */
import { http } from 'msw'
import type { EmulatorOptions } from './emulator.js'
import { buildEmulator, type PresentationEmulator } from './presentation-emulator.js'

export function createEmulator(options: EmulatorOptions = {}): PresentationEmulator {
  return buildEmulator(
    options,
    () => Promise.reject(new Error('listen() needs Node; in a browser use handlers with setupWorker, or fetch')),
    () => http,
  )
}

export type { PresentationEmulator } from './presentation-emulator.js'
export { Emulator, DEFAULT_BASE_URL, type EmulatorOptions } from './emulator.js'
export { ServiceError, ErrorCodes, Messages, defaultErrorCode, type ErrorCode } from './core/errors.js'
export type { EmulatorRequest, EmulatorResponse } from './core/exchange.js'
export { BUILT_IN_FIXTURES, FixturesError, parseFixtures } from './fixtures/load.js'
export { VERSION } from './version.js'
export * as schemas from './schemas/index.js'
