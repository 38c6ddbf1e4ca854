/**
 * Keeps the kit under a deployment's rate limit, so that it meets 429 only
 * in the scenario that tests it. It reads `X-RateLimit-Remaining` and
 * `X-RateLimit-Reset` when the server sends them, and otherwise counts its
 * own requests per key over a rolling minute (the spec's 50 per minute).
 */

/** The spec's limit: 50 requests per minute per user. */
export const SPEC_RATE_LIMIT = 50
const WINDOW_MS = 60_000
/** Requests kept in hand for other clients of the same account. */
const RESERVE = 1

export interface Clock {
  now(): Promise<number>
  sleep(ms: number): Promise<void>
}

interface Bucket {
  /** Send times (ms) of this key's requests in the last minute. */
  log: number[]
  remaining: number | undefined
  resetAt: number | undefined
  /** Serialises acquisitions, so concurrent scenarios don't overspend. */
  tail: Promise<unknown>
  /** The wait (ms) a turn of this key is sleeping through, if any: a request queued behind it waits as long. */
  sleeping: number | undefined
}

/** Reads `X-RateLimit-Reset` in any of the forms servers use: epoch seconds or ms, seconds from now, or a date. */
export function parseReset(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined
  const trimmed = value.trim()
  if (/^\d+(\.\d+)?$/.test(trimmed)) {
    const n = Number(trimmed)
    if (n > 1e12) return n
    if (n > 1e9) return n * 1000
    return now + n * 1000
  }
  const date = Date.parse(trimmed)
  return Number.isNaN(date) ? undefined : date
}

export class Pacer {
  readonly #buckets = new Map<string, Bucket>()

  constructor(
    private readonly clock: Clock,
    /** Whether to pace at all (a target the kit owns, with fresh accounts, needs none). */
    private readonly enabled: boolean,
  ) {}

  #bucket(key: string): Bucket {
    let bucket = this.#buckets.get(key)
    if (bucket === undefined)
      this.#buckets.set(key, (bucket = { log: [], remaining: undefined, resetAt: undefined, tail: Promise.resolve(), sleeping: undefined }))
    return bucket
  }

  /**
   * Waits, if needed, until a request with `key` fits in the limit, then
   * counts it. Resolves to how long (ms, the target's time) it waited for
   * the limit: its own wait, plus the one it was queued behind. `onWait`
   * hears of each wait of its own as it starts, with its expected length.
   */
  acquire(key: string, onWait?: (ms: number) => void): Promise<number> {
    if (!this.enabled) return Promise.resolve(0)
    const bucket = this.#bucket(key)
    const behind = bucket.sleeping ?? 0
    const sleep = async (ms: number) => {
      bucket.sleeping = ms
      onWait?.(ms)
      try {
        await this.clock.sleep(ms)
      } finally {
        bucket.sleeping = undefined
      }
      return ms
    }
    const turn = bucket.tail.then(async () => {
      let waited = behind
      let now = await this.clock.now()
      if (bucket.remaining !== undefined && bucket.resetAt !== undefined) {
        if (now >= bucket.resetAt) {
          bucket.remaining = undefined
          bucket.resetAt = undefined
        } else if (bucket.remaining <= RESERVE) {
          waited += await sleep(bucket.resetAt - now + 250)
          bucket.remaining = undefined
          bucket.resetAt = undefined
          now = await this.clock.now()
        }
      }
      bucket.log = bucket.log.filter((time) => time > now - WINDOW_MS)
      if (bucket.remaining === undefined && bucket.log.length >= SPEC_RATE_LIMIT - RESERVE) {
        waited += await sleep(bucket.log[0]! + WINDOW_MS - now + 250)
        now = await this.clock.now()
        bucket.log = bucket.log.filter((time) => time > now - WINDOW_MS)
      }
      bucket.log.push(now)
      if (bucket.remaining !== undefined) bucket.remaining -= 1
      return waited
    })
    bucket.tail = turn.catch(() => undefined)
    return turn
  }

  /** Learns from a response's rate-limit headers. */
  async observe(key: string, headers: Record<string, string>): Promise<void> {
    if (!this.enabled) return
    const remaining = headers['x-ratelimit-remaining']
    if (remaining === undefined || !/^\s*\d+\s*$/.test(remaining)) return
    const bucket = this.#bucket(key)
    const now = await this.clock.now()
    const resetAt = parseReset(headers['x-ratelimit-reset'], now) ?? now + WINDOW_MS
    // Concurrent responses may arrive out of order: keep the smaller count within a window.
    if (bucket.resetAt === undefined || resetAt > bucket.resetAt + 1000 || bucket.remaining === undefined) {
      bucket.remaining = Number(remaining)
    } else {
      bucket.remaining = Math.min(bucket.remaining, Number(remaining))
    }
    bucket.resetAt = resetAt
  }

  /** After an unexpected 429: nothing is left until the reset. */
  exhausted(key: string, untilMs: number): void {
    const bucket = this.#bucket(key)
    bucket.remaining = 0
    bucket.resetAt = untilMs
  }
}
