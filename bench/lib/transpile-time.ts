/**
 * The transpile measure of the render rows: `transpileSlideTsx` (the
 * emulator's side of a slide) timed call by call over a set of slide texts.
 * It imports nothing of the emulator, so a child process that measures
 * another checkout's transpiler loads that checkout's code only
 * (`bench/transpile-child.mjs`).
 */

/** What the measure needs of a checkout's `transpileSlideTsx`. */
export type Transpile = (text: string) => { ok: boolean; problem?: { message: string } }

/**
 * Each call's time, ms: every text of `texts`, `passes` times over, each
 * call timed alone. Throws when a text does not transpile (a seeded slide
 * always does).
 */
export function transpileTimes(transpile: Transpile, texts: readonly string[], passes: number): number[] {
  const times: number[] = []
  for (let pass = 0; pass < passes; pass++) {
    for (const text of texts) {
      const started = performance.now()
      const result = transpile(text)
      times.push(performance.now() - started)
      if (!result.ok) throw new Error(`a seeded slide does not transpile: ${result.problem?.message}`)
    }
  }
  return times
}

/**
 * Warm-up passes before a measure: the emulator transpiles many slides in a
 * session, and the first few run before the JIT has compiled the parsers.
 */
export const WARM_UP_PASSES = 30

/**
 * The transpile child's side (`bench/transpile-child.mjs`): over IPC, a first
 * `{ texts }` is warmed up on and answered `{ ready: true }`; each
 * `{ passes }` after it is answered `{ median }`, the median call's time
 * over that many passes, ms. Exits when the parent disconnects.
 */
export function serveTranspileTimes(transpile: Transpile): void {
  const send = process.send?.bind(process)
  if (send === undefined) throw new Error('the transpile child needs an IPC channel to the bench')
  let texts: string[] = []
  process.on('message', (message: { texts?: string[]; passes?: number }) => {
    if (message.texts !== undefined) {
      texts = message.texts
      transpileTimes(transpile, texts, WARM_UP_PASSES)
      send({ ready: true })
      return
    }
    const times = transpileTimes(transpile, texts, message.passes ?? 1).sort((a, b) => a - b)
    const mid = times.length >> 1
    send({ median: times.length % 2 ? times[mid] : (times[mid - 1]! + times[mid]!) / 2 })
  })
  process.on('disconnect', () => process.exit(0))
  send({ started: true })
}
