import { describe, expect, it } from 'vitest'
import { CreateAccountResponse, CreateKeyResponse, CreateTeamResponse } from '../../src/control/schemas.js'
import { DEFAULT_ACCOUNT_CREDITS } from '../../src/control/control-plane.js'
import { ListProjectsResponse, ListTeamsResponse } from '../../src/schemas/index.js'
import { expectError, expectSchema, harnessPerTest, WAYS } from '../support/harness.js'
import { worldOf } from '../support/state.js'
import { createAccount, creditsOf, expectBadInput, expectUnknown, generate, rejection, stateText } from './support.js'

describe.each(WAYS)('control plane: accounts, teams and keys (%s)', (way) => {
  const h = harnessPerTest(way, { rateLimit: 5 })

  describe('accounts', () => {
    it('creates an account with its own user, personal team and a working key', async () => {
      const reply = await h.control('POST', '/accounts', { json: { name: 'Worker 1' } })
      expect(reply.status).toBe(201)
      const account = expectSchema(CreateAccountResponse, reply.body)
      expect(account.apiKey).toMatch(/^pres_/)

      const teams = await h.api('GET', '/teams', { key: account.apiKey })
      expect(teams.status).toBe(200)
      expect(expectSchema(ListTeamsResponse, teams.body).teams).toEqual([
        { id: account.teamId, slug: expect.any(String), name: 'Worker 1', isPersonal: true },
      ])
      const projects = await h.api('GET', '/projects', { key: account.apiKey })
      expect(expectSchema(ListProjectsResponse, projects.body).projects).toEqual([])
      expect(await creditsOf(h, account.teamId)).toBe(DEFAULT_ACCOUNT_CREDITS)
    })

    it('creates an account without a body, and with the credits asked for', async () => {
      const bare = await h.control('POST', '/accounts')
      expect(bare.status).toBe(201)
      expect(await creditsOf(h, bare.body.teamId)).toBe(DEFAULT_ACCOUNT_CREDITS)
      const rich = await createAccount(h, { credits: 3 })
      expect(await creditsOf(h, rich.teamId)).toBe(3)
      expect(rich.userId).not.toBe(bare.body.userId)
      expect(rich.apiKey).not.toBe(bare.body.apiKey)
    })

    it.each([
      [{ credits: -1 }, /^credits: must be at least 0/],
      [{ credits: 1.5 }, /^credits: /],
      [{ credits: '5' }, /^credits: must be a number, got a string/],
      [{ name: '' }, /^name: must not be empty/],
      [{ team: 'x' }, /unknown key "team"/],
    ])('rejects account input %j with 400 and creates nothing', async (json, hint) => {
      const before = await stateText(h)
      expectBadInput(await h.control('POST', '/accounts', { json }), hint)
      expect(await stateText(h)).toBe(before)
    })

    it('keeps two accounts created in parallel apart: projects, jobs, credits and rate windows', async () => {
      const [a, b] = await Promise.all([createAccount(h, { credits: 2 }), createAccount(h, { credits: 2 })])
      expect(a!.teamId).not.toBe(b!.teamId)
      const [projectA, projectB] = await Promise.all([
        h.api('POST', '/projects', { key: a!.apiKey, json: { name: 'A only' } }),
        h.api('POST', '/projects', { key: b!.apiKey, json: { name: 'B only' } }),
      ])
      const job = await generate(h, a!.apiKey)

      // Projects and jobs: each sees its own, never the other's.
      const listA = await h.api('GET', '/projects', { key: a!.apiKey })
      const listB = await h.api('GET', '/projects', { key: b!.apiKey })
      expect(listA.body.projects.map((p: { name: string }) => p.name).sort()).toEqual(['A deck about otters', 'A only'])
      expect(listB.body.projects.map((p: { name: string }) => p.name)).toEqual(['B only'])
      expectError(await h.api('GET', `/projects/${projectA.body.projectSlug}`, { key: b!.apiKey }), 404, 'NOT_FOUND')
      expectError(await h.api('GET', `/projects/${projectB.body.projectSlug}`, { key: a!.apiKey }), 404, 'NOT_FOUND')
      expectError(await h.api('GET', `/projects/jobs/${job.jobId}`, { key: b!.apiKey }), 404, 'NOT_FOUND')
      // Neither sees the seeded world either.
      expectError(await h.api('GET', '/projects/welcome-deck', { key: a!.apiKey }), 404, 'NOT_FOUND')

      // Credits: A's generation charged A only.
      expect(await creditsOf(h, a!.teamId)).toBe(1)
      expect(await creditsOf(h, b!.teamId)).toBe(2)

      // Rate windows (5 a minute): A has used its 5 requests, B only 4 of its own.
      expectError(await h.api('GET', '/teams', { key: a!.apiKey }), 429, 'RATE_LIMITED')
      const lastOfB = await h.api('GET', '/teams', { key: b!.apiKey })
      expect(lastOfB.status).toBe(200)
      expect(lastOfB.headers['x-ratelimit-remaining']).toBe('0')
      expectError(await h.api('GET', '/teams', { key: b!.apiKey }), 429, 'RATE_LIMITED')
    })
  })

  describe('teams', () => {
    it('creates a shared team whose members see its projects', async () => {
      const a = await createAccount(h)
      const b = await createAccount(h)
      const reply = await h.control('POST', '/teams', { json: { name: 'Guild', memberUserIds: [a.userId, b.userId], credits: 4 } })
      expect(reply.status).toBe(201)
      const team = expectSchema(CreateTeamResponse, reply.body)
      expect(team.slug).toBe('guild')
      expect(await creditsOf(h, team.teamId)).toBe(4)

      const teamsOfB = await h.api('GET', '/teams', { key: b.apiKey })
      expect(teamsOfB.body.teams).toContainEqual({ id: team.teamId, slug: 'guild', name: 'Guild', isPersonal: false })

      const key = await h.control('POST', '/keys', { json: { userId: a.userId, teamId: team.teamId } })
      const created = await h.api('POST', '/projects', { key: key.body.apiKey, json: { name: 'Guild deck' } })
      expect((await h.api('GET', `/projects/${created.body.projectSlug}`, { key: b.apiKey })).status).toBe(200)
    })

    it('gives a second team of the same name its own slug', async () => {
      const a = await createAccount(h)
      const first = await h.control('POST', '/teams', { json: { name: 'Same', memberUserIds: [a.userId] } })
      const second = await h.control('POST', '/teams', { json: { name: 'Same', memberUserIds: [a.userId] } })
      expect(first.body.slug).toBe('same')
      expect(second.body.slug).not.toBe('same')
      expect(second.body.slug).toMatch(/^same-/)
    })

    it.each([
      [{ memberUserIds: ['usr_alice'] }, /^name: is required/],
      [{ name: 'X', memberUserIds: [] }, /^memberUserIds: must have at least 1 item/],
      [{ name: 'X', memberUserIds: 'usr_alice' }, /^memberUserIds: must be an array/],
      [{ name: 'X', memberUserIds: ['usr_alice'], credits: -5 }, /^credits: /],
    ])('rejects team input %j with 400 and creates nothing', async (json, hint) => {
      const before = await stateText(h)
      expectBadInput(await h.control('POST', '/teams', { json }), hint)
      expect(await stateText(h)).toBe(before)
    })

    it('answers 404 for a team with an unknown member, creating nothing', async () => {
      const before = await stateText(h)
      expectUnknown(await h.control('POST', '/teams', { json: { name: 'X', memberUserIds: ['usr_alice', 'usr_nobody'] } }))
      expect(await stateText(h)).toBe(before)
    })
  })

  describe('keys', () => {
    it('creates a key scoped to the user’s personal team by default', async () => {
      const reply = await h.control('POST', '/keys', { json: { userId: 'usr_bob', name: 'CI' } })
      expect(reply.status).toBe(201)
      const key = expectSchema(CreateKeyResponse, reply.body)
      const created = await h.api('POST', '/projects', { key: key.apiKey })
      expect(created.status).toBe(200)
      expect((await worldOf(h.emulator)).project(created.body.projectId)?.teamId).toBe('team_bob')
    })

    it('creates a key scoped to another team of the user', async () => {
      const key = await h.control('POST', '/keys', { json: { userId: 'usr_alice', teamId: 'team_acme' } })
      expect(key.status).toBe(201)
      const templates = await h.api('GET', '/projects/templates', { key: key.body.apiKey })
      expect(templates.body.templates).toHaveLength(3)
    })

    it('answers 400 to a key for a team the user is not a member of, creating nothing', async () => {
      const before = await stateText(h)
      expectBadInput(await h.control('POST', '/keys', { json: { userId: 'usr_bob', teamId: 'team_acme' } }), /not a member/)
      expect(await stateText(h)).toBe(before)
    })

    it.each([
      [{}, /^userId: is required/],
      [{ userId: 42 }, /^userId: must be a string/],
      [{ userId: 'usr_bob', name: '' }, /^name: must not be empty/],
      [{ userId: 'usr_bob', scope: 'all' }, /unknown key "scope"/],
    ])('rejects key input %j with 400', async (json, hint) => {
      const before = await stateText(h)
      expectBadInput(await h.control('POST', '/keys', { json }), hint)
      expect(await stateText(h)).toBe(before)
    })

    it('answers 404 for a key of an unknown user or team', async () => {
      expectUnknown(await h.control('POST', '/keys', { json: { userId: 'usr_nobody' } }))
      expectUnknown(await h.control('POST', '/keys', { json: { userId: 'usr_alice', teamId: 'team_nobody' } }))
    })

    it('revokes a key at once: the next request with it is 401, other keys keep working', async () => {
      const account = await createAccount(h)
      const second = await h.control('POST', '/keys', { json: { userId: account.userId } })
      expect((await h.api('GET', '/teams', { key: account.apiKey })).status).toBe(200)

      const revoked = await h.control('DELETE', `/keys/${account.keyId}`)
      expect(revoked.status).toBe(200)
      expect(revoked.body).toEqual({ keyId: account.keyId, revokedAt: '2026-01-01T00:00:00.000Z' })

      const refused = await h.api('GET', '/teams', { key: account.apiKey })
      expectError(refused, 401, 'UNAUTHORIZED')
      expect(refused.body.hint).toMatch(/revoked/)
      expect((await h.api('GET', '/teams', { key: second.body.apiKey })).status).toBe(200)
    })

    it('revokes a fixture key', async () => {
      expect((await h.control('DELETE', '/keys/key_alice_acme')).status).toBe(200)
      expectError(await h.api('GET', '/projects', { key: 'pres_test_alice_acme' }), 401, 'UNAUTHORIZED')
      expect((await h.api('GET', '/projects', { key: 'pres_test_alice' })).status).toBe(200)
    })

    it('keeps the first revocation time when a key is revoked again', async () => {
      const first = await h.control('DELETE', '/keys/key_bob')
      await h.control('POST', '/clock/advance', { json: { ms: 1_000 } })
      const again = await h.control('DELETE', '/keys/key_bob')
      expect(again.status).toBe(200)
      expect(again.body.revokedAt).toBe(first.body.revokedAt)
    })

    it('answers 404 to revoking an unknown key', async () => {
      expectUnknown(await h.control('DELETE', '/keys/key_nobody'))
    })
  })
})

