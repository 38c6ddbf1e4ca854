/**
 * Runs async tasks one at a time, in call order. Every operation on a world
 * runs under its mutex, so an operation that reads, checks and then writes
 * (charging a credit, taking a slug) never interleaves with another: no lost
 * updates, whatever the concurrency of the clients.
 */
export class Mutex {
  #tail: Promise<unknown> = Promise.resolve()
  /** Tasks queued or running. */
  #active = 0

  /** True when no task is queued or running: a synchronous task run now interleaves with nothing. */
  get idle(): boolean {
    return this.#active === 0
  }

  run<T>(task: () => Promise<T> | T): Promise<T> {
    this.#active += 1
    const result = this.#tail.then(task)
    this.#tail = result.then(
      () => {
        this.#active -= 1
      },
      () => {
        this.#active -= 1
      },
    )
    return result
  }
}
