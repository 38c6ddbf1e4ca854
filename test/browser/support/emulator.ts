/**
 * An emulator served over HTTP for the browser tests (manual clock, no rate
 * limit), with a small API client that speaks to it the way an app would.
 */
import { createEmulator, type EmulatorOptions, type PresentationEmulator } from '../../../src/index.js'

export interface ServedEmulator {
  emulator: PresentationEmulator
  /** `http://127.0.0.1:<port>` */
  origin: string
  /** Calls `/v1` with a key; answers status and parsed JSON. */
  api(method: string, path: string, key: string, json?: unknown): Promise<{ status: number; body: any }>
  close(): Promise<void>
}

export async function serveEmulator(options: EmulatorOptions = {}): Promise<ServedEmulator> {
  const emulator = createEmulator({ clock: 'manual', rateLimit: 0, ...options })
  const server = await emulator.listen({ port: 0 })
  return {
    emulator,
    origin: server.origin,
    async api(method, path, key, json) {
      const response = await fetch(`${server.origin}/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
        body: json === undefined ? undefined : JSON.stringify(json),
      })
      const text = await response.text()
      return { status: response.status, body: text === '' ? null : JSON.parse(text) }
    },
    close: () => emulator.close(),
  }
}
