/**
 * Everything `serve` and `exec` load once the command line is read, behind
 * one dynamic import: `--help` and usage errors answer without loading the
 * emulator, and a start reads a few files instead of one per module
 * (each file costs a start its resolution, read and compilation).
 */
export { isLoopbackAddress } from '../core/web-guard.js'
export { Emulator } from '../emulator.js'
export { BUILT_IN_FIXTURES, FixturesError, parseFixtures } from '../fixtures/load.js'
export { compiledStateSchema } from '../node/compiled-state-schema.js'
export { listenHttp } from '../node/http-server.js'
export { WEB_MOUNTS } from '../../web/mounts.js'
