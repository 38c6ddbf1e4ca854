import { describe, expect, it } from 'vitest'
import { DEFAULT_JOURNAL_SIZE, Journal, type JournalEntry, type JournalRecord } from './journal.js'

function entry(n: number, operationId: string | null = 'listTeams'): JournalRecord {
  return {
    id: `req_${n}`,
    time: Date.UTC(2026, 0, 1, 0, 0, n),
    method: 'GET',
    path: '/v1/teams',
    operationId,
    status: 200,
    durationMs: 1,
    keyId: 'key_alice',
    userId: 'usr_alice',
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
})
