/**
 * Runs async tasks one at a time, in call order. Every operation on a world
 * runs under its mutex, so an operation that reads, checks and then writes
 * (charging a credit, taking a slug) never interleaves with another: no lost
 * updates, whatever the concurrency of the clients.
 */
export class Mutex {
  #tail: Promise<unknown> = Promise.resolve()

  run<T>(task: () => Promise<T> | T): Promise<T> {
    const result = this.#tail.then(task)
    this.#tail = result.then(
      () => undefined,
      () => undefined,
    )
    return result
  }
}
