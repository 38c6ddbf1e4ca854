import type * as z from 'zod'
import { describeIssues } from '../core/validation.js'

/** A change to one record: `prev` undefined on insert, `next` undefined on removal. */
export interface Change<T> {
  table: string
  prev: T | undefined
  next: T | undefined
}

export type ChangeListener<T> = (change: Change<T>) => void

/** A write that would store a record its schema rejects: a defect of the emulator, answered as a 500. */
export class RecordValidationError extends Error {
  constructor(table: string, issues: ReadonlyArray<z.core.$ZodIssue>) {
    super(`${table}: record does not match its schema: ${describeIssues(issues)}`)
    this.name = 'RecordValidationError'
  }
}

/**
 * One entity's records, keyed by id, in insertion order (a `Map`), so every
 * read and every write is O(1) whatever the number of records.
 *
 * Every `insert` and `update` is validated by the entity's zod schema before
 * it is stored (a record the schema rejects is never stored), and an update
 * works on a copy, so a record handed out earlier never changes under its
 * holder. Only `load` skips the check, for records that were validated as a
 * whole just before (a state document) or by the build (the default world),
 * and the build of a world from fixtures (`checked` off), whose records the
 * emulator constructs itself from a validated fixtures document (a test
 * checks such worlds against the state schema).
 *
 * Records handed out are the stored objects: treat them as read-only and
 * change them only through `update`.
 *
 * The store used to be an `@msw/data` Collection: its `update` finds the
 * record by scanning the collection (23 ms per write at 100,000 records) and
 * it adds a Map and a UUID to every record, with no keyed path in its API.
 */
export class Table<T extends { id: string }> {
  readonly #records = new Map<string, T>()
  readonly #listeners: Array<ChangeListener<T>> = []
  /**
   * Whether writes are validated and copied (always, but while a world is
   * built from a validated fixtures document: `World.withoutChecks`).
   */
  checked = true
  /**
   * While a transaction of the world is open (`World.transaction`): every
   * write adds the function that undoes it, in the order of the writes,
   * one log shared by all the world's tables.
   */
  undoLog: Array<() => void> | undefined

  constructor(
    readonly name: string,
    readonly schema: z.ZodType<T>,
  ) {}

  get size(): number {
    return this.#records.size
  }

  get(id: string): T | undefined {
    return this.#records.get(id)
  }

  /** All records, in insertion order (a new array). */
  all(): T[] {
    return [...this.#records.values()]
  }

  /** All records, in insertion order, without copying. */
  values(): IterableIterator<T> {
    return this.#records.values()
  }

  /** Validates and stores a new record (a copy of `value`). */
  insert(value: T): T {
    if (this.#records.has(value.id)) {
      throw new Error(`${this.name}: a record with id "${value.id}" already exists`)
    }
    const record = this.#check(value)
    this.#records.set(record.id, record)
    this.undoLog?.push(() => {
      this.#records.delete(record.id)
      this.#emit(record, undefined)
    })
    this.#emit(undefined, record)
    return record
  }

  /** Applies `mutate` to a copy of the record, validates it and stores it in place of the old one. */
  update(id: string, mutate: (draft: T) => void): T {
    const prev = this.#records.get(id)
    if (prev === undefined) {
      throw new Error(`${this.name}: no record with id "${id}"`)
    }
    const draft = structuredClone(prev)
    mutate(draft)
    if (draft.id !== id) {
      throw new Error(`${this.name}: an update must not change the id`)
    }
    const next = this.#check(draft)
    this.#records.set(id, next)
    this.undoLog?.push(() => {
      this.#records.set(id, prev)
      this.#emit(next, prev)
    })
    this.#emit(prev, next)
    return next
  }

  remove(id: string): void {
    const prev = this.#records.get(id)
    if (prev === undefined) return
    if (this.undoLog !== undefined) {
      // Undone, the record goes back where it stood: the table's order is the state document's.
      const position = [...this.#records.keys()].indexOf(id)
      this.undoLog.push(() => {
        const entries = [...this.#records]
        entries.splice(position, 0, [id, prev])
        this.#records.clear()
        for (const [key, record] of entries) this.#records.set(key, record)
        this.#emit(undefined, prev)
      })
    }
    this.#records.delete(id)
    this.#emit(prev, undefined)
  }

  /**
   * Stores records that were already validated, without checking them
   * again: a state document parsed as a whole, or a world the build
   * validated. Ids must be new: an id already there throws, and leaves the
   * table for the caller to discard (`World.fromState` drops its world).
   */
  load(records: Iterable<T>): void {
    const stored = this.#records
    for (const record of records) {
      // One lookup, not two: an id already there leaves the count as it was (and the
      // table unusable: a caller that gets this error discards the world it was loading).
      const count = stored.size
      stored.set(record.id, record)
      if (stored.size === count) throw new Error(`${this.name}: a record with id "${record.id}" already exists`)
      this.#emit(undefined, record)
    }
  }

  /** Calls `listener` after every insert, update and removal. */
  onChange(listener: ChangeListener<T>): void {
    this.#listeners.push(listener)
  }

  #check(value: T): T {
    if (!this.checked) return value
    const result = this.schema.safeParse(value)
    if (!result.success) throw new RecordValidationError(this.name, result.error.issues)
    return result.data
  }

  #emit(prev: T | undefined, next: T | undefined): void {
    for (const listener of this.#listeners) listener({ table: this.name, prev, next })
  }
}
