/**
 * The `emulator.fetch` measure of the fetch rows: sequential list calls, each
 * body read as text. It imports nothing of the emulator, so it can measure
 * another checkout's build as well as this one's.
 */

/** The key the in-process rows call with (Alice, in Acme: 20 projects in the list). */
export const KEY = 'pres_test_alice_acme'

/** What the measure needs of an emulator, this checkout's or another build's. */
export interface Fetcher {
  fetch(input: string, init?: RequestInit): Promise<Response>
}

/** One `GET /v1/projects` through `emulator.fetch`, its body read as text. */
export function listFetch(emulator: Fetcher): () => Promise<string> {
  const init = { headers: { authorization: `Bearer ${KEY}` } }
  return async () => (await emulator.fetch('http://127.0.0.1:4010/v1/projects', init)).text()
}

/** Requests per second of `call`, over `count` sequential calls. */
export async function rate(count: number, call: () => Promise<unknown>): Promise<number> {
  const started = performance.now()
  for (let i = 0; i < count; i++) await call()
  return count / ((performance.now() - started) / 1000)
}
