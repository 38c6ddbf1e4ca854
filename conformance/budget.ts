/**
 * A time budget as a bound: a deadline on an injectable clock (wall time by
 * default; a test passes a fake one), and the target's clock bounded by it,
 * so no wait (a job, the rate limit) runs past the deadline. A wait that
 * would sleeps what is left, then throws `BudgetExhausted`: whatever was
 * waiting stops, and the run reports that it was cut short.
 */
import type { Clock } from './pacer.js'

/** Thrown by a bounded clock's sleep once the budget has run out. */
export class BudgetExhausted extends Error {
  override readonly name = 'BudgetExhausted'
  constructor() {
    super('the time budget ran out')
  }
}

export class Budget {
  readonly startedAt: number
  readonly deadline: number
  #cut = false

  /** `ms` undefined: no budget. `now`: the clock the budget is read on (milliseconds). */
  constructor(
    readonly ms: number | undefined,
    readonly now: () => number = Date.now,
  ) {
    this.startedAt = now()
    this.deadline = ms === undefined ? Number.POSITIVE_INFINITY : this.startedAt + ms
  }

  /** Whether the deadline has passed (and from then on, that the run was cut short). */
  get expired(): boolean {
    if (this.now() >= this.deadline) this.#cut = true
    return this.#cut
  }

  /** Whether anything was stopped or not started because the budget ran out. */
  get cutShort(): boolean {
    return this.#cut
  }

  /** Marks the run cut short (something was left undone for want of time). */
  cut(): void {
    this.#cut = true
  }

  /** Milliseconds left (0 once expired). */
  left(): number {
    return Math.max(0, this.deadline - this.now())
  }

  /** Throws `BudgetExhausted` once expired. */
  check(): void {
    if (this.expired) throw new BudgetExhausted()
  }

  /** `clock` with every sleep ended at the deadline. */
  bound(clock: Clock): Clock {
    if (this.ms === undefined) return clock
    return {
      now: () => clock.now(),
      sleep: async (ms) => {
        this.check()
        const left = this.left()
        if (ms >= left) {
          await clock.sleep(left)
          this.#cut = true
          throw new BudgetExhausted()
        }
        await clock.sleep(ms)
      },
    }
  }
}
