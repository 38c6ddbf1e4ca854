import type { Clock } from './clock.js'

export const RATE_WINDOW_MS = 60_000

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
    if (!allowed) headers['retry-after'] = String(Math.max(1, Math.ceil((end - now) / 1000)))
    return { allowed, headers }
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
      'retry-after': String(Math.max(1, Math.ceil((end - now) / 1000))),
    }
  }

  /** Forgets every window (control-plane reset). */
  clear(): void {
    this.#windows.clear()
  }
}
