import { describe, expect, it } from 'vitest'
import { compareRecency, mergeRecency, RecencyIndex, type RecencyKey } from './recency-index.js'

const key = (at: string, id: string): RecencyKey => ({ at: `2026-01-0${at}T00:00:00.000Z`, id })

describe('RecencyIndex', () => {
  it('keeps keys newest first, ties by id ascending', () => {
    const index = new RecencyIndex()
    for (const k of [key('1', 'b'), key('3', 'a'), key('1', 'a'), key('2', 'z')]) index.insert(k)
    expect([...index.after()]).toEqual([key('3', 'a'), key('2', 'z'), key('1', 'a'), key('1', 'b')])
  })

  it('starts strictly after a cursor, even one that is no longer in the index', () => {
    const index = new RecencyIndex()
    for (const k of [key('4', 'a'), key('3', 'a'), key('2', 'a'), key('1', 'a')]) index.insert(k)
    expect([...index.after(key('3', 'a'))].map((k) => k.at)).toEqual([key('2', 'a').at, key('1', 'a').at])
    index.remove(key('3', 'a'))
    expect([...index.after(key('3', 'a'))].map((k) => k.at)).toEqual([key('2', 'a').at, key('1', 'a').at])
  })

  it('built at once from unsorted keys (a world loaded as a whole), holds and seeks what one-by-one inserts do, and keeps working after', () => {
    let seed = 7
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
    // Dates as the emulator writes them (compared by their digits), then some as a state document may hold them (compared as texts).
    const canonical = Array.from({ length: 3_000 }, (_, i) => ({
      at: `202${Math.floor(random() * 10)}-0${1 + Math.floor(random() * 9)}-1${Math.floor(random() * 10)}T0${Math.floor(random() * 10)}:00:0${i % 3}.${i % 7}00Z`,
      id: `prj_${Math.floor(random() * 1e9).toString(36)}_${i % 2_500}`,
    }))
    const mixed = canonical.map((k, i) => (i % 97 === 0 ? { ...k, at: k.at.replace('.', ',').replace('Z', '+02:00') } : k))
    for (const keys of [canonical, mixed]) expectSameAsInserts(keys)
    expect([...RecencyIndex.of([]).after()]).toEqual([])
  })

  function expectSameAsInserts(keys: RecencyKey[]) {
    const inserted = new RecencyIndex()
    for (const k of keys) inserted.insert(k)
    const built = RecencyIndex.of(keys.map((k) => ({ ...k })))
    expect(built.size).toBe(inserted.size)
    expect([...built.after()]).toEqual([...inserted.after()])
    for (const cursor of [keys[0]!, keys[1_500]!, key('5', 'm'), key('9', 'z')]) {
      expect([...built.after(cursor)]).toEqual([...inserted.after(cursor)])
    }
    for (const k of keys.slice(0, 1_000)) {
      built.remove(k)
      inserted.remove(k)
    }
    for (const k of [key('9', 'n'), key('1', 'n')]) {
      built.insert(k)
      inserted.insert(k)
    }
    expect([...built.after()]).toEqual([...inserted.after()])
  }

  it('removes only an exact key', () => {
    const index = new RecencyIndex()
    index.insert(key('1', 'a'))
    index.remove(key('1', 'b'))
    index.remove(key('2', 'a'))
    expect(index.size).toBe(1)
    index.remove(key('1', 'a'))
    expect(index.size).toBe(0)
  })
})

describe('mergeRecency', () => {
  it('merges sorted streams into one sorted stream without repeating a key', () => {
    const a = [key('5', 'a'), key('3', 'a'), key('1', 'a')]
    const b = [key('4', 'b'), key('3', 'a'), key('2', 'b')]
    const merged = [...mergeRecency([a.values(), b.values(), [].values()])]
    expect(merged).toEqual([key('5', 'a'), key('4', 'b'), key('3', 'a'), key('2', 'b'), key('1', 'a')])
    for (let i = 1; i < merged.length; i++) expect(compareRecency(merged[i - 1]!, merged[i]!)).toBeLessThan(0)
  })
})

describe('RecencyIndex at scale', () => {
  it('stays ordered across chunk splits and merges, with inserts and removals anywhere', () => {
    const index = new RecencyIndex()
    const live = new Map<string, RecencyKey>()
    let state = 7
    const random = (n: number) => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0
      return state % n
    }
    const at = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString()
    for (let i = 0; i < 5000; i++) {
      const k = { at: at(random(3000)), id: `p${i}` }
      index.insert(k)
      live.set(k.id, k)
      if (random(3) === 0) {
        const victim = `p${random(i + 1)}`
        const gone = live.get(victim)
        if (gone !== undefined) {
          index.remove(gone)
          live.delete(victim)
        }
      }
    }
    const expected = [...live.values()].sort(compareRecency)
    expect(index.size).toBe(expected.length)
    expect([...index.after()]).toEqual(expected)
    const cursor = expected[1234]!
    expect([...index.after(cursor)]).toEqual(expected.slice(1235))
  })
})
