import { ServiceError } from './errors.js'
import { hashToken } from './hash.js'

/** One side of a journaled exchange: headers and a bounded body. */
export interface JournalMessage {
  /** Header values by lower-case name (the request's with secrets redacted; see `JournalEntry`). */
  headers: Record<string, string>
  /** The body as UTF-8 text, cut at the listing's body limit; null when there was none. */
  body: string | null
  /** The whole body's size in bytes (UTF-8), whether or not it was cut. */
  bodySize: number
  /**
   * True when `body` is only the first `bodyLimit` bytes of it, or, with
   * `body` null, when a request's body was refused unread (a 413 on its
   * `Content-Length`, which `bodySize` then gives).
   */
  bodyTruncated: boolean
}

/**
 * One `/v1` request as the journal lists it: enough to answer "what did my
 * app send, and what did it get?", and to replay the request (method, path,
 * query, headers minus secrets, body).
 */
export interface JournalEntry {
  /** `req_<n>`, also sent as `X-Request-Id`. */
  id: string
  /** When the request arrived, on the emulator clock (ISO). */
  time: string
  /**
   * When the request arrived, on the real (wall) clock (ISO): the same as
   * `time` on a real clock that was never advanced; under a manual clock it
   * is what the rate rules of the client report read.
   */
  realTime: string
  method: string
  /** The path as received (percent-encoded), without the query. */
  path: string
  /** The raw query string without `?` (empty when there is none). */
  query: string
  /**
   * The operation the method and path name, also for a 401 or a 429; null
   * only when they name none (an unknown path: 404, or a wrong method: 405).
   */
  operationId: string | null
  status: number
  durationMs: number
  /** The authenticated key and user; null when authentication failed. */
  keyId: string | null
  userId: string | null
  /**
   * A one-way fingerprint of the credential the request presented (`fp_` and
   * 12 base-36 characters), also when authentication failed: the same key
   * gives the same fingerprint, and the key cannot be recovered from it.
   * Null when the request had no `Authorization` header.
   */
  keyFingerprint: string | null
  /** True when the client closed the connection before the answer was ready (it never saw it). */
  clientGone: boolean
  /**
   * The request. `authorization` is redacted to the key id (`Bearer <key_alice>`),
   * or to `<redacted>` when the key was not authenticated; `cookie`,
   * `proxy-authorization` and `x-api-key` are always `<redacted>`.
   */
  request: JournalMessage
  /** The response as the emulator produced it (transport headers such as `content-length` left out). */
  response: JournalMessage
}

/**
 * What the pipeline records per request: plain references to values that
 * exist anyway (the request's header object and body bytes, the response's
 * header object and body string). Copying, redacting, decoding and bounding
 * happen only when an entry is listed, so recording stays cheap.
 */
export interface JournalRecord {
  id: string
  /** Epoch milliseconds on the emulator clock. */
  time: number
  /** Epoch milliseconds on the real clock (`Date.now()`). */
  realTime: number
  /** True when the client was gone before the answer (see `JournalEntry.clientGone`). */
  clientGone: boolean
  method: string
  path: string
  query: string
  operationId: string | null
  status: number
  durationMs: number
  keyId: string | null
  userId: string | null
  requestHeaders: Readonly<Record<string, string | undefined>>
  requestBody: Uint8Array | null
  responseHeaders: Readonly<Record<string, string>>
  responseBody: string | null
}

/** Which entries to list or wait for; every given field must match. */
export interface JournalFilter {
  operationId?: string
  /** An exact status, or a class: `'4xx'`. */
  status?: number | `${1 | 2 | 3 | 4 | 5}xx`
  keyId?: string
  /** Only entries whose time (emulator clock, epoch ms) is at or after this. */
  since?: number
  /** Only entries whose time is at or before this. */
  until?: number
  /** Only entries recorded after the request with this id. */
  after?: string
}

export interface JournalQuery extends JournalFilter {
  /** At most this many entries (newest first). */
  limit?: number
  /** Bodies are cut after this many bytes (default 64 KiB). */
  bodyLimit?: number
}

