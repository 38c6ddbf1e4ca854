import { describe, expect, it } from 'vitest'
import { CreateTemplateResponse, SetCreditsResponse } from '../../src/control/schemas.js'
import { ListTemplatesResponse } from '../../src/schemas/index.js'
import { expectError, expectSchema, harnessPerTest, WAYS } from '../support/harness.js'
import { worldOf } from '../support/state.js'
import { createAccount, creditsOf, expectBadInput, expectUnknown, generate, rejection, stateText } from './support.js'

describe.each(WAYS)('control plane: credits, templates and collaborators (%s)', (way) => {
  const h = harnessPerTest(way)

  describe('credits', () => {
    it('lets a team without credits generate once credits are set', async () => {
      const refused = await h.api('POST', '/projects/generate', { key: 'pres_test_bob', json: { prompt: 'Roadmap' } })
      expectError(refused, 402, 'INSUFFICIENT_CREDITS')

      const reply = await h.control('PUT', '/teams/team_bob/credits', { json: { credits: 2 } })
      expect(reply.status).toBe(200)
      expect(expectSchema(SetCreditsResponse, reply.body)).toEqual({ teamId: 'team_bob', credits: 2 })

      await generate(h, 'pres_test_bob', { prompt: 'Roadmap' })
      expect(await creditsOf(h, 'team_bob')).toBe(1)
    })

    it('takes a team’s credits to 0 so that generate answers 402', async () => {
      const account = await createAccount(h)
      await h.control('PUT', `/teams/${account.teamId}/credits`, { json: { credits: 0 } })
      expectError(await h.api('POST', '/projects/generate', { key: account.apiKey, json: { prompt: 'x' } }), 402, 'INSUFFICIENT_CREDITS')
    })

    it.each([
      [{ credits: -1 }, /^credits: must be at least 0/],
      [{ credits: 2.5 }, /^credits: /],
      [{ credits: '3' }, /^credits: must be a number/],
      [{}, /^credits: is required/],
      [{ credits: 3, extra: true }, /unknown key "extra"/],
    ])('rejects credits %j with 400 and changes nothing', async (json, hint) => {
      expectBadInput(await h.control('PUT', '/teams/team_bob/credits', { json }), hint)
      expect(await creditsOf(h, 'team_bob')).toBe(0)
    })

    it('answers 404 for the credits of an unknown team', async () => {
      expectUnknown(await h.control('PUT', '/teams/team_nobody/credits', { json: { credits: 1 } }))
    })
  })

  describe('templates', () => {
    it('adds a template that the team’s key lists and can generate from', async () => {
      const account = await createAccount(h)
      const reply = await h.control('POST', '/templates', { json: { teamId: account.teamId, name: 'House style', slideCount: 3 } })
      expect(reply.status).toBe(201)
      const { templateId } = expectSchema(CreateTemplateResponse, reply.body)

      const list = await h.api('GET', '/projects/templates', { key: account.apiKey })
      const templates = expectSchema(ListTemplatesResponse, list.body).templates
      expect(templates).toEqual([{ id: templateId, name: 'House style', screenshotUrl: null, updatedAt: '2026-01-01T00:00:00.000Z' }])

      const job = await generate(h, account.apiKey, { prompt: 'Quarterly numbers', templateId })
      expect(job.templateId).toBe(templateId)
      expect(job.estimatedDuration).toBe('120 seconds')
      await h.control('POST', `/jobs/${job.jobId}/complete`)
      const slides = (await worldOf(h.emulator)).slidesOf(job.projectId)
      expect(slides).toHaveLength(3)
    })

    it('makes five slides when no slideCount is given', async () => {
      const reply = await h.control('POST', '/templates', { json: { teamId: 'team_alice', name: 'Plain' } })
      expect((await worldOf(h.emulator)).template(reply.body.templateId)?.slides).toHaveLength(5)
    })

    it('keeps a new template out of other teams: their keys neither list it nor generate from it', async () => {
      const reply = await h.control('POST', '/templates', { json: { teamId: 'team_alice', name: 'Private' } })
      const acme = await h.api('GET', '/projects/templates', { key: 'pres_test_alice_acme' })
      expect(acme.body.templates.map((t: { id: string }) => t.id)).not.toContain(reply.body.templateId)
      const refused = await h.api('POST', '/projects/generate', {
        key: 'pres_test_alice_acme',
        json: { prompt: 'x', templateId: reply.body.templateId },
      })
      expectError(refused, 404, 'NOT_FOUND')
    })

    it.each([
      [{ teamId: 'team_alice' }, /^name: is required/],
      [{ name: 'X' }, /^teamId: is required/],
      [{ teamId: 'team_alice', name: 'X', slideCount: 0 }, /^slideCount: must be at least 1/],
      [{ teamId: 'team_alice', name: 'X', slideCount: 51 }, /^slideCount: must be at most 50/],
      [{ teamId: 'team_alice', name: 'X', screenshot: 'y' }, /unknown key "screenshot"/],
    ])('rejects template input %j with 400 and creates nothing', async (json, hint) => {
      const before = await stateText(h)
      expectBadInput(await h.control('POST', '/templates', { json }), hint)
      expect(await stateText(h)).toBe(before)
    })

    it('answers 404 for a template of an unknown team', async () => {
      expectUnknown(await h.control('POST', '/templates', { json: { teamId: 'team_nobody', name: 'X' } }))
    })
  })

  describe('collaborators', () => {
    it('shares a project with a user so that the user’s key can read it and lists it', async () => {
      const account = await createAccount(h)
      expectError(await h.api('GET', '/projects/welcome-deck', { key: account.apiKey }), 404, 'NOT_FOUND')

      const reply = await h.control('POST', '/projects/welcome-deck/collaborators', { json: { userId: account.userId } })
      expect(reply.status).toBe(200)
      expect(reply.body).toEqual({ projectId: expect.any(String), slug: 'welcome-deck', collaborators: [account.userId] })

      const read = await h.api('GET', '/projects/welcome-deck', { key: account.apiKey })
      expect(read.status).toBe(200)
      const list = await h.api('GET', '/projects', { key: account.apiKey })
      expect(list.body.projects.map((p: { slug: string }) => p.slug)).toEqual(['welcome-deck'])
    })

    it('adds a collaborator only once', async () => {
      await h.control('POST', '/projects/bobs-roadmap/collaborators', { json: { userId: 'usr_alice' } })
      const again = await h.control('POST', '/projects/bobs-roadmap/collaborators', { json: { userId: 'usr_alice' } })
      expect(again.body.collaborators).toEqual(['usr_alice'])
    })

    it('answers 404 for an unknown project or user, and 400 without a userId', async () => {
      expectUnknown(await h.control('POST', '/projects/no-such-deck/collaborators', { json: { userId: 'usr_bob' } }))
      expectUnknown(await h.control('POST', '/projects/welcome-deck/collaborators', { json: { userId: 'usr_nobody' } }))
      const before = await stateText(h)
      expectBadInput(await h.control('POST', '/projects/welcome-deck/collaborators', { json: {} }), /^userId: is required/)
      expect(await stateText(h)).toBe(before)
    })
  })
})

