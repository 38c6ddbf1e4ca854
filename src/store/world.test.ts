import { describe, expect, it } from 'vitest'
import { buildWorld } from '../fixtures/build.js'
import { BUILT_IN_FIXTURES, parseFixtures } from '../fixtures/load.js'
import { TABLE_NAMES, World } from './world.js'

/** Every recency listing of a world: projects by team and by collaborator, templates by team. */
function listings(world: World): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {}
  for (const team of world.teams.values()) {
    out[`projects of ${team.id}`] = [...{ [Symbol.iterator]: () => world.projectsOfTeam(team.id) }]
    out[`templates of ${team.id}`] = [...{ [Symbol.iterator]: () => world.templatesOfTeam(team.id) }]
  }
  for (const user of world.users.values())
    out[`shared with ${user.id}`] = [...{ [Symbol.iterator]: () => world.projectsSharedWith(user.id) }]
  return out
}

describe('recency indexes gathered while a world is filled', () => {
  it('list what a world written record by record lists, after a fixtures build (with its updates) and after a state load', async () => {
    const built = await buildWorld(
      parseFixtures({
        ...BUILT_IN_FIXTURES,
        projects: [
          ...(BUILT_IN_FIXTURES.projects ?? []),
          { teamId: 'team_acme', count: 40, versions: 3, published: true, collaborators: ['usr_bob'] },
        ],
      }),
      7,
    )
    const doc = JSON.parse(JSON.stringify(built.toState()))
    const oneByOne = new World(doc.seed, doc.sequence)
    for (const name of TABLE_NAMES) for (const record of doc[name]) oneByOne.table(name).insert(record)
    const expected = listings(oneByOne)
    expect(Object.values(expected).some((keys) => keys.length > 40)).toBe(true)
    expect(listings(built)).toEqual(expected)
    expect(listings(World.fromState(doc))).toEqual(expected)
  })
})

describe('World.transaction', () => {
  const user = (id: string) => ({ id, name: id, email: `${id}@example.com` })
  const team = (id: string, credits = 1) => ({ id, slug: id, name: id, personalOf: null, credits, createdAt: '2026-01-01T00:00:00.000Z' })

  async function seeded(): Promise<World> {
    const world = new World(1)
    for (const id of ['usr_a', 'usr_b', 'usr_c']) world.users.insert(user(id))
    world.teams.insert(team('team_a'))
    world.memberships.insert({ id: 'mem_a', userId: 'usr_a', teamId: 'team_a', role: 'owner' })
    return world
  }

  it('undoes every write of a task that throws, in place, indexes and id sequence included, and tells no listener', async () => {
    const world = await seeded()
    const before = JSON.stringify(world.toState())
    const heard: unknown[] = []
    world.onChange((change) => heard.push(change))
    const failure = new Error('the last write fails')
    await expect(
      world.transaction(() => {
        world.ids('usr')
        world.users.update('usr_a', (draft) => void (draft.name = 'Renamed'))
        world.users.remove('usr_b')
        world.memberships.insert({ id: 'mem_b', userId: 'usr_c', teamId: 'team_a', role: 'member' })
        world.teams.update('team_a', (draft) => void (draft.credits = 0))
        throw failure
      }),
    ).rejects.toBe(failure)
    expect(JSON.stringify(world.toState())).toBe(before)
    expect(world.users.all().map((record) => record.id)).toEqual(['usr_a', 'usr_b', 'usr_c'])
    expect([...world.teamIdsOf('usr_c')]).toEqual([])
    expect([...world.memberIdsOf('team_a')]).toEqual(['usr_a'])
    expect(heard).toEqual([])
    expect(world.inTransaction).toBe(false)
  })

  it('tells listeners of a task that succeeds once it has, in the order of its writes', async () => {
    const world = await seeded()
    const seen: string[] = []
    world.onChange((change) =>
      seen.push(`${change.table} ${change.prev === undefined ? 'insert' : change.next === undefined ? 'remove' : 'update'}`),
    )
    const result = await world.transaction(async () => {
      world.users.insert(user('usr_d'))
      await Promise.resolve()
      expect(seen).toEqual([])
      world.users.remove('usr_b')
      return 'done'
    })
    expect(result).toBe('done')
    expect(seen).toEqual(['users insert', 'users remove'])
  })

  it('undoes a failed inner transaction alone; the outer one commits the rest', async () => {
    const world = await seeded()
    const seen: string[] = []
    world.onChange((change) => seen.push((change.next as { id: string } | undefined)?.id ?? 'removed'))
    await world.transaction(async () => {
      world.users.insert(user('usr_d'))
      await world
        .transaction(() => {
          world.users.insert(user('usr_e'))
          throw new Error('inner')
        })
        .catch(() => undefined)
      world.users.insert(user('usr_f'))
    })
    expect(world.users.all().map((record) => record.id)).toEqual(['usr_a', 'usr_b', 'usr_c', 'usr_d', 'usr_f'])
    expect(seen).toEqual(['usr_d', 'usr_f'])
  })
})