/** The default number of entries kept; older ones are dropped. */
export const DEFAULT_JOURNAL_SIZE = 10_000
/** The default number of bytes the kept entries may hold; older ones are dropped past it. */
export const DEFAULT_JOURNAL_BYTES = 64 * 1024 * 1024
/** Bodies in a listing are cut after this many bytes unless the listing asks for another limit. */
export const DEFAULT_BODY_LIMIT = 64 * 1024
/** What an entry counts for besides its bodies: its fields and headers, as a fixed allowance. */
export const ENTRY_OVERHEAD_BYTES = 1024
/** The longest a wait may last. */
export const MAX_WAIT_MS = 60_000

const REDACTED = '<redacted>'
const SECRET_HEADERS = new Set(['cookie', 'proxy-authorization', 'x-api-key'])
/** Added by the HTTP server after the emulator answered; left out so every way in lists the same headers. */
const TRANSPORT_HEADERS = new Set(['connection', 'content-length', 'keep-alive', 'transfer-encoding'])

function sizeOf(record: JournalRecord): number {
  return ENTRY_OVERHEAD_BYTES + (record.requestBody?.byteLength ?? 0) + (record.responseBody?.length ?? 0)
}

/** The bytes of `text` in UTF-8, without encoding it. */
function utf8Length(text: string): number {
  let bytes = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x80) bytes += 1
    else if (code < 0x800) bytes += 2
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1)
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4
        i++
      } else bytes += 3
    } else bytes += 3
  }
  return bytes
}

/** The longest prefix of `text` of at most `limit` UTF-8 bytes, never splitting a character. */
function utf8Prefix(text: string, limit: number): string {
  let bytes = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    let width = code < 0x80 ? 1 : code < 0x800 ? 2 : 3
    let units = 1
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1)
      if (next >= 0xdc00 && next <= 0xdfff) {
        width = 4
        units = 2
      }
    }
    if (bytes + width > limit) return text.slice(0, i)
    bytes += width
    i += units - 1
  }
  return text
}

function textMessage(headers: Record<string, string>, body: string | null, limit: number): JournalMessage {
  if (body === null) return { headers, body: null, bodySize: 0, bodyTruncated: false }
  const bodySize = utf8Length(body)
  if (bodySize <= limit) return { headers, body, bodySize, bodyTruncated: false }
  return { headers, body: utf8Prefix(body, limit), bodySize, bodyTruncated: true }
}

function bytesMessage(headers: Record<string, string>, body: Uint8Array | null, limit: number): JournalMessage {
  if (body === null) {
    // A body refused unread (413 on its Content-Length): its declared size, and none of it kept.
    const declared = Number(headers['content-length'])
    return Number.isSafeInteger(declared) && declared > 0
      ? { headers, body: null, bodySize: declared, bodyTruncated: true }
      : { headers, body: null, bodySize: 0, bodyTruncated: false }
  }
  const truncated = body.byteLength > limit
  // `stream: true` holds back a character cut in half at the limit instead of emitting U+FFFD for it.
  const text = new TextDecoder('utf-8').decode(truncated ? body.subarray(0, limit) : body, { stream: truncated })
  return { headers, body: text, bodySize: body.byteLength, bodyTruncated: truncated }
}

function requestHeaders(record: JournalRecord): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(record.requestHeaders)) {
    if (value === undefined) continue
    if (name === 'authorization') out[name] = record.keyId === null ? REDACTED : `Bearer <${record.keyId}>`
    else out[name] = SECRET_HEADERS.has(name) ? REDACTED : value
  }
  return out
}

function responseHeaders(record: JournalRecord): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(record.responseHeaders)) {
    if (!TRANSPORT_HEADERS.has(name)) out[name] = value
  }
  return out
}

/** The listed form of a record: redacted headers, bodies decoded and cut at `bodyLimit` bytes. */
export function toJournalEntry(record: JournalRecord, bodyLimit = DEFAULT_BODY_LIMIT): JournalEntry {
  return {
    ...summaryOf(record),
    request: bytesMessage(requestHeaders(record), record.requestBody, bodyLimit),
    response: textMessage(responseHeaders(record), record.responseBody, bodyLimit),
  }
}

