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
