import { describe, expect, it } from 'vitest'
import { BUILT_IN_FIXTURES, createEmulator, FixturesError, parseFixtures } from '../../src/index.js'
import { FixturesDocument } from '../../src/fixtures/schema.js'
import { safeParse } from '../../src/core/validation.js'
import { worldOf } from '../support/state.js'

/** The built-in world, as the control plane shows it. */
async function seeded() {
  const emulator = createEmulator({ clock: 'manual' })
  const world = await worldOf(emulator)
  await emulator.close()
  return world
}

describe('the built-in world (contract §2)', () => {
  it('has the four fixed keys with their owners, teams and credits', async () => {
    const world = await seeded()
    const key = (value: string) => world.apiKeyByValue(value)!
    expect(key('pres_test_alice')).toMatchObject({ userId: 'usr_alice', teamId: 'team_alice', revokedAt: null })
    expect(key('pres_test_alice_acme')).toMatchObject({ userId: 'usr_alice', teamId: 'team_acme', revokedAt: null })
    expect(key('pres_test_bob')).toMatchObject({ userId: 'usr_bob', teamId: 'team_bob', revokedAt: null })
    expect(key('pres_test_revoked').revokedAt).not.toBeNull()
    expect(world.team('team_alice')).toMatchObject({ credits: 20, personalOf: 'usr_alice' })
    expect(world.team('team_acme')).toMatchObject({ credits: 100, personalOf: null })
    expect(world.team('team_bob')).toMatchObject({ credits: 0, personalOf: 'usr_bob' })
    expect([...world.teamIdsOf('usr_alice')].sort()).toEqual(['team_acme', 'team_alice'])
    expect([...world.teamIdsOf('usr_bob')]).toEqual(['team_bob'])
  })

  it('gives Acme more than 20 projects (some published) and 3 templates', async () => {
    const world = await seeded()
    const acme = world.all('projects').filter((p) => p.teamId === 'team_acme')
    expect(acme.length).toBeGreaterThan(20)
    expect(acme.some((p) => p.publishedAt !== null)).toBe(true)
    expect(acme.some((p) => p.publishedAt === null)).toBe(true)
    expect(world.all('templates').filter((t) => t.teamId === 'team_acme')).toHaveLength(3)
  })

  it('shares one of Bob’s projects with Alice as collaborator', async () => {
    const world = await seeded()
    const shared = world.all('projects').filter((p) => p.collaborators.includes('usr_alice'))
    expect(shared.map((p) => [p.teamId, p.slug])).toEqual([['team_bob', 'bobs-roadmap']])
  })

  it('gives every project slides with all three files, a config, a subdomain and a version', async () => {
    const world = await seeded()
    for (const project of world.all('projects')) {
      const slides = world.slidesOf(project.id)
      expect(slides.length).toBeGreaterThan(0)
      for (const slide of slides) {
        expect(Object.keys(slide.files).sort()).toEqual(['slide.content.json', 'slide.controls.json', 'slide.tsx'])
        expect(() => JSON.parse(slide.files['slide.content.json'])).not.toThrow()
      }
      expect(project.config.theme).toBeDefined()
      expect(world.get('subdomains', project.subdomainId)).toBeDefined()
      expect(project.latestVersionId).not.toBeNull()
      if (project.publishedAt !== null) expect(world.publicationOf(project.id)).toBeDefined()
    }
  })
})

describe('fixtures files', () => {
  it('accepts the built-in file and fills defaults', () => {
    const doc = parseFixtures(BUILT_IN_FIXTURES)
    expect(doc.epoch).toBe('2026-01-01T00:00:00.000Z')
    expect(doc.teams.find((t) => t.id === 'team_alice')?.customSubdomains).toEqual([])
  })

  it.each([
    [{ apiKeys: [{ key: 'test_no_prefix', userId: 'usr_alice' }] }, 'apiKeys[0].key'],
    [{ apiKeys: [{ key: 'pres_x', userId: 'usr_nobody' }] }, 'apiKeys[0].userId: no user "usr_nobody"'],
    [
      { apiKeys: [{ key: 'pres_x', userId: 'usr_bob', teamId: 'team_acme' }] },
      'apiKeys[0].teamId: "usr_bob" is not a member of "team_acme"',
    ],
    [{ projects: [{ teamId: 'team_nope' }] }, 'projects[0].teamId: no team "team_nope"'],
    [{ projects: [{ teamId: 'team_acme', domain: 'other.example' }] }, 'projects[0].domain'],
    [{ projects: [{ teamId: 'team_acme', slug: 'Bad Slug' }] }, 'projects[0].slug'],
    [{ templates: [{ teamId: 'team_acme', name: 'x', slideCount: 0 }] }, 'templates[0].slideCount'],
    [{ format: 'something-else' }, 'format'],
    [{ users: 'nobody' }, 'users: must be an array'],
  ])('rejects a bad document naming the field (%#)', (patch, field) => {
    const doc = { ...structuredClone(BUILT_IN_FIXTURES), ...patch }
    expect(() => parseFixtures(doc, 'my-fixtures.json')).toThrow(FixturesError)
    expect(() => parseFixtures(doc, 'my-fixtures.json')).toThrow(field)
    expect(() => createEmulator({ fixtures: doc as never })).toThrow(FixturesError)
  })

  it('builds a custom world from a minimal file, generating what it leaves out', async () => {
    const fixtures = {
      format: 'presentation-emulator/fixtures@1',
      users: [{ id: 'u1', name: 'Uma' }],
      teams: [{ id: 't1', slug: 'uma', name: 'Uma', personalOf: 'u1', members: ['u1'], credits: 3 }],
      apiKeys: [{ key: 'pres_uma', userId: 'u1' }],
      projects: [{ teamId: 't1', count: 30, published: true }],
    }
    expect(safeParse(FixturesDocument, fixtures).success).toBe(true)
    const emulator = createEmulator({ fixtures: fixtures as never, clock: 'manual' })
    const reply = await emulator.fetch('http://127.0.0.1:4010/v1/projects?limit=100', { headers: { authorization: 'Bearer pres_uma' } })
    const body = (await reply.json()) as { projects: Array<{ publishedAt: string | null }> }
    expect(body.projects).toHaveLength(30)
    expect(body.projects.every((p) => p.publishedAt !== null)).toBe(true)
    expect(
      (await emulator.fetch('http://127.0.0.1:4010/v1/projects', { headers: { authorization: 'Bearer pres_test_alice' } })).status,
    ).toBe(401)
  })
})