function summaryOf(record: JournalRecord, derived = true): Omit<JournalEntry, 'request' | 'response'> {
  return {
    id: record.id,
    time: new Date(record.time).toISOString(),
    realTime: derived ? new Date(record.realTime).toISOString() : '',
    method: record.method,
    path: record.path,
    query: record.query,
    operationId: record.operationId,
    status: record.status,
    durationMs: record.durationMs,
    keyId: record.keyId,
    userId: record.userId,
    keyFingerprint: derived ? fingerprintOf(record) : null,
    clientGone: record.clientGone,
  }
}

/**
 * The fingerprint of the credential in an `Authorization` header: the bearer
 * token's (or, for a malformed header, the whole value's) hash, computed when
 * an entry is read, never on the request path. The header itself is only
 * ever listed redacted.
 */
export function fingerprintOf(record: JournalRecord): string | null {
  const header = record.requestHeaders.authorization
  if (header === undefined) return null
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header)
  return credentialFingerprint(match === null ? header : match[1]!)
}

/** The fingerprint of an API key's value (or of a malformed header's whole value). */
export function credentialFingerprint(credential: string): string {
  return `fp_${hashToken(`fingerprint:${credential}`, 12)}`
}

/**
 * The entry of a record whose `request` and `response` are worked out only
 * when read (for `onRequest`, which the CLI calls for every request but
 * whose log line reads only the summary fields).
 */
export function lazyJournalEntry(record: JournalRecord): JournalEntry {
  let full: JournalEntry | undefined
  // The fields the client report added are worked out only when read, too (a hash, a date).
  const { keyFingerprint: _fingerprint, realTime: _realTime, ...summary } = summaryOf(record, false)
  return {
    ...summary,
    get realTime() {
      return new Date(record.realTime).toISOString()
    },
    get keyFingerprint() {
      return fingerprintOf(record)
    },
    get request() {
      full ??= toJournalEntry(record)
      return full.request
    },
    get response() {
      full ??= toJournalEntry(record)
      return full.response
    },
  }
}

const sequenceOf = (id: string): number => Number(id.slice(id.indexOf('_') + 1))

/** True when `record` passes every field of `filter`. */
export function matchesFilter(record: JournalRecord, filter: JournalFilter): boolean {
  if (filter.operationId !== undefined && record.operationId !== filter.operationId) return false
  if (filter.status !== undefined) {
    if (typeof filter.status === 'number') {
      if (record.status !== filter.status) return false
    } else if (Math.floor(record.status / 100) !== Number(filter.status[0])) return false
  }
  if (filter.keyId !== undefined && record.keyId !== filter.keyId) return false
  if (filter.since !== undefined && record.time < filter.since) return false
  if (filter.until !== undefined && record.time > filter.until) return false
  if (filter.after !== undefined && sequenceOf(record.id) <= sequenceOf(filter.after)) return false
  return true
}

/** A change of a team's credits made outside the API (the control plane), with both clocks. */
export interface CreditChange {
  teamId: string
  credits: number
  /** Epoch ms on the emulator clock. */
  time: number
  /** Epoch ms on the real clock. */
  realTime: number
  /** The sequence number of the newest request recorded before the change (0: none yet). */
  afterSequence: number
}

/** How many credit changes the journal keeps; older ones are dropped (and the report says so). */
export const CREDIT_CHANGES_KEPT = 10_000
/** How many marks the journal keeps; the oldest is forgotten past it. */
export const MARKS_KEPT = 1_000

/** What the client report reads: the kept records oldest first, and what was dropped before them. */
export interface JournalSnapshot {
  /** Kept records, oldest first. */
  records: JournalRecord[]
  /** The sequence number of the newest request ever recorded (0: none). */
  lastSequence: number
  /** The sequence number of the newest request dropped (past a cap, or by `clear`); 0 when none was. */
  droppedThrough: number
  /** The sequence number of the newest request when the journal was last cleared (0: never): a report of "everything kept" starts there. */
  clearedThrough: number
  creditChanges: CreditChange[]
  /** The newest `afterSequence` of a credit change that was dropped; 0 when none was. */
  creditChangesDroppedThrough: number
}

