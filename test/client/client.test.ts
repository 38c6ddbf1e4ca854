import { beforeEach, describe, expect, expectTypeOf, it } from 'vitest'
import {
  createClient,
  createControlClient,
  JobTimeoutError,
  paginate,
  ServiceApiError,
  type OperationId,
  type PresentationClient,
  type ProjectConfigInput,
} from '../../src/client/index.js'
import { createEmulator, type PresentationEmulator } from '../../src/index.js'
import { OPERATION_IDS, operations } from '../../src/schemas/index.js'
import { expectSchema } from '../support/harness.js'

const BASE = 'http://127.0.0.1:4010/v1'

describe('the typed client', () => {
  let emulator: PresentationEmulator
  let client: PresentationClient
  let acme: PresentationClient
  let slept: number[]

  beforeEach(async () => {
    emulator = createEmulator({ clock: 'manual', rateLimit: 0, validateResponses: true })
    await emulator.ready()
    slept = []
    // Waiting moves the emulator's clock instead of real time.
    const sleep = async (ms: number) => {
      slept.push(ms)
      await emulator.control.advanceClock({ ms: Math.round(ms) })
    }
    client = createClient({ baseUrl: BASE, apiKey: 'pres_test_alice', fetch: emulator.fetch, sleep })
    acme = createClient({ baseUrl: BASE, apiKey: 'pres_test_alice_acme', fetch: emulator.fetch, sleep })
  })

  it('has a method for every operation of the table, and nothing else is missing', () => {
    for (const id of OPERATION_IDS) expect(typeof client[id], id).toBe('function')
    expectTypeOf<OperationId>().toMatchTypeOf<keyof PresentationClient>()
  })

  it('calls every operation through emulator.fetch and returns bodies that match the response schemas', async () => {
    const { slug } = { slug: 'welcome-deck' }
    expectSchema(operations.listTeams.response, await client.listTeams())
    expectSchema(operations.listProjects.response, await client.listProjects({ limit: 5, published: true }))
    expectSchema(operations.listTemplates.response, await acme.listTemplates({ limit: 2 }))
    expectSchema(operations.getProject.response, await client.getProject(slug))
    expectSchema(operations.getProjectConfig.response, await client.getProjectConfig(slug))
    expectSchema(operations.getProjectUrl.response, await client.getProjectUrl(slug))
    const created = expectSchema(operations.createProject.response, await client.createProject({ name: 'Client test' }))
    expectSchema(operations.createProject.response, await client.createProject())
    const renamed = await client.renameProject(created.projectSlug, { name: 'Renamed' })
    expect(renamed).toEqual({ success: true, name: 'Renamed' })
    // Server defaults are optional in the input types: `fonts` is left out here.
    const config: ProjectConfigInput = { tokens: { palette: [{ name: '--brand', value: '#123456' }] } }
    const merged = await client.updateProjectConfig(created.projectSlug, { config })
    expect(merged.config.tokens?.fonts).toEqual([])
    const dup = expectSchema(operations.duplicateProject.response, await client.duplicateProject(created.projectSlug))
    expect(dup.projectSlug).not.toBe(created.projectSlug)
    expect((await client.publishProject(created.projectSlug)).published).toBe(true)
    expect((await client.unpublishProject(created.projectSlug)).published).toBe(false)
    const slide = await client.createSlide(created.projectSlug, { name: 'First' })
    expect((await client.listSlides(created.projectSlug)).slides.map((s) => s.id)).toEqual([slide.slideId])
    expectSchema(operations.getSlideGuide.response, await client.getSlideGuide(created.projectSlug))
    const updated = await client.updateSlide(created.projectSlug, slide.slideId, {
      files: { 'slide.content.json': '{"title":"x","blocks":[]}' },
    })
    expect(updated.files['slide.content.json']).toBe('{"title":"x","blocks":[]}')
    expect(await client.startSlideEditing(created.projectSlug, slide.slideId, { agentName: 'Bot' })).toEqual({ success: true })
    expect(await client.stopSlideEditing(created.projectSlug, slide.slideId)).toEqual({ success: true })
    const job = await acme.generateProject({ prompt: 'Client deck', templateId: 'tpl_acme_pitch' })
    expectSchema(operations.generateProject.response, job)
    expectSchema(operations.getJobStatus.response, await acme.getJobStatus(job.jobId))
  })

  it('percent-encodes path parameters', async () => {
    const error = await client.getProject('a b/c?d').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ServiceApiError)
    const [entry] = emulator.control.listRequests({ limit: 1 }).requests
    expect(entry!.path).toBe('/v1/projects/a%20b%2Fc%3Fd')
  })

  it('throws a ServiceApiError with status, body, X-Service-Error-Code and rate-limit headers', async () => {
    const limited = createEmulator({ clock: 'manual', rateLimit: 1 })
    const c = createClient({ baseUrl: BASE, apiKey: 'pres_test_alice', fetch: limited.fetch })
    await c.listTeams()
    const error = (await c.listTeams().catch((e: unknown) => e)) as ServiceApiError
    expect(error).toBeInstanceOf(ServiceApiError)
    expect(error).toMatchObject({ operationId: 'listTeams', status: 429, code: 'RATE_LIMITED', error: 'Rate limit exceeded' })
    expect(error.rateLimit).toMatchObject({ limit: 1, remaining: 0 })
    // On the manual clock the emulator says "retry now" (a date in the past): 0 seconds.
    expect(error.rateLimit.retryAfterSeconds).toBe(0)
    expect(error.rateLimit.reset).toMatch(/^\d+$/)
    expect(error.message).toContain('listTeams failed with 429 RATE_LIMITED')

    const missing = (await client.getProject('no-such-project').catch((e: unknown) => e)) as ServiceApiError
    expect(missing).toMatchObject({ status: 404, code: 'NOT_FOUND' })
    expect(missing.hint).toContain('no-such-project')
  })

  it('raw mode sends what it is given and returns the response as received, error or not', async () => {
    const malformed = await client.raw({ operationId: 'createProject', bodyText: '{"name":' })
    expect(malformed.response.status).toBe(400)
    expect(malformed.request).toMatchObject({ method: 'POST', url: `${BASE}/projects`, body: '{"name":' })
    expect(malformed.request.headers.authorization).toBe('Bearer pres_test_alice')

    // A body the types would refuse, no key, a verbatim Authorization header, any method and path.
    const wrongType = await client.raw({ operationId: 'renameProject', params: { slug: 'welcome-deck' }, body: { name: 42 } })
    expect(wrongType.response.status).toBe(400)
    expect((await client.raw({ operationId: 'listTeams', apiKey: null })).response.status).toBe(401)
    expect((await client.raw({ operationId: 'listTeams', authorization: 'Basic abc' })).response.status).toBe(401)
    const wrongMethod = await client.raw({ method: 'DELETE', path: '/teams' })
    expect(wrongMethod.response.status).toBe(405)
    const query = await client.raw({ operationId: 'listProjects', query: 'limit=1&limit=2' })
    expect(query.response.status).toBe(400)
    expect(query.request.url).toBe(`${BASE}/projects?limit=1&limit=2`)
    const noType = await client.raw({ operationId: 'createProject', body: {}, headers: { 'content-type': null } })
    expect(noType.request.headers['content-type']).toBeUndefined()
  })

  it('never retries unless asked, and then honours Retry-After within its cap', async () => {
    emulator.control.addFault({ operationId: 'listTeams', status: 503, times: 2 })
    await expect(client.listTeams()).rejects.toMatchObject({ status: 503 })
    const retrying = createClient({
      baseUrl: BASE,
      apiKey: 'pres_test_alice',
      fetch: emulator.fetch,
      retry: { retries: 3, baseDelayMs: 100, maxWaitMs: 120_000 },
      sleep: async (ms) => void slept.push(ms),
    })
    // One 503 is left: a GET is retried after the base delay.
    expect((await retrying.listTeams()).teams.length).toBeGreaterThan(0)
    expect(slept).toEqual([100])

    // A 429 with Retry-After: the wait follows it.
    slept.length = 0
    emulator.control.addFault({ operationId: 'listTeams', status: 429, retryAfter: 3 })
    await retrying.listTeams()
    expect(slept).toEqual([3000])

    // A POST is not retried on a 5xx (it could run twice)...
    slept.length = 0
    emulator.control.addFault({ operationId: 'createProject', status: 500 })
    await expect(retrying.createProject({ name: 'x' })).rejects.toMatchObject({ status: 500 })
    expect(slept).toEqual([])
    // ...and the total wait is capped.
    const capped = createClient({
      baseUrl: BASE,
      apiKey: 'pres_test_alice',
      fetch: emulator.fetch,
      retry: { retries: 5, maxWaitMs: 500 },
      sleep: async (ms) => void slept.push(ms),
    })
    emulator.control.addFault({ operationId: 'listTeams', status: 429, times: 0, retryAfter: 1 })
    await expect(capped.listTeams()).rejects.toMatchObject({ status: 429 })
    expect(slept).toEqual([])
  })

  it('waitForJob polls with backoff until the job completes, on the emulator clock', async () => {
    const { jobId } = await acme.generateProject({ prompt: 'Board deck' })
    const polls: string[] = []
    const job = await acme.waitForJob(jobId, { intervalMs: 1000, factor: 2, onPoll: (j) => polls.push(j.status) })
    expect(job.status).toBe('completed')
    expect(polls.at(-1)).toBe('completed')
    expect(polls.slice(0, -1).every((s) => s === 'processing')).toBe(true)
    expect(slept.slice(0, 3)).toEqual([1000, 2000, 4000])
  })

  it('waitForJob gives up with a JobTimeoutError after its time limit', async () => {
    const slow = createEmulator({ clock: 'manual', rateLimit: 0, timeScale: 1000 })
    const waits: number[] = []
    const c = createClient({
      baseUrl: BASE,
      apiKey: 'pres_test_alice_acme',
      fetch: slow.fetch,
      sleep: async (ms) => {
        waits.push(ms)
        await slow.control.advanceClock({ ms: Math.round(ms) })
      },
    })
    const { jobId } = await c.generateProject({ prompt: 'never soon' })
    const error = await c.waitForJob(jobId, { timeoutMs: 50, intervalMs: 10 }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(JobTimeoutError)
    // It never waits longer than its whole limit at once (how many polls fit in 50 ms depends on the machine).
    for (const ms of waits) expect(ms).toBeLessThanOrEqual(50)
  })

  it('paginate walks every page of Acme’s projects once, in order', async () => {
    const pages = []
    for await (const page of paginate(acme.listProjects, { limit: 7 })) pages.push(page)
    const slugs = pages.flatMap((p) => p.projects.map((x) => x.slug))
    const all = await acme.listProjects({ limit: 100 })
    expect(slugs).toEqual(all.projects.map((p) => p.slug))
    expect(pages.at(-1)!.nextCursor).toBeUndefined()
    expect(pages.slice(0, -1).every((p) => p.projects.length === 7)).toBe(true)
  })

  it('paginate stops on a server that hands out the same cursor twice', async () => {
    const looping = async (_query: { cursor?: string }) => ({ projects: [], nextCursor: 'again' })
    const walk = async () => {
      for await (const _ of paginate(looping, {})) void _
    }
    await expect(walk()).rejects.toThrow(/twice/)
  })

  it('the control client drives the control plane over fetch, typed', async () => {
    const control = createControlClient({ url: 'http://127.0.0.1:4010', fetch: emulator.fetch })
    expect(control.url).toBe('http://127.0.0.1:4010/_emulator')
    expect((await control.health()).status).toBe('ok')
    const account = await control.createAccount({ credits: 0 })
    const fresh = createClient({ baseUrl: BASE, apiKey: account.apiKey, fetch: emulator.fetch })
    await expect(fresh.generateProject({ prompt: 'x' })).rejects.toMatchObject({ status: 402, code: 'INSUFFICIENT_CREDITS' })
    await control.setCredits(account.teamId, { credits: 1 })
    const { jobId } = await fresh.generateProject({ prompt: 'x' })
    expect((await control.completeJob(jobId)).status).toBe('completed')
    const { faultId } = await control.addFault({ operationId: 'listTeams', status: 500, apiKey: account.apiKey })
    expect((await control.listFaults()).faults.map((f) => f.id)).toContain(faultId)
    await expect(control.removeFault('flt_nope')).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' })
    await expect(control.advanceClock({ ms: -1 })).rejects.toMatchObject({ status: 400, code: 'VALIDATION_ERROR' })
    const { requests } = await control.listRequests({ operationId: 'generateProject', limit: 1 })
    expect(requests[0]!.keyId).toBe(account.keyId)
  })

  it('types inputs from the request schemas and outputs from the responses', () => {
    expectTypeOf(client.renameProject).parameter(1).toEqualTypeOf<{ name: string }>()
    expectTypeOf(client.listProjects)
      .parameter(0)
      .toEqualTypeOf<{ limit?: number | string; published?: boolean | 'true' | 'false'; cursor?: string } | undefined>()
    expectTypeOf<Awaited<ReturnType<PresentationClient['getProject']>>['latestVersion']>().toEqualTypeOf<{
      id: string
      name: string
      createdAt: string
    } | null>()
    // @ts-expect-error a wrong body type does not compile
    void (() => client.renameProject('x', { name: 1 }))
    // @ts-expect-error an unknown operation id does not compile
    void (() => client.call('deleteProject', {}))
  })
})
