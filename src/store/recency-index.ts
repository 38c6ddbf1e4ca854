/**
 * The position of a record in a recency-ordered list: newest `at` first,
 * ties broken by `id` ascending. This is the order of `GET /projects` and
 * `GET /projects/templates`, and a cursor is such a key.
 */
export interface RecencyKey {
  at: string
  id: string
}

/** Negative when `a` comes before `b` in recency order. */
export function compareRecency(a: RecencyKey, b: RecencyKey): number {
  if (a.at !== b.at) return a.at > b.at ? -1 : 1
  if (a.id !== b.id) return a.id < b.id ? -1 : 1
  return 0
}

/**
 * A sorted array of recency keys with binary-search insert, remove and seek,
 * so a page of a list costs O(log n + page size), not a scan and a sort.
 */
export class RecencyIndex {
  readonly #keys: RecencyKey[] = []

  get size(): number {
    return this.#keys.length
  }

  /** Index of the first key that does not come before `key`. */
  #lowerBound(key: RecencyKey): number {
    let lo = 0
    let hi = this.#keys.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (compareRecency(this.#keys[mid]!, key) < 0) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  insert(key: RecencyKey): void {
    this.#keys.splice(this.#lowerBound(key), 0, { at: key.at, id: key.id })
  }

  remove(key: RecencyKey): void {
    const index = this.#lowerBound(key)
    const found = this.#keys[index]
    if (found !== undefined && found.at === key.at && found.id === key.id) {
      this.#keys.splice(index, 1)
    }
  }

  /** Keys strictly after `cursor` (all keys without one), in order. */
  *after(cursor?: RecencyKey): Generator<RecencyKey> {
    let index = 0
    if (cursor !== undefined) {
      index = this.#lowerBound(cursor)
      const at = this.#keys[index]
      if (at !== undefined && compareRecency(at, cursor) === 0) index += 1
    }
    for (; index < this.#keys.length; index++) yield this.#keys[index]!
  }
}

/**
 * Merges several recency-ordered streams into one, dropping repeated ids
 * (a project reachable through two teams appears once).
 */
export function* mergeRecency(sources: Array<Iterator<RecencyKey>>): Generator<RecencyKey> {
  const heads: Array<RecencyKey | undefined> = sources.map((source) => source.next().value)
  let last: RecencyKey | undefined
  for (;;) {
    let best = -1
    for (let i = 0; i < heads.length; i++) {
      const head = heads[i]
      if (head === undefined) continue
      if (best === -1 || compareRecency(head, heads[best]!) < 0) best = i
    }
    if (best === -1) return
    const key = heads[best]!
    const next = sources[best]!.next()
    heads[best] = next.done ? undefined : next.value
    if (last !== undefined && compareRecency(last, key) === 0) continue
    last = key
    yield key
  }
}
