/**
 * What both entries export besides `createEmulator` and its result's type:
 * one list, so the Node entry (`index.ts`) and the browser entry
 * (`browser.ts`) cannot drift apart. Nothing here may reach Node's APIs or
 * types.
 */
export type { PresentationEmulatorBase } from './create-emulator.js'
export { Emulator, DEFAULT_BASE_URL, type EmulatorOptions } from './emulator.js'
export { ServiceError, ErrorCodes, Messages, defaultErrorCode, type ErrorCode } from './core/errors.js'
export type { EmulatorRequest, EmulatorResponse } from './core/exchange.js'
export type { JournalEntry, JournalMessage } from './core/journal.js'
export type { Fault, FaultSpec } from './core/faults.js'
export { ControlPlane, type RequestFilter, type RequestQuery } from './control/control-plane.js'
export { BUILT_IN_FIXTURES, FixturesError, parseFixtures } from './fixtures/load.js'
export { FixturesDocument, type FixturesInput } from './fixtures/schema.js'
export { StateDocument, STATE_FORMAT } from './store/world.js'
export { DEFAULT_PERSIST_KEY, type PersistOption, type WebStorageLike } from './adapters/web-storage.js'
export {
  DEFAULT_DECK_BUDGET_MS,
  SlideCheckErrorCodes,
  type CheckSlidesOptions,
  type DeckCheckResult,
  type SlideCheckReport,
} from './model/slide-checks.js'
export type { SlideCheckError, SlideCheckResult, SlideCheckStatus } from './model/slide-checker.js'
export { VERSION } from './version.js'
export * as schemas from './schemas/index.js'