interface Waiter {
  filter: JournalFilter
  bodyLimit: number
  resolve(entry: JournalEntry): void
  reject(error: unknown): void
  timer: ReturnType<typeof setTimeout>
}

/**
 * The request journal: the last `capacity` `/v1` requests, holding at most
 * about `maxBytes` (bodies counted exactly, everything else as a fixed
 * allowance per entry), dropping the oldest past either cap; and the
 * waiters of `wait`, which are answered as matching requests are recorded.
 */
export class Journal {
  readonly #entries: Array<JournalRecord | undefined>
  readonly #sizes: Float64Array
  /** Index of the oldest entry. */
  #start = 0
  #count = 0
  #bytes = 0
  #sequence = 0
  /** The newest sequence number no longer kept (dropped past a cap, or cleared). */
  #droppedThrough = 0
  #clearedThrough = 0
  readonly #credits: CreditChange[] = []
  #creditsDroppedThrough = 0
  readonly #marks = new Map<string, number>()
  #markSequence = 0
  readonly #waiters = new Set<Waiter>()

  constructor(
    readonly capacity: number = DEFAULT_JOURNAL_SIZE,
    readonly maxBytes: number = DEFAULT_JOURNAL_BYTES,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('journal capacity must be a positive integer')
    if (!Number.isInteger(maxBytes) || maxBytes < 1) throw new RangeError('journal maxBytes must be a positive integer')
    this.#entries = new Array(capacity)
    this.#sizes = new Float64Array(capacity)
  }

  get size(): number {
    return this.#count
  }

  /** About how many bytes the kept entries hold (see the class comment). */
  get bytes(): number {
    return this.#bytes
  }

  /** Allocates the id of the next entry (also sent as `X-Request-Id`). */
  nextId(): string {
    this.#sequence += 1
    return `req_${this.#sequence}`
  }

  record(record: JournalRecord): void {
    if (this.#count === this.capacity) this.#dropOldest()
    const size = sizeOf(record)
    const index = (this.#start + this.#count) % this.capacity
    this.#entries[index] = record
    this.#sizes[index] = size
    this.#count += 1
    this.#bytes += size
    // The newest entry stays even when it alone is over the cap.
    while (this.#bytes > this.maxBytes && this.#count > 1) this.#dropOldest()
    if (this.#waiters.size > 0) this.#notify(record)
  }

  #dropOldest(): void {
    this.#droppedThrough = sequenceOf(this.#entries[this.#start]!.id)
    this.#bytes -= this.#sizes[this.#start]!
    this.#entries[this.#start] = undefined
    this.#start = (this.#start + 1) % this.capacity
    this.#count -= 1
  }

  /** Records newest first, as the filter admits, at most `limit`. */
  #find(filter: JournalFilter, limit: number): JournalRecord[] {
    const out: JournalRecord[] = []
    for (let i = this.#count - 1; i >= 0 && out.length < limit; i--) {
      const record = this.#entries[(this.#start + i) % this.capacity]!
      if (matchesFilter(record, filter)) out.push(record)
    }
    return out
  }

  /** Entries newest first, as the query's filter admits, at most `limit`, bodies cut at `bodyLimit` bytes. */
  list(query: JournalQuery = {}): JournalEntry[] {
    const bodyLimit = query.bodyLimit ?? DEFAULT_BODY_LIMIT
    return this.#find(query, query.limit ?? this.#count).map((record) => toJournalEntry(record, bodyLimit))
  }

  /**
   * The newest entry the filter admits: at once if the journal holds one,
   * else the first such request to be recorded within `timeoutMs`. Rejects
   * with a 408 `WAIT_TIMEOUT` `ServiceError` when none comes in time.
   */
  wait(filter: JournalFilter, options: { timeoutMs: number; bodyLimit?: number }): Promise<JournalEntry> {
    const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT
    const [found] = this.#find(filter, 1)
    if (found !== undefined) return Promise.resolve(toJournalEntry(found, bodyLimit))
    return new Promise<JournalEntry>((resolve, reject) => {
      const waiter: Waiter = {
        filter,
        bodyLimit,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.#waiters.delete(waiter)
          reject(
            new ServiceError(
              408,
              'WAIT_TIMEOUT',
              'No matching request',
              `no /v1 request matching ${describeFilter(filter)} arrived within ${options.timeoutMs} ms`,
            ),
          )
        }, options.timeoutMs),
      }
      this.#waiters.add(waiter)
    })
  }

