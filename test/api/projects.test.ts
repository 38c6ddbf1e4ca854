import { describe, expect, it } from 'vitest'
import {
  CreateProjectResponse,
  DuplicateProjectResponse,
  GetProjectConfigResponse,
  ListProjectsResponse,
  ListTeamsResponse,
  ListTemplatesResponse,
  ProjectDetail,
  ProjectUrlConfig,
  RenameProjectResponse,
} from '../../src/schemas/index.js'
import { expectError, expectSchema, harnessPerTest, WAYS } from '../support/harness.js'
import { worldOf } from '../support/state.js'

describe.each(WAYS)('projects, teams and templates (%s)', (way) => {
  const h = harnessPerTest(way)

  it('creates an empty project under the key’s team and returns its ids and editor URL', async () => {
    const created = await h.api('POST', '/projects', { key: 'pres_test_alice_acme', json: { name: 'Board update' } })
    expect(created.status).toBe(200)
    const body = expectSchema(CreateProjectResponse, created.body)
    expect(body.editorUrl).toMatch(new RegExp(`/editor/${body.projectSlug}$`))

    const detail = await h.api('GET', `/projects/${body.projectSlug}`, { key: 'pres_test_alice_acme' })
    const project = expectSchema(ProjectDetail, detail.body)
    expect(project).toMatchObject({ id: body.projectId, name: 'Board update', publishedAt: null, publishedUrl: null })
    expect(project.latestVersion?.id).toBe(body.projectVersionId)
    expect((await worldOf(h.emulator)).project(body.projectId)?.teamId).toBe('team_acme')
  })

  it('names a project created without a body "Untitled"', async () => {
    const created = await h.api('POST', '/projects')
    expect(created.status).toBe(200)
    const detail = await h.api('GET', `/projects/${created.body.projectSlug}`)
    expect(detail.body.name).toBe('Untitled')
  })

  it.each([
    ['', 400],
    ['a', 200],
    ['x'.repeat(200), 200],
    ['x'.repeat(201), 400],
  ])('validates the create name bounds (%#)', async (name, status) => {
    const reply = await h.api('POST', '/projects', { json: { name } })
    expect(reply.status).toBe(status)
    if (status === 400) {
      expectError(reply, 400, 'VALIDATION_ERROR')
      expect(reply.body.hint).toMatch(/^name: /)
    }
  })

  it('rejects a create body with an unknown key or a wrong type, creating nothing', async () => {
    const before = (await worldOf(h.emulator)).recordsText()
    const unknown = await h.api('POST', '/projects', { json: { title: 'x' } })
    expectError(unknown, 400, 'VALIDATION_ERROR')
    expect(unknown.body.hint).toContain('unknown key "title"')
    const wrongType = await h.api('POST', '/projects', { json: { name: 42 } })
    expectError(wrongType, 400, 'VALIDATION_ERROR')
    expect(wrongType.body.hint).toBe('name: must be a string, got a number')
    expect((await worldOf(h.emulator)).recordsText()).toBe(before)
  })

  it('lists accessible projects newest first with the default page size of 20', async () => {
    const reply = await h.api('GET', '/projects')
    expect(reply.status).toBe(200)
    const page = expectSchema(ListProjectsResponse, reply.body)
    expect(page.projects).toHaveLength(20)
    expect(page.nextCursor).toBeTypeOf('string')
    const times = page.projects.map((p) => p.updatedAt)
    expect([...times].sort().reverse()).toEqual(times)
  })

  it('filters the list by published=true and published=false', async () => {
    const published = await h.api('GET', '/projects?published=true&limit=100')
    const unpublished = await h.api('GET', '/projects?published=false&limit=100')
    const all = await h.api('GET', '/projects?limit=100')
    expect(published.body.projects.length).toBeGreaterThan(0)
    expect(unpublished.body.projects.length).toBeGreaterThan(0)
    expect(published.body.projects.every((p: any) => p.publishedAt !== null)).toBe(true)
    expect(unpublished.body.projects.every((p: any) => p.publishedAt === null)).toBe(true)
    expect(published.body.projects.length + unpublished.body.projects.length).toBe(all.body.projects.length)
  })

  it.each([
    ['limit=0', 400],
    ['limit=1', 200],
    ['limit=100', 200],
    ['limit=101', 400],
    ['limit=1.5', 400],
    ['limit=ten', 400],
    ['published=yes', 400],
    ['published=true', 200],
    ['cursor=not-a-cursor', 400],
    ['limit=1&limit=2', 400],
  ])('validates the list query %s', async (query, status) => {
    const reply = await h.api('GET', `/projects?${query}`)
    expect(reply.status).toBe(status)
    if (status === 400) expectError(reply, 400, 'VALIDATION_ERROR')
  })

  it('reads a project, and reports an inaccessible one exactly like a missing one', async () => {
    const own = await h.api('GET', '/projects/welcome-deck')
    expectSchema(ProjectDetail, own.body)
    expect(own.body.publishedUrl).toMatch(/\/sites\/welcome-deck\.sites\.localhost\/$/)

    const othersTeam = await h.api('GET', '/projects/welcome-deck', { key: 'pres_test_bob' })
    const missing = await h.api('GET', '/projects/no-such-project', { key: 'pres_test_bob' })
    expectError(othersTeam, 404, 'NOT_FOUND')
    expectError(missing, 404, 'NOT_FOUND')
    expect(othersTeam.body.error).toBe(missing.body.error)
  })

  it('lets a collaborator read a project shared with them, and never shows Acme’s projects to Bob', async () => {
    const shared = await h.api('GET', '/projects/bobs-roadmap', { key: 'pres_test_alice' })
    expect(shared.status).toBe(200)
    const bobs = await h.api('GET', '/projects?limit=100', { key: 'pres_test_bob' })
    const world = await worldOf(h.emulator)
    const teams = bobs.body.projects.map((p: any) => world.project(p.id)!.teamId)
    expect(new Set(teams)).toEqual(new Set(['team_bob']))
    const acme = await h.api('GET', '/projects/q3-business-review', { key: 'pres_test_bob' })
    expectError(acme, 404, 'NOT_FOUND')
  })

  it('renames a project keeping its slug and URLs, and moves updatedAt', async () => {
    const before = (await h.api('GET', '/projects/welcome-deck')).body
    await h.emulator.control.advanceClock({ ms: 1000 })
    const renamed = await h.api('PATCH', '/projects/welcome-deck', { json: { name: 'Hello again' } })
    expect(expectSchema(RenameProjectResponse, renamed.body)).toEqual({ success: true, name: 'Hello again' })
    const after = (await h.api('GET', '/projects/welcome-deck')).body
    expect(after).toMatchObject({ slug: before.slug, editorUrl: before.editorUrl, publishedUrl: before.publishedUrl, name: 'Hello again' })
    expect(after.updatedAt > before.updatedAt).toBe(true)
  })

  it.each([
    ['', 400],
    ['x'.repeat(191), 200],
    ['x'.repeat(192), 400],
  ])('validates the rename bounds (%#) and changes nothing on error', async (name, status) => {
    const reply = await h.api('PATCH', '/projects/welcome-deck', { json: { name } })
    expect(reply.status).toBe(status)
    const after = await h.api('GET', '/projects/welcome-deck')
    expect(after.body.name).toBe(status === 200 ? name : 'Welcome deck')
  })

  it('answers 400 to a rename without a body and 404 to renaming another team’s project', async () => {
    expectError(await h.api('PATCH', '/projects/welcome-deck'), 400, 'VALIDATION_ERROR')
    expectError(await h.api('PATCH', '/projects/welcome-deck', { key: 'pres_test_bob', json: { name: 'Mine' } }), 404, 'NOT_FOUND')
    expect((await h.api('GET', '/projects/welcome-deck')).body.name).toBe('Welcome deck')
  })

  it('duplicates a project with its slides and config under a new slug and a fresh unpublished URL', async () => {
    const source = (await h.api('GET', '/projects/welcome-deck')).body
    const reply = await h.api('POST', '/projects/welcome-deck/duplicate')
    const copy = expectSchema(DuplicateProjectResponse, reply.body)
    expect(copy.name).toBe('Welcome deck (copy)')
    expect(copy.projectSlug).not.toBe('welcome-deck')

    const detail = expectSchema(ProjectDetail, (await h.api('GET', `/projects/${copy.projectSlug}`)).body)
    expect(detail.publishedAt).toBeNull()
    expect(detail.publishedUrl).toBeNull()
    expect(detail.latestVersion).not.toBeNull()

    const world = await worldOf(h.emulator)
    const sourceSlides = world.slidesOf(source.id)
    const copySlides = world.slidesOf(copy.projectId)
    expect(copySlides.map((s) => s.files)).toEqual(sourceSlides.map((s) => s.files))
    expect(copySlides.map((s) => s.id)).not.toEqual(sourceSlides.map((s) => s.id))
    const url = expectSchema(ProjectUrlConfig, (await h.api('GET', `/projects/${copy.projectSlug}/url`)).body)
    const sourceUrl = (await h.api('GET', '/projects/welcome-deck/url')).body
    expect(url.current.hostname).not.toBe(sourceUrl.current.hostname)
    const configs = await Promise.all([h.api('GET', '/projects/welcome-deck/config'), h.api('GET', `/projects/${copy.projectSlug}/config`)])
    expect(configs[1].body).toEqual(configs[0].body)
  })

  it('puts a duplicate of a shared project in the key’s own team', async () => {
    const reply = await h.api('POST', '/projects/bobs-roadmap/duplicate', { key: 'pres_test_alice' })
    expect(reply.status).toBe(200)
    expect((await worldOf(h.emulator)).project(reply.body.projectId)?.teamId).toBe('team_alice')
  })

  it('answers the URL configuration of a custom-domain project consistently with its publishedUrl', async () => {
    const url = expectSchema(
      ProjectUrlConfig,
      (await h.api('GET', '/projects/q3-business-review/url', { key: 'pres_test_alice_acme' })).body,
    )
    expect(url.current).toMatchObject({ type: 'domain', hostname: 'decks.acme.example', path: '/q3-business-review' })
    expect(url.availableDomains.map((d) => d.hostname)).toEqual(['decks.acme.example'])
    expect(url.availableSubdomains.some((s) => s.isCustom && s.subdomain === 'acme')).toBe(true)
    const detail = (await h.api('GET', '/projects/q3-business-review', { key: 'pres_test_alice_acme' })).body
    expect(detail.publishedUrl).toBe(`${new URL(h.baseUrl).origin}/sites/decks.acme.example/q3-business-review`)
  })

  it('lists the owner’s teams with the personal one marked', async () => {
    const reply = expectSchema(ListTeamsResponse, (await h.api('GET', '/teams')).body)
    expect(reply.teams).toEqual([
      { id: 'team_alice', slug: 'alice', name: 'Alice Anderson', isPersonal: true },
      { id: 'team_acme', slug: 'acme', name: 'Acme', isPersonal: false },
    ])
    const bob = expectSchema(ListTeamsResponse, (await h.api('GET', '/teams', { key: 'pres_test_bob' })).body)
    expect(bob.teams.map((t) => t.id)).toEqual(['team_bob'])
  })

  it('lists the templates of the key’s team only, paginated', async () => {
    const acme = expectSchema(ListTemplatesResponse, (await h.api('GET', '/projects/templates', { key: 'pres_test_alice_acme' })).body)
    expect(acme.templates.map((t) => t.name).sort()).toEqual(['Pitch deck', 'Product launch', 'Quarterly review'])
    expect(acme.nextCursor).toBeUndefined()
    const personal = (await h.api('GET', '/projects/templates', { key: 'pres_test_alice' })).body
    expect(personal.templates).toEqual([])

    const first = (await h.api('GET', '/projects/templates?limit=2', { key: 'pres_test_alice_acme' })).body
    expect(first.templates).toHaveLength(2)
    const second = (await h.api('GET', `/projects/templates?limit=2&cursor=${first.nextCursor}`, { key: 'pres_test_alice_acme' })).body
    expect(second.templates).toHaveLength(1)
    expect(second.nextCursor).toBeUndefined()
    expect([...first.templates, ...second.templates]).toEqual(acme.templates)
  })

  it('rejects a templates query out of range and a projects cursor on the templates list', async () => {
    expectError(await h.api('GET', '/projects/templates?limit=0', { key: 'pres_test_alice_acme' }), 400, 'VALIDATION_ERROR')
    expectError(await h.api('GET', '/projects/templates?limit=101', { key: 'pres_test_alice_acme' }), 400, 'VALIDATION_ERROR')
    const projects = (await h.api('GET', '/projects?limit=1')).body
    const reply = await h.api('GET', `/projects/templates?cursor=${projects.nextCursor}`, { key: 'pres_test_alice_acme' })
    expectError(reply, 400, 'VALIDATION_ERROR')
    expect(reply.body.hint).toMatch(/^cursor: /)
  })

  it('reads a project’s config', async () => {
    const reply = expectSchema(GetProjectConfigResponse, (await h.api('GET', '/projects/welcome-deck/config')).body)
    expect(reply.config.theme?.colors.default.background).toBeTypeOf('string')
    expectError(await h.api('GET', '/projects/welcome-deck/config', { key: 'pres_test_bob' }), 404, 'NOT_FOUND')
  })
})