describe('control plane in process: credits, templates and collaborators', () => {
  const h = harnessPerTest('fetch')

  it('sets credits, adds a template and a collaborator, each visible over the API', async () => {
    const control = h.emulator.control
    const account = await control.createAccount({ credits: 0 })
    expectError(await h.api('POST', '/projects/generate', { key: account.apiKey, json: { prompt: 'x' } }), 402, 'INSUFFICIENT_CREDITS')
    expect(await control.setCredits(account.teamId, { credits: 1 })).toEqual({ teamId: account.teamId, credits: 1 })

    const { templateId } = await control.createTemplate({ teamId: account.teamId, name: 'Mine', slideCount: 2 })
    const job = await generate(h, account.apiKey, { prompt: 'Launch', templateId })
    expect(job.templateId).toBe(templateId)

    await control.addCollaborator('welcome-deck', { userId: account.userId })
    expect((await h.api('GET', '/projects/welcome-deck', { key: account.apiKey })).status).toBe(200)
  })

  it('throws a 400 ServiceError for bad input and a 404 for unknown ids', async () => {
    const control = h.emulator.control
    expect(await rejection(() => control.setCredits('team_bob', { credits: -1 }))).toMatchObject({ status: 400 })
    expect(await rejection(() => control.setCredits('team_nobody', { credits: 1 }))).toMatchObject({ status: 404 })
    expect(await rejection(() => control.createTemplate({ teamId: 'team_bob', name: '' }))).toMatchObject({ status: 400 })
    expect(await rejection(() => control.createTemplate({ teamId: 'team_nobody', name: 'X' }))).toMatchObject({ status: 404 })
    expect(await rejection(() => control.addCollaborator('nope', { userId: 'usr_bob' }))).toMatchObject({ status: 404 })
  })
})
