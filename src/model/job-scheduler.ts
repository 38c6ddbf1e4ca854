import type { Clock } from '../core/clock.js'
import type { JobRecord } from '../store/records.js'
import type { World } from '../store/world.js'
import { finishJob } from './generation.js'

/**
 * Finishes generation jobs when they are due. Processing jobs are tracked
 * with the instant they are due; `settle` finishes the due ones in due
 * order (before every operation and after the clock moves), and on a real
 * clock a timer wakes up for the next one without keeping the process alive.
 */
export class JobScheduler {
  /** Processing jobs by id, with the instant (ms) they are due. */
  readonly #pending = new Map<string, number>()
  #timer: ReturnType<typeof setTimeout> | undefined
  #closed = false
  #world: World | undefined

  constructor(
    private readonly clock: Clock,
    /** Runs a settle under the world's lock, when the timer fires. */
    private readonly wake: () => void,
  ) {}

  /** Tracks the jobs of a newly installed world. */
  attach(world: World): void {
    this.#world = world
    this.#pending.clear()
    for (const job of world.jobs.all()) {
      if (job.status === 'processing') this.#pending.set(job.id, Date.parse(job.dueAt))
    }
    // A table listener, so it follows every write as it happens, a rolled-back one's undoing included.
    world.jobs.onChange(({ prev, next }) => {
      if (this.#world !== world) return
      if (next?.status === 'processing') this.#pending.set(next.id, Date.parse(next.dueAt))
      else if (next !== undefined) this.#pending.delete(next.id)
      else if (prev !== undefined) this.#pending.delete(prev.id)
      this.arm()
    })
    this.arm()
  }

  /** Whether a processing job is due (a `settle` would finish it). */
  hasDue(): boolean {
    if (this.#pending.size === 0) return false
    const now = this.clock.now()
    for (const dueAt of this.#pending.values()) if (dueAt <= now) return true
    return false
  }

  /** Finishes every processing job whose time has come, each at its due instant. Call inside the lock. */
  async settle(): Promise<void> {
    if (this.#pending.size === 0 || this.#world === undefined) return
    const world = this.#world
    const now = this.clock.now()
    const due = [...this.#pending].filter(([, dueAt]) => dueAt <= now).sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1))
    for (const [jobId, dueAt] of due) {
      const job = world.jobs.get(jobId)!
      const error = job.outcome === 'failed' ? 'Generation failed: the prompt asked for a failure (emulator:fail)' : undefined
      // Each job finishes whole or not at all (a failure leaves it processing, to be tried again).
      await world.transaction(() => finishJob(world, jobId, job.outcome, new Date(dueAt).toISOString(), error))
    }
    // The timer may have woken this settle a moment early: Node runs timers by a monotonic clock that can be
    // a millisecond ahead of Date.now(), so the job it was set for may not be due yet. Finishing a job re-arms
    // the timer (its table listener); finishing none would leave the rest to the next request.
    this.arm()
  }

  /** Finishes a processing job now, whole or not at all. Call inside the lock. */
  finish(jobId: string, outcome: 'completed' | 'failed', error?: string): Promise<JobRecord> {
    const world = this.#world!
    return world.transaction(() => finishJob(world, jobId, outcome, this.clock.iso(), error))
  }

  /** On a real clock, wakes up when the next job is due. */
  arm(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer)
    this.#timer = undefined
    if (this.#closed || this.clock.mode !== 'real' || this.#pending.size === 0) return
    let next = Infinity
    for (const dueAt of this.#pending.values()) if (dueAt < next) next = dueAt
    const delay = Math.min(Math.max(0, next - this.clock.now()), 2 ** 31 - 1)
    const timer = setTimeout(() => {
      this.#timer = undefined
      this.wake()
    }, delay)
    ;(timer as { unref?: () => void }).unref?.()
    this.#timer = timer
  }

  /** Stops the timer for good. */
  close(): void {
    this.#closed = true
    if (this.#timer !== undefined) clearTimeout(this.#timer)
    this.#timer = undefined
  }
}
