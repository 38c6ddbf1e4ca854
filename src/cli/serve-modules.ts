/**
 * Everything `serve` and `exec` load once the command line is read, behind
 * one dynamic import: `--help` and usage errors answer without loading the
 * emulator, and a start reads a few files instead of one per module
 * (each file costs a start its resolution, read and compilation).
 *
 * The CLI builds its emulator as the library does, through the Node entry's
 * `createEmulator` (the web room comes with it).
 */
export { isLoopbackAddress } from '../core/web-guard.js'
export { BUILT_IN_FIXTURES, createEmulator, FixturesError, parseFixtures } from '../index.js'
