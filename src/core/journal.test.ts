import { afterEach, describe, expect, it, vi } from 'vitest'
import { ServiceError } from './errors.js'
import {
  DEFAULT_BODY_LIMIT,
  DEFAULT_JOURNAL_BYTES,
  DEFAULT_JOURNAL_SIZE,
  ENTRY_OVERHEAD_BYTES,
  Journal,
  lazyJournalEntry,
  toJournalEntry,
  type JournalEntry,
  type JournalRecord,
} from './journal.js'

function entry(n: number, operationId: string | null = 'listTeams', more: Partial<JournalRecord> = {}): JournalRecord {
  return {
    id: `req_${n}`,
    time: Date.UTC(2026, 0, 1, 0, 0, n),
    realTime: Date.UTC(2026, 5, 1, 0, 0, n),
    clientGone: false,
    method: 'GET',
    path: '/v1/teams',
    query: '',
    operationId,
    status: 200,
    durationMs: 1,
    keyId: 'key_alice',
    userId: 'usr_alice',
    requestHeaders: { authorization: 'Bearer pres_test_alice' },
    requestBody: null,
    responseHeaders: { 'content-type': 'application/json' },
    responseBody: '{}',
    ...more,
  }
}

const ids = (entries: JournalEntry[]) => entries.map((e) => e.id)

