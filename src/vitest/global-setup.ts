/**
 * A vitest `globalSetup` that starts one emulator for the whole run and
 * provides its URLs to every test file (`inject('presentationEmulator')`,
 * or the helpers of `presentation-emulator/vitest`).
 *
 * @example
 * // vitest.config.ts: the defaults (manual clock, no rate limit)
 * export default defineConfig({ test: { globalSetup: ['presentation-emulator/vitest/global-setup'] } })
 *
 * @example
 * // test/emulator.setup.ts: your own options
 * import { emulatorGlobalSetup } from 'presentation-emulator/vitest/global-setup'
 * export default emulatorGlobalSetup({ seed: 7, rateLimit: 50 })
 */
import { createEmulator } from '../index.js'
import type { EmulatorOptions } from '../options.js'
import { connectionFromEnv, PROVIDE_KEY, type EmulatorConnection } from './connection.js'

export type { EmulatorConnection } from './connection.js'

/** What vitest hands a global setup function (its `TestProject`), as far as this setup uses it. */
export interface GlobalSetupContext {
  provide(key: typeof PROVIDE_KEY, value: EmulatorConnection): void
}

export interface EmulatorGlobalSetupOptions extends EmulatorOptions {
  /** Port to listen on; default 0, a free one. */
  port?: number
  /** Interface to listen on; default 127.0.0.1. */
  host?: string
}

/**
 * A global setup function: it listens on a free port (options as
 * `createEmulator`'s, with `clock: 'manual'` unless told otherwise) and
 * provides the connection; its teardown stops the emulator. Run under
 * `presentation-emulator exec`, it starts nothing and provides the
 * emulator `exec` started.
 */
export function emulatorGlobalSetup(options: EmulatorGlobalSetupOptions = {}) {
  return async function setup(project: GlobalSetupContext): Promise<() => Promise<void>> {
    const fromExec = connectionFromEnv()
    if (fromExec !== undefined) {
      project.provide(PROVIDE_KEY, fromExec)
      return async () => {}
    }
    const { port = 0, host, ...emulatorOptions } = options
    const emulator = createEmulator({ clock: 'manual', ...emulatorOptions })
    const server = await emulator.listen({ port, host })
    const connection: EmulatorConnection = { baseUrl: `${server.origin}/v1`, controlUrl: `${server.origin}/_emulator` }
    if (emulatorOptions.adminToken !== undefined) connection.adminToken = emulatorOptions.adminToken
    project.provide(PROVIDE_KEY, connection)
    return () => emulator.close()
  }
}

/** The global setup with the defaults: manual clock, no rate limit, a free port. */
export default emulatorGlobalSetup()