describe('control plane in process: accounts, teams and keys', () => {
  const h = harnessPerTest('fetch')

  it('creates an account whose key works over the API', async () => {
    const account = await h.emulator.control.createAccount({ name: 'In process', credits: 1 })
    expect(CreateAccountResponse.parse(account)).toEqual(account)
    const teams = await h.api('GET', '/teams', { key: account.apiKey })
    expect(teams.body.teams).toEqual([{ id: account.teamId, slug: 'in-process', name: 'In process', isPersonal: true }])
  })

  it('keeps accounts created in parallel apart', async () => {
    const accounts = await Promise.all(Array.from({ length: 8 }, () => h.emulator.control.createAccount()))
    expect(new Set(accounts.map((a) => a.userId)).size).toBe(8)
    expect(new Set(accounts.map((a) => a.teamId)).size).toBe(8)
    expect(new Set(accounts.map((a) => a.apiKey)).size).toBe(8)
    const world = await worldOf(h.emulator)
    for (const account of accounts) expect(world.teamIdsOf(account.userId)).toEqual([account.teamId])
  })

  it('throws a 400 ServiceError for bad input and a 404 for unknown ids', async () => {
    const control = h.emulator.control
    expect(await rejection(() => control.createAccount({ credits: -1 }))).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' })
    expect(await rejection(() => control.createTeam({ name: 'X', memberUserIds: ['usr_nobody'] }))).toMatchObject({ status: 404 })
    expect(await rejection(() => control.createKey({ userId: 'usr_bob', teamId: 'team_acme' }))).toMatchObject({ status: 400 })
    expect(await rejection(() => control.revokeKey('key_nobody'))).toMatchObject({ status: 404, code: 'NOT_FOUND' })
  })

  it('revokes a key so that the very next request is 401', async () => {
    const control = h.emulator.control
    const key = await control.createKey({ userId: 'usr_alice' })
    expect((await h.api('GET', '/teams', { key: key.apiKey })).status).toBe(200)
    await control.revokeKey(key.keyId)
    expectError(await h.api('GET', '/teams', { key: key.apiKey }), 401, 'UNAUTHORIZED')
  })
})