describe('Journal', () => {
  it('keeps 10,000 entries by default', () => {
    expect(DEFAULT_JOURNAL_SIZE).toBe(10_000)
    expect(new Journal().capacity).toBe(10_000)
  })

  it.each([0, -1, 1.5, Number.NaN])('refuses a capacity of %s', (capacity) => {
    expect(() => new Journal(capacity)).toThrow(RangeError)
  })

  it('lists nothing when empty', () => {
    const journal = new Journal(3)
    expect(journal.size).toBe(0)
    expect(journal.list()).toEqual([])
    expect(journal.list({ limit: 5 })).toEqual([])
  })

  it('lists entries newest first', () => {
    const journal = new Journal(5)
    for (let n = 1; n <= 3; n++) journal.record(entry(n))
    expect(ids(journal.list())).toEqual(['req_3', 'req_2', 'req_1'])
    expect(journal.size).toBe(3)
  })

  it('fills to exactly its capacity without dropping anything', () => {
    const journal = new Journal(3)
    for (let n = 1; n <= 3; n++) journal.record(entry(n))
    expect(ids(journal.list())).toEqual(['req_3', 'req_2', 'req_1'])
  })

  it('wraps around: keeps only the last `capacity` entries, newest first', () => {
    const journal = new Journal(3)
    for (let n = 1; n <= 7; n++) journal.record(entry(n))
    expect(journal.size).toBe(3)
    expect(ids(journal.list())).toEqual(['req_7', 'req_6', 'req_5'])
  })

  it('wraps around many times over', () => {
    const journal = new Journal(4)
    for (let n = 1; n <= 1_003; n++) journal.record(entry(n))
    expect(ids(journal.list())).toEqual(['req_1003', 'req_1002', 'req_1001', 'req_1000'])
  })

  it('works with a capacity of one', () => {
    const journal = new Journal(1)
    journal.record(entry(1))
    journal.record(entry(2))
    expect(ids(journal.list())).toEqual(['req_2'])
  })

  it('limits the count from the newest', () => {
    const journal = new Journal(3)
    for (let n = 1; n <= 5; n++) journal.record(entry(n))
    expect(ids(journal.list({ limit: 2 }))).toEqual(['req_5', 'req_4'])
    expect(ids(journal.list({ limit: 99 }))).toEqual(['req_5', 'req_4', 'req_3'])
    expect(journal.list({ limit: 0 })).toEqual([])
  })

  it('filters by operation across the wrap-around, then limits', () => {
    const journal = new Journal(4)
    for (let n = 1; n <= 9; n++) journal.record(entry(n, n % 2 === 0 ? 'getProject' : 'listTeams'))
    // Kept: 6, 7, 8, 9.
    expect(ids(journal.list({ operationId: 'getProject' }))).toEqual(['req_8', 'req_6'])
    expect(ids(journal.list({ operationId: 'listTeams' }))).toEqual(['req_9', 'req_7'])
    expect(ids(journal.list({ operationId: 'listTeams', limit: 1 }))).toEqual(['req_9'])
    expect(journal.list({ operationId: 'createProject' })).toEqual([])
  })

  it('never matches an operation filter against entries without an operation', () => {
    const journal = new Journal(3)
    journal.record(entry(1, null))
    expect(journal.list({ operationId: 'listTeams' })).toEqual([])
    expect(journal.list()).toHaveLength(1)
  })

  it('clears, then records afresh in order', () => {
    const journal = new Journal(3)
    for (let n = 1; n <= 5; n++) journal.record(entry(n))
    journal.clear()
    expect(journal.size).toBe(0)
    expect(journal.list()).toEqual([])
    journal.record(entry(6))
    journal.record(entry(7))
    expect(ids(journal.list())).toEqual(['req_7', 'req_6'])
  })

  it('hands out increasing request ids that never repeat, also after clear', () => {
    const journal = new Journal(2)
    const first = journal.nextId()
    const second = journal.nextId()
    journal.clear()
    const third = journal.nextId()
    expect([first, second, third]).toEqual(['req_1', 'req_2', 'req_3'])
  })

  it('keeps about 64 MiB by default and refuses a byte cap that is not a positive integer', () => {
    expect(DEFAULT_JOURNAL_BYTES).toBe(64 * 1024 * 1024)
    expect(new Journal().maxBytes).toBe(DEFAULT_JOURNAL_BYTES)
    expect(() => new Journal(10, 0)).toThrow(RangeError)
    expect(() => new Journal(10, 1.5)).toThrow(RangeError)
  })

  it('drops the oldest entries once the bodies pass the byte cap, whatever the entry cap', () => {
    const body = 'x'.repeat(10_000)
    const perEntry = ENTRY_OVERHEAD_BYTES + body.length
    const journal = new Journal(100, perEntry * 3)
    for (let n = 1; n <= 5; n++) journal.record(entry(n, 'listTeams', { responseBody: body }))
    expect(ids(journal.list())).toEqual(['req_5', 'req_4', 'req_3'])
    expect(journal.bytes).toBe(perEntry * 3)
    // Small entries fit again once the big ones are gone.
    for (let n = 6; n <= 12; n++) journal.record(entry(n))
    expect(journal.size).toBeGreaterThan(3)
    expect(journal.bytes).toBeLessThanOrEqual(perEntry * 3)
  })

  it('counts request body bytes too, and keeps the newest entry even when it alone is over the cap', () => {
    const journal = new Journal(100, 5_000)
    journal.record(entry(1))
    journal.record(entry(2, 'createProject', { requestBody: new Uint8Array(20_000) }))
    expect(ids(journal.list())).toEqual(['req_2'])
    journal.record(entry(3))
    expect(ids(journal.list())).toEqual(['req_3'])
    expect(journal.bytes).toBe(ENTRY_OVERHEAD_BYTES + 2)
  })

  it('filters by status, status class, key, time and position, combined', () => {
    const journal = new Journal(20)
    journal.record(entry(1, 'listTeams', { status: 200 }))
    journal.record(entry(2, 'listTeams', { status: 429, keyId: 'key_bob' }))
    journal.record(entry(3, 'getProject', { status: 404 }))
    journal.record(entry(4, 'listTeams', { status: 401, keyId: null, userId: null }))
    expect(ids(journal.list({ status: 429 }))).toEqual(['req_2'])
    expect(ids(journal.list({ status: '4xx' }))).toEqual(['req_4', 'req_3', 'req_2'])
    expect(ids(journal.list({ status: '2xx' }))).toEqual(['req_1'])
    expect(ids(journal.list({ keyId: 'key_bob' }))).toEqual(['req_2'])
    expect(ids(journal.list({ since: Date.UTC(2026, 0, 1, 0, 0, 2), until: Date.UTC(2026, 0, 1, 0, 0, 3) }))).toEqual(['req_3', 'req_2'])
    expect(ids(journal.list({ after: 'req_2' }))).toEqual(['req_4', 'req_3'])
    expect(ids(journal.list({ operationId: 'listTeams', status: '4xx', after: 'req_1' }))).toEqual(['req_4', 'req_2'])
  })
})

