import type { Clock } from './clock.js'

export const RATE_WINDOW_MS = 60_000

/**
 * The `Retry-After` of a refusal under a manual clock: an HTTP-date in the
 * past, which means "retry now". Real time never rolls a manual-clock
 * window, so waiting would be in vain; and a date in the past (unlike
 * `0` seconds, which got reads as "no advice" and answers with its own
 * backoff of seconds) makes every common retrying client retry at once,
 * use up its retries in milliseconds and report the 429.
 */
export const RETRY_NOW = 'Thu, 01 Jan 1970 00:00:00 GMT'

/** The outcome of counting one request. */
export interface RateDecision {
  allowed: boolean
  /** `X-RateLimit-*` headers (and `Retry-After` when refused). */
  headers: Record<string, string>
}

/** The decision when limiting is off: no headers (shared, never changed). */
const UNLIMITED: RateDecision = Object.freeze({ allowed: true, headers: Object.freeze({}) as Record<string, string> })

/**
 * Fixed 60-second windows per user on the emulator clock, aligned to whole
 * minutes. Every authenticated request counts, whatever its outcome; after
 * the n-th request of a window `X-RateLimit-Remaining` is `limit − n`.
 * A limit of 0 turns limiting (and the headers) off.
 */
export class RateLimiter {
  readonly #windows = new Map<string, { start: number; count: number }>()

  constructor(
    readonly limit: number,
    private readonly clock: Clock,
  ) {}

  hit(userId: string): RateDecision {
    if (this.limit === 0) return UNLIMITED
    const now = this.clock.now()
    const start = now - (now % RATE_WINDOW_MS)
    let window = this.#windows.get(userId)
    if (window === undefined || window.start !== start) {
      window = { start, count: 0 }
      this.#windows.set(userId, window)
    }
    window.count += 1
    const end = start + RATE_WINDOW_MS
    const allowed = window.count <= this.limit
    const headers: Record<string, string> = {
      'x-ratelimit-limit': String(this.limit),
      'x-ratelimit-remaining': String(Math.max(0, this.limit - window.count)),
      'x-ratelimit-reset': String(Math.ceil(end / 1000)),
    }
    if (!allowed) headers['retry-after'] = this.#retryAfter(now, end)
    return { allowed, headers }
  }

  /**
   * `Retry-After` for a refusal in the window ending at `end`: on a real
   * clock the whole seconds until then; on a manual clock "now" (`RETRY_NOW`).
   */
  #retryAfter(now: number, end: number): string {
    return this.clock.mode === 'manual' ? RETRY_NOW : String(Math.max(1, Math.ceil((end - now) / 1000)))
  }

  /** The hint of a 429: when to retry, on the clock in use. */
  retryHint(): string {
    if (this.clock.mode === 'real') {
      const now = this.clock.now()
      return `retry after ${this.#retryAfter(now, now - (now % RATE_WINDOW_MS) + RATE_WINDOW_MS)} s`
    }
    const now = this.clock.now()
    const end = new Date(now - (now % RATE_WINDOW_MS) + RATE_WINDOW_MS).toISOString()
    return `the window ends when the manual clock reaches ${end} (POST /_emulator/clock/advance moves it)`
  }

  /**
   * The headers of a refusal in the user's current window, without counting
   * a request: what an injected 429 carries, like a real one (with the limit
   * off, `X-RateLimit-Limit` is 0).
   */
  refusal(): Record<string, string> {
    const now = this.clock.now()
    const start = now - (now % RATE_WINDOW_MS)
    const end = start + RATE_WINDOW_MS
    return {
      'x-ratelimit-limit': String(this.limit),
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(Math.ceil(end / 1000)),
      'retry-after': this.#retryAfter(now, end),
    }
  }

  /** Forgets every window (control-plane reset). */
  clear(): void {
    this.#windows.clear()
  }
}
