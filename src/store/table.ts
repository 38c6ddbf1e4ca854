import { Collection } from '@msw/data'
import type { z } from 'zod'

/** A change to one record: `prev` undefined on insert, `next` undefined on removal. */
export interface Change<T> {
  table: string
  prev: T | undefined
  next: T | undefined
}

export type ChangeListener<T> = (change: Change<T>) => void

/**
 * One entity's records: an `@msw/data` Collection (validated by the entity's
 * zod schema on every write) plus the lookups the emulator needs in constant
 * time, kept current because every write goes through this class.
 *
 * Records handed out are the stored objects: treat them as read-only and
 * change them only through `update`.
 */
export class Table<T extends { id: string }> {
  readonly #collection: Collection<z.ZodType<T>>
  readonly #byId = new Map<string, T>()
  readonly #listeners: Array<ChangeListener<T>> = []

  constructor(
    readonly name: string,
    readonly schema: z.ZodType<T>,
  ) {
    this.#collection = new Collection({ schema })
  }

  get size(): number {
    return this.#byId.size
  }

  get(id: string): T | undefined {
    return this.#byId.get(id)
  }

  /** All records, in insertion order. */
  all(): readonly T[] {
    return this.#collection.all()
  }

  async insert(value: T): Promise<T> {
    if (this.#byId.has(value.id)) {
      throw new Error(`${this.name}: a record with id "${value.id}" already exists`)
    }
    const record = (await this.#collection.create(value as never)) as T
    this.#byId.set(record.id, record)
    this.#emit(undefined, record)
    return record
  }

  /** Applies `mutate` to a draft of the record and stores the result. */
  async update(id: string, mutate: (draft: T) => void): Promise<T> {
    const prev = this.#byId.get(id)
    if (prev === undefined) {
      throw new Error(`${this.name}: no record with id "${id}"`)
    }
    const next = (await this.#collection.update(prev as never, {
      data: mutate as never,
      strict: true,
    })) as T
    if (next.id !== id) {
      throw new Error(`${this.name}: an update must not change the id`)
    }
    this.#byId.set(id, next)
    this.#emit(prev, next)
    return next
  }

  remove(id: string): void {
    const prev = this.#byId.get(id)
    if (prev === undefined) return
    this.#collection.delete(prev as never)
    this.#byId.delete(id)
    this.#emit(prev, undefined)
  }

  /** Calls `listener` after every insert, update and removal. */
  onChange(listener: ChangeListener<T>): void {
    this.#listeners.push(listener)
  }

  #emit(prev: T | undefined, next: T | undefined): void {
    for (const listener of this.#listeners) listener({ table: this.name, prev, next })
  }
}
