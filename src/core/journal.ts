/** One `/v1` request as the journal records it. */
export interface JournalEntry {
  id: string
  /** When the request arrived, on the emulator clock (ISO). */
  time: string
  method: string
  path: string
  /** The matched operation, or null (unknown route, failed authentication before routing). */
  operationId: string | null
  status: number
  durationMs: number
  keyId: string | null
  userId: string | null
}

/** An entry as the journal stores it: the time as epoch milliseconds (formatted only when listed). */
export type JournalRecord = Omit<JournalEntry, 'time'> & { time: number }

/** The entry of a record, with its time as ISO 8601. */
export function toJournalEntry(record: JournalRecord): JournalEntry {
  return { ...record, time: new Date(record.time).toISOString() }
}

export interface JournalQuery {
  operationId?: string
  limit?: number
}

/** The default number of entries kept; older ones are dropped. */
export const DEFAULT_JOURNAL_SIZE = 10_000

/**
 * The request journal: the last `capacity` `/v1` requests in a ring buffer,
 * so a long run never grows memory without bound.
 */
export class Journal {
  readonly #entries: Array<JournalRecord | undefined>
  #next = 0
  #count = 0
  #sequence = 0

  constructor(readonly capacity: number = DEFAULT_JOURNAL_SIZE) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('journal capacity must be a positive integer')
    this.#entries = new Array(capacity)
  }

  get size(): number {
    return this.#count
  }

  /** Allocates the id of the next entry (also sent as `X-Request-Id`). */
  nextId(): string {
    this.#sequence += 1
    return `req_${this.#sequence}`
  }

  record(entry: JournalRecord): void {
    this.#entries[this.#next] = entry
    this.#next = (this.#next + 1) % this.capacity
    this.#count = Math.min(this.#count + 1, this.capacity)
  }

  /** Entries newest first, optionally of one operation, at most `limit`. */
  list(query: JournalQuery = {}): JournalEntry[] {
    const out: JournalEntry[] = []
    const limit = query.limit ?? this.#count
    for (let i = 1; i <= this.#count && out.length < limit; i++) {
      const entry = this.#entries[(this.#next - i + this.capacity) % this.capacity]!
      if (query.operationId === undefined || entry.operationId === query.operationId) out.push(toJournalEntry(entry))
    }
    return out
  }

  clear(): void {
    this.#entries.fill(undefined)
    this.#next = 0
    this.#count = 0
  }
}
