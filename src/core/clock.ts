/**
 * The emulator's time. Everything time-dependent (dates in responses, job
 * completion, rate-limit windows) reads `now()` from here, never `Date.now()`.
 *
 * - `real`: wall-clock time plus whatever has been skipped with `advance`.
 * - `manual`: starts at a fixed instant and moves only through `advance`,
 *   so tests are deterministic and never wait.
 */
export type ClockMode = 'real' | 'manual'

/** Where a manual clock starts unless told otherwise: the built-in fixtures' epoch. */
export const DEFAULT_MANUAL_START = Date.parse('2026-01-01T00:00:00.000Z')

export class Clock {
  #offset = 0
  #manualNow: number
  readonly #start: number

  constructor(
    readonly mode: ClockMode,
    start: number = DEFAULT_MANUAL_START,
  ) {
    this.#start = start
    this.#manualNow = start
  }

  /** Back to the start: a manual clock to its start instant, a real clock to wall time. */
  reset(): void {
    this.#offset = 0
    this.#manualNow = this.#start
  }

  /** Milliseconds since the Unix epoch, on the emulator clock. */
  now(): number {
    return this.mode === 'manual' ? this.#manualNow : Date.now() + this.#offset
  }

  /** `now()` as an ISO 8601 string. */
  iso(): string {
    return new Date(this.now()).toISOString()
  }

  /** Sets a manual clock to `now` (a state import); a real clock is left alone. */
  set(now: number): void {
    if (this.mode === 'manual') this.#manualNow = now
  }

  /** Moves the clock forward by `ms` (≥ 0). */
  advance(ms: number): number {
    if (!(ms >= 0) || !Number.isFinite(ms)) throw new RangeError('advance: ms must be a finite number ≥ 0')
    if (this.mode === 'manual') this.#manualNow += ms
    else this.#offset += ms
    return this.now()
  }
}
