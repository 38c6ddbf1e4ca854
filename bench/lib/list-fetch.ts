/**
 * The `emulator.fetch` measure of the fetch rows: sequential list calls, each
 * body read as text. It imports nothing of the emulator, so a child process
 * that measures another checkout's build loads that build only.
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

/** What the fetch child needs of a checkout's built package (`dist/node/index.js`). */
export interface Build {
  createEmulator(options: { rateLimit: number }): Fetcher & { ready(): Promise<void>; close(): Promise<void> }
}

/**
 * The fetch child's side (`bench/fetch-child.mjs`): an emulator of `build`,
 * ready and warmed, then over IPC `{ ready: true }`, and for each `{ count }`
 * received, `{ rate }`: requests per second over `count` sequential list
 * calls. Closes the emulator and exits when the parent disconnects.
 */
export async function serveListFetch(build: Build): Promise<void> {
  const send = process.send?.bind(process)
  if (send === undefined) throw new Error('the fetch child needs an IPC channel to the bench')
  const emulator = build.createEmulator({ rateLimit: 0 })
  await emulator.ready()
  const call = listFetch(emulator)
  await rate(2000, call)
  process.on('message', (message: { count: number }) => {
    rate(message.count, call).then((value) => send({ rate: value }))
  })
  process.on('disconnect', () => {
    emulator.close().then(() => process.exit(0))
  })
  send({ ready: true })
}
