import { describe, expect, it } from 'vitest'
import { expectError, harnessPerTest, WAYS, type Harness } from '../support/harness.js'

async function walk(h: Harness, query: string, key: string, between?: (page: number) => Promise<void>) {
  const seen: Array<{ id: string; updatedAt: string }> = []
  let cursor: string | undefined
  let pages = 0
  do {
    const reply = await h.api('GET', `/projects?${query}${cursor ? `&cursor=${cursor}` : ''}`, { key })
    expect(reply.status).toBe(200)
    seen.push(...reply.body.projects)
    cursor = reply.body.nextCursor
    pages += 1
    if (between) await between(pages)
  } while (cursor !== undefined)
  return { seen, pages }
}

describe.each(WAYS)('cursor pagination (%s)', (way) => {
  const h = harnessPerTest(way)

  it('walks every accessible project exactly once, in updatedAt-descending order', async () => {
    const { seen, pages } = await walk(h, 'limit=7', 'pres_test_alice_acme')
    const all = (await h.api('GET', '/projects?limit=100', { key: 'pres_test_alice_acme' })).body.projects
    expect(seen.map((p) => p.id)).toEqual(all.map((p: any) => p.id))
    expect(new Set(seen.map((p) => p.id)).size).toBe(seen.length)
    expect(pages).toBe(Math.ceil(all.length / 7))
    for (let i = 1; i < seen.length; i++) {
      const [a, b] = [seen[i - 1]!, seen[i]!]
      expect(a.updatedAt > b.updatedAt || (a.updatedAt === b.updatedAt && a.id < b.id)).toBe(true)
    }
  })

  it('neither skips nor repeats an item when projects are created between pages', async () => {
    const before = (await h.api('GET', '/projects?limit=100', { key: 'pres_test_alice_acme' })).body.projects
    const created: string[] = []
    const { seen } = await walk(h, 'limit=5', 'pres_test_alice_acme', async (page) => {
      await h.emulator.control.advanceClock({ ms: 1000 })
      for (let i = 0; i < 3; i++) {
        const reply = await h.api('POST', '/projects', { key: 'pres_test_alice_acme', json: { name: `Inserted ${page}.${i}` } })
        created.push(reply.body.projectId)
      }
    })
    expect(seen.map((p) => p.id)).toEqual(before.map((p: any) => p.id))
    expect(seen.some((p) => created.includes(p.id))).toBe(false)
  })

  it('paginates a filtered list, and a cursor stays valid across filters', async () => {
    const { seen } = await walk(h, 'limit=3&published=true', 'pres_test_alice_acme')
    const all = (await h.api('GET', '/projects?limit=100&published=true', { key: 'pres_test_alice_acme' })).body.projects
    expect(seen.map((p) => p.id)).toEqual(all.map((p: any) => p.id))
  })

  it('ends with no nextCursor when the last page is exactly full', async () => {
    const total = (await h.api('GET', '/projects?limit=100', { key: 'pres_test_bob' })).body.projects.length
    const reply = await h.api('GET', `/projects?limit=${total}`, { key: 'pres_test_bob' })
    expect(reply.body.projects).toHaveLength(total)
    expect(reply.body.nextCursor).toBeUndefined()
  })

  it.each(['abc', 'WyJ4Il0', 'eyJhIjoxfQ', '%%%'])('answers 400 to the malformed cursor %s', async (cursor) => {
    const reply = await h.api('GET', `/projects?cursor=${cursor}`)
    expectError(reply, 400, 'VALIDATION_ERROR')
  })
})