describe('a listed journal entry', () => {
  it('redacts the Authorization value to the key id, and other secrets entirely', () => {
    const listed = toJournalEntry(
      entry(1, 'listTeams', {
        requestHeaders: {
          authorization: 'Bearer pres_test_alice',
          cookie: 'sid=1',
          'x-api-key': 'k',
          accept: 'application/json',
          skipped: undefined,
        },
      }),
    )
    expect(listed.request.headers).toEqual({
      authorization: 'Bearer <key_alice>',
      cookie: '<redacted>',
      'x-api-key': '<redacted>',
      accept: 'application/json',
    })
    const unauthenticated = toJournalEntry(
      entry(2, 'listTeams', { keyId: null, userId: null, requestHeaders: { authorization: 'Bearer pres_secret' } }),
    )
    expect(unauthenticated.request.headers.authorization).toBe('<redacted>')
    expect(JSON.stringify([listed, unauthenticated])).not.toMatch(/pres_/)
  })

  it('decodes the request body and leaves transport headers out of the response', () => {
    const listed = toJournalEntry(
      entry(1, 'createProject', {
        requestBody: new TextEncoder().encode('{"name":"Déjà vu"}'),
        responseHeaders: { 'content-type': 'application/json', 'content-length': '2', connection: 'close', 'x-request-id': 'req_1' },
      }),
    )
    expect(listed.request).toMatchObject({ body: '{"name":"Déjà vu"}', bodySize: 20, bodyTruncated: false })
    expect(listed.response).toEqual({
      headers: { 'content-type': 'application/json', 'x-request-id': 'req_1' },
      body: '{}',
      bodySize: 2,
      bodyTruncated: false,
    })
    expect(listed.query).toBe('')
  })

  it('cuts bodies at the body limit in UTF-8 bytes without splitting a character, and says so', () => {
    const text = `${'a'.repeat(9)}é😀`
    const record = entry(1, 'createProject', { requestBody: new TextEncoder().encode(text), responseBody: text })
    // 9 + 2 (é) + 4 (😀) = 15 bytes
    const cut = toJournalEntry(record, 12)
    expect(cut.request).toMatchObject({ body: `${'a'.repeat(9)}é`, bodySize: 15, bodyTruncated: true })
    expect(cut.response).toMatchObject({ body: `${'a'.repeat(9)}é`, bodySize: 15, bodyTruncated: true })
    expect(toJournalEntry(record, 10).response.body).toBe('a'.repeat(9))
    expect(toJournalEntry(record, 15).response).toMatchObject({ body: text, bodyTruncated: false })
    expect(toJournalEntry(record, 0).request).toMatchObject({ body: '', bodySize: 15, bodyTruncated: true })
    expect(DEFAULT_BODY_LIMIT).toBe(64 * 1024)
  })

  it('is worked out for onRequest only when its request or response is read', () => {
    const record = entry(1, 'listTeams', { requestBody: new TextEncoder().encode('{}') })
    const lazy = lazyJournalEntry(record)
    const { request, response, ...summary } = toJournalEntry(record)
    expect(lazy).toMatchObject(summary)
    expect(lazy.request).toEqual(request)
    expect(JSON.parse(JSON.stringify(lazy))).toEqual({ ...summary, request, response })
  })
})

describe('waiting for a request', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('answers at once with the newest matching entry already recorded', async () => {
    const journal = new Journal(10)
    journal.record(entry(1))
    journal.record(entry(2))
    journal.record(entry(3, 'getProject'))
    expect((await journal.wait({ operationId: 'listTeams' }, { timeoutMs: 0 })).id).toBe('req_2')
  })

  it('answers with the first matching entry recorded later, ignoring others', async () => {
    const journal = new Journal(10)
    journal.record(entry(1))
    const waiting = journal.wait({ operationId: 'listTeams', after: 'req_1' }, { timeoutMs: 1_000 })
    journal.record(entry(2, 'getProject'))
    journal.record(entry(3))
    journal.record(entry(4))
    expect((await waiting).id).toBe('req_3')
  })

  it('rejects with a 408 WAIT_TIMEOUT naming the filter when nothing matches in time', async () => {
    vi.useFakeTimers()
    const journal = new Journal(10)
    const waiting = journal.wait({ operationId: 'generateProject', status: 502 }, { timeoutMs: 1_500 })
    const outcome = waiting.catch((error: unknown) => error)
    await vi.advanceTimersByTimeAsync(1_500)
    const error = (await outcome) as ServiceError
    expect(error).toBeInstanceOf(ServiceError)
    expect(error).toMatchObject({ status: 408, code: 'WAIT_TIMEOUT' })
    expect(error.hint).toBe('no /v1 request matching operationId=generateProject, status=502 arrived within 1500 ms')
    // A late match answers nobody and breaks nothing.
    journal.record(entry(1, 'generateProject', { status: 502 }))
  })

  it('ends every wait in progress with a 503 when the emulator stops', async () => {
    const journal = new Journal(10)
    const waiting = journal.wait({}, { timeoutMs: 60_000 })
    journal.cancelWaits()
    await expect(waiting).rejects.toMatchObject({ status: 503 })
  })
})
