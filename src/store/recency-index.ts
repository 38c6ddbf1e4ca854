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

/** A date-time as the emulator writes them (`toISOString`): every position a digit or the same separator. */
const CANONICAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

/** The digits of a canonical date-time from `from` to `to` (exclusive), skipping separators, as one number. */
function digitsOf(at: string, from: number, to: number): number {
  let value = 0
  for (let i = from; i < to; i++) {
    const digit = at.charCodeAt(i) - 48
    if (digit >= 0 && digit <= 9) value = value * 10 + digit
  }
  return value
}

/**
 * Sorts `keys` in recency order. When every date is canonical (as the
 * emulator writes them, so nearly always), two numbers per key (the date's
 * and the time's digits) order them as their texts would, and are compared
 * instead of the texts; otherwise the texts are.
 */
function sortRecency(keys: RecencyKey[]): void {
  const count = keys.length
  const days = new Float64Array(count)
  const times = new Float64Array(count)
  for (let i = 0; i < count; i++) {
    const at = keys[i]!.at
    if (!CANONICAL.test(at)) {
      keys.sort(compareRecency)
      return
    }
    days[i] = digitsOf(at, 0, 10)
    times[i] = digitsOf(at, 11, 23)
  }
  const order = Array.from({ length: count }, (_, i) => i)
  order.sort((a, b) => {
    if (days[a] !== days[b]) return days[b]! - days[a]!
    if (times[a] !== times[b]) return times[b]! - times[a]!
    const idA = keys[a]!.id
    const idB = keys[b]!.id
    return idA === idB ? 0 : idA < idB ? -1 : 1
  })
  const sorted = order.map((i) => keys[i]!)
  for (let i = 0; i < count; i++) keys[i] = sorted[i]!
}

/** Keys per chunk before a chunk splits in two. */
const CHUNK_SIZE = 512

/**
 * Recency keys in order, kept as a list of sorted chunks of at most
 * `CHUNK_SIZE` keys: insert, remove and seek cost a binary search over the
 * chunks, one within a chunk and a splice of at most `CHUNK_SIZE` keys, so
 * O(log n) whatever the number of keys (one flat array would move up to n
 * keys on every write that makes a project the newest). A page of a list
 * costs O(log n + page size), not a scan and a sort.
 */
export class RecencyIndex {
  /** Non-empty sorted chunks; their concatenation is sorted. */
  readonly #chunks: RecencyKey[][] = []
  #size = 0

  get size(): number {
    return this.#size
  }

  /** The chunk `key` falls in: the first whose last key does not come before it (or the last chunk). */
  #chunkOf(key: RecencyKey): number {
    const chunks = this.#chunks
    let lo = 0
    let hi = chunks.length - 1
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      const chunk = chunks[mid]!
      if (compareRecency(chunk[chunk.length - 1]!, key) < 0) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  /** Position in `chunk` of the first key that does not come before `key`. */
  static #lowerBound(chunk: RecencyKey[], key: RecencyKey): number {
    let lo = 0
    let hi = chunk.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (compareRecency(chunk[mid]!, key) < 0) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  /**
   * An index of `keys` (taken over, in any order): one sort instead of a
   * search and a splice per key, for a world loaded as a whole. It holds
   * what inserting them one by one would, in the same order.
   */
  static of(keys: RecencyKey[]): RecencyIndex {
    const index = new RecencyIndex()
    sortRecency(keys)
    const size = CHUNK_SIZE >>> 1
    for (let start = 0; start < keys.length; start += size) index.#chunks.push(keys.slice(start, start + size))
    index.#size = keys.length
    return index
  }

  insert(key: RecencyKey): void {
    const copy = { at: key.at, id: key.id }
    this.#size += 1
    if (this.#chunks.length === 0) {
      this.#chunks.push([copy])
      return
    }
    const c = this.#chunkOf(key)
    const chunk = this.#chunks[c]!
    chunk.splice(RecencyIndex.#lowerBound(chunk, key), 0, copy)
    if (chunk.length > CHUNK_SIZE) this.#chunks.splice(c + 1, 0, chunk.splice(chunk.length >>> 1))
  }

  remove(key: RecencyKey): void {
    if (this.#chunks.length === 0) return
    const c = this.#chunkOf(key)
    const chunk = this.#chunks[c]!
    const index = RecencyIndex.#lowerBound(chunk, key)
    const found = chunk[index]
    if (found === undefined || found.at !== key.at || found.id !== key.id) return
    chunk.splice(index, 1)
    this.#size -= 1
    if (chunk.length === 0) this.#chunks.splice(c, 1)
  }

  /** Keys strictly after `cursor` (all keys without one), in order. */
  *after(cursor?: RecencyKey): Generator<RecencyKey> {
    const chunks = this.#chunks
    if (chunks.length === 0) return
    let c = 0
    let index = 0
    if (cursor !== undefined) {
      c = this.#chunkOf(cursor)
      const chunk = chunks[c]!
      index = RecencyIndex.#lowerBound(chunk, cursor)
      const at = chunk[index]
      if (at !== undefined && compareRecency(at, cursor) === 0) index += 1
    }
    for (; c < chunks.length; c++, index = 0) {
      const chunk = chunks[c]!
      for (; index < chunk.length; index++) yield chunk[index]!
    }
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