  #notify(record: JournalRecord): void {
    for (const waiter of this.#waiters) {
      if (!matchesFilter(record, waiter.filter)) continue
      this.#waiters.delete(waiter)
      clearTimeout(waiter.timer)
      waiter.resolve(toJournalEntry(record, waiter.bodyLimit))
    }
  }

  /** Notes a change of a team's credits made outside the API, placed after the newest request recorded. */
  noteCreditChange(change: Omit<CreditChange, 'afterSequence'>): void {
    if (this.#credits.length === CREDIT_CHANGES_KEPT) this.#creditsDroppedThrough = this.#credits.shift()!.afterSequence
    this.#credits.push({ ...change, afterSequence: this.#sequence })
  }

  /** A new mark (`mark_<n>`) at the newest request recorded so far: a client report `since` it covers what comes after. */
  mark(): { mark: string; after: string | null } {
    this.#markSequence += 1
    const mark = `mark_${this.#markSequence}`
    if (this.#marks.size === MARKS_KEPT) this.#marks.delete(this.#marks.keys().next().value!)
    this.#marks.set(mark, this.#sequence)
    return { mark, after: this.#sequence === 0 ? null : `req_${this.#sequence}` }
  }

  /** The sequence number a mark stands at; undefined for a mark this journal never made (or forgot). */
  markSequence(mark: string): number | undefined {
    return this.#marks.get(mark)
  }

  /** The sequence number of a request id (`req_<n>`). */
  static sequenceOf(id: string): number {
    return sequenceOf(id)
  }

  /** The kept records oldest first, and what was dropped before them (one pass; the records are not copied). */
  snapshot(): JournalSnapshot {
    const records: JournalRecord[] = new Array(this.#count)
    for (let i = 0; i < this.#count; i++) records[i] = this.#entries[(this.#start + i) % this.capacity]!
    return {
      records,
      lastSequence: this.#sequence,
      droppedThrough: this.#droppedThrough,
      clearedThrough: this.#clearedThrough,
      creditChanges: this.#credits.slice(),
      creditChangesDroppedThrough: this.#creditsDroppedThrough,
    }
  }

  /** Ends every wait in progress with a 503 (the emulator is stopping). */
  cancelWaits(): void {
    for (const waiter of this.#waiters) {
      clearTimeout(waiter.timer)
      waiter.reject(new ServiceError(503, 'HTTP_503', 'Service unavailable', 'the emulator is shutting down'))
    }
    this.#waiters.clear()
  }

  clear(): void {
    this.#droppedThrough = this.#sequence
    this.#clearedThrough = this.#sequence
    this.#creditsDroppedThrough = this.#sequence
    this.#credits.length = 0
    this.#entries.fill(undefined)
    this.#sizes.fill(0)
    this.#start = 0
    this.#count = 0
    this.#bytes = 0
  }
}

/** `operationId=listTeams, status=4xx`, or `any request` (for messages). */
export function describeFilter(filter: JournalFilter): string {
  const parts: string[] = []
  for (const [name, value] of Object.entries(filter)) {
    if (value === undefined) continue
    parts.push(`${name}=${name === 'since' || name === 'until' ? new Date(value as number).toISOString() : String(value)}`)
  }
  return parts.length === 0 ? 'any request' : parts.join(', ')
}
