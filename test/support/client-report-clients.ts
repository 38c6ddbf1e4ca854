/**
 * Clients for the client report's tests (docs/guides/client-report.md): a
 * reference client that follows every rule, and one misbehaving client per
 * rule. Each drives the API through the typed client over whatever `fetch`
 * it is given (the socket-free one, or a real one against `listen()` or
 * `exec`), so the same clients run through every way in.
 */
import { createClient, type PresentationClient, paginate, ServiceApiError } from '../../src/client/index.js'

/** What a client needs from its test: where to call, with which key, and how time passes. */
export interface ClientSetup {
  baseUrl: string
  apiKey: string
  fetch: typeof fetch
  /**
   * Waits `ms` of the emulator's time: a real sleep on a real clock; on a
   * manual clock, a clock advance (the way a test moves time).
   */
  sleep(ms: number): Promise<void>
  /** Sets the account team's credits (the user buying some, after a 402). */
  setCredits(credits: number): Promise<void>
}

/** The typed client as an app would make it: retries 429 (honouring Retry-After) and idempotent 5xx. */
export function apiOf(setup: ClientSetup, retry = true): PresentationClient {
  return createClient({
    baseUrl: setup.baseUrl,
    apiKey: setup.apiKey,
    fetch: setup.fetch,
    retry: retry ? { retries: 4, baseDelayMs: 1_000 } : false,
    sleep: (ms) => setup.sleep(ms),
  })
}

async function allProjects(api: PresentationClient): Promise<Array<{ id: string; slug: string }>> {
  const out: Array<{ id: string; slug: string }> = []
  for await (const page of paginate(api.listProjects, { limit: 5 })) out.push(...page.projects)
  return out
}

async function allTemplates(api: PresentationClient): Promise<number> {
  let count = 0
  for await (const page of paginate(api.listTemplates, { limit: 2 })) count += page.templates.length
  return count
}

const statusOf = (error: unknown): number | undefined => (error instanceof ServiceApiError ? error.status : undefined)

/**
 * The reference client: full pagination, a generate that recovers after a
 * failure by looking at the project list before trying again (a 502 is
 * retried as it is: nothing was dispatched), a 402 answered by adding
 * credits first, a poll loop with a backoff from 1 s that stops when the job
 * leaves processing, and the editing indicator set and cleared.
 */
export async function referenceClient(setup: ClientSetup, options: { generateTimeoutMs?: number } = {}): Promise<void> {
  const api = apiOf(setup)
  await allTemplates(api)
  const before = new Set((await allProjects(api)).map((project) => project.id))
  const body = { prompt: 'A short history of the bicycle' }

  let jobId: string | undefined
  let slug: string | undefined
  for (let attempt = 0; attempt < 6 && slug === undefined; attempt++) {
    try {
      const signal = options.generateTimeoutMs === undefined ? undefined : AbortSignal.timeout(options.generateTimeoutMs)
      const accepted = await api.generateProject(body, signal === undefined ? {} : { signal })
      jobId = accepted.jobId
      slug = accepted.projectSlug ?? undefined
    } catch (error) {
      const status = statusOf(error)
      if (status === 402) {
        await setup.setCredits(5)
        continue
      }
      if (status === 502) {
        // Nothing was dispatched: retrying is safe.
        await setup.sleep(1_000)
        continue
      }
      if (status !== undefined && status < 500) throw error
      // A 500 or an abandoned call may have been accepted: look before generating again. An abandoned
      // call may still be running on the server, so look again after a moment (real time: the network's).
      for (let look = 0; look < 3 && slug === undefined; look++) {
        const made = (await allProjects(api)).find((project) => !before.has(project.id))
        if (made !== undefined) slug = made.slug
        else if (status === undefined) await new Promise((resolve) => setTimeout(resolve, 500))
        else break
      }
      if (slug === undefined) await setup.sleep(1_000)
    }
  }
  if (slug === undefined) throw new Error('reference client: the generation never went through')
  if (jobId !== undefined) {
    const job = await api.waitForJob(jobId, { intervalMs: 1_000 })
    if (job.status === 'processing') throw new Error('reference client: the job is still processing')
  }
  const project = await api.getProject(slug)
  void project
  const slides = await api.listSlides(slug)
  const slide = slides.slides[0]
  if (slide !== undefined) {
    await api.startSlideEditing(slug, slide.id)
    const files = await api.getSlideFiles(slug, slide.id)
    await api.updateSlide(slug, slide.id, { files: files.files })
    await api.stopSlideEditing(slug, slide.id)
  }
}

/** A new project with one slide (createProject, createSlide). */
async function slideOfNewProject(api: PresentationClient): Promise<{ slug: string; slideId: string }> {
  const project = await api.createProject({ name: 'Edited deck' })
  const slide = await api.createSlide(project.projectSlug, { name: 'One' })
  return { slug: project.projectSlug, slideId: slide.slideId }
}

/** A misbehaving client: what it does wrong is named by the rule it should be flagged by. */
export type Misbehaviour = (setup: ClientSetup, helpers: MisbehaviourHelpers) => Promise<void>

export interface MisbehaviourHelpers {
  /** Makes `n` projects for the account (through the API, with pauses that keep the rates clean). */
  projects(n: number): Promise<void>
  /** A key that the emulator refuses (revoked). */
  refusedKey(): Promise<string>
  /** Finishes a job now. */
  completeJob(jobId: string): Promise<void>
  /** Adds a fault for this account. */
  addFault(fault: { operationId: string; status?: number; delayMs?: number; times?: number }): Promise<void>
  clock: 'real' | 'manual'
}

export const MISBEHAVING: Record<string, Misbehaviour> = {
  /** Polls while processing with no pause (on a manual clock: without moving it). */
  'poll.too-fast': async (setup) => {
    const api = apiOf(setup, false)
    const { jobId } = await api.generateProject({ prompt: 'Fast pollers' })
    for (let n = 0; n < 3; n++) await api.getJobStatus(jobId)
  },
  /** Keeps reading the job after it completed. */
  'poll.after-done': async (setup, helpers) => {
    const api = apiOf(setup, false)
    const { jobId } = await api.generateProject({ prompt: 'Never stops' })
    await helpers.completeJob(jobId)
    for (let n = 0; n < 3; n++) {
      await api.getJobStatus(jobId)
      await setup.sleep(1_000)
    }
  },
  /** Retries a 429 at once, before its reset (needs a real clock: a manual clock's Retry-After says "now"). */
  'rate.retry-before-reset': async (setup, helpers) => {
    const api = apiOf(setup, false)
    await helpers.addFault({ operationId: 'listTeams', status: 429, times: 1 })
    await api.listTeams().catch(() => undefined)
    await api.listTeams()
  },
  /** 101 requests as fast as it can (more than 50 in some minute, wherever the minutes fall). */
  'rate.exceeded': async (setup) => {
    const api = apiOf(setup, false)
    for (let n = 0; n < 101; n++) await api.listTeams()
  },
  /** Generates again after a 402 without adding credits. */
  'generate.after-402': async (setup) => {
    await setup.setCredits(0)
    const api = apiOf(setup, false)
    for (let n = 0; n < 2; n++) await api.generateProject({ prompt: 'No credits' }).catch(() => undefined)
  },
  /** Gives up on a slow generate and sends it again without looking. */
  'generate.abandoned-retry': async (setup, helpers) => {
    const api = apiOf(setup, false)
    await helpers.addFault({ operationId: 'generateProject', delayMs: 400, times: 1 })
    await api.generateProject({ prompt: 'Impatient' }, { signal: AbortSignal.timeout(50) }).catch(() => undefined)
    // Wait until the abandoned call was answered (and journaled), as a slow network would.
    await new Promise((resolve) => setTimeout(resolve, 600))
    await api.generateProject({ prompt: 'Impatient' })
  },
  /** The same generate twice in a row, both accepted. */
  'generate.duplicate': async (setup) => {
    const api = apiOf(setup, false)
    await api.generateProject({ prompt: 'Twice' })
    await api.generateProject({ prompt: 'Twice' })
  },
  /** Goes on with a key that answered 401. */
  'auth.key-refused': async (setup, helpers) => {
    const api = apiOf({ ...setup, apiKey: await helpers.refusedKey() }, false)
    for (let n = 0; n < 2; n++) await api.listTeams().catch(() => undefined)
  },
  /** Sends the same cursor twice in one listing. */
  'pagination.cursor-repeated': async (setup, helpers) => {
    await helpers.projects(3)
    const api = apiOf(setup, false)
    const first = await api.listProjects({ limit: 1 })
    await api.listProjects({ limit: 1, cursor: first.nextCursor! })
    await api.listProjects({ limit: 1, cursor: first.nextCursor! })
  },
  /** Reads the first page only, again and again. */
  'pagination.first-page-only': async (setup, helpers) => {
    await helpers.projects(3)
    const api = apiOf(setup, false)
    for (let n = 0; n < 2; n++) await api.listProjects({ limit: 2 })
  },
  /** Sets the editing indicator and leaves it on (the clock then moves 5 minutes). */
  'editing.left-on': async (setup) => {
    const api = apiOf(setup, false)
    const { slug, slideId } = await slideOfNewProject(api)
    await api.startSlideEditing(slug, slideId)
    await api.updateSlide(slug, slideId, { files: { 'slide.content.json': '{"title":"Edited"}' } })
    await setup.sleep(5 * 60_000)
  },
  /** Sets and clears the indicator around no update. */
  'editing.never-updated': async (setup) => {
    const api = apiOf(setup, false)
    const { slug, slideId } = await slideOfNewProject(api)
    await api.startSlideEditing(slug, slideId)
    await api.stopSlideEditing(slug, slideId)
  },
  /** Sends its JSON as text/plain. */
  'request.content-type': async (setup) => {
    const api = apiOf(setup, false)
    const sent = await api.raw({
      operationId: 'createProject',
      bodyText: '{"name":"Plain text"}',
      headers: { 'content-type': 'text/plain' },
    })
    if (sent.response.status !== 200) throw new Error(`createProject answered ${sent.response.status}`)
  },
  /** Sends the same invalid body again after its 400. */
  'errors.repeated-400': async (setup) => {
    const api = apiOf(setup, false)
    for (let n = 0; n < 2; n++) await api.createProject({ name: '' }).catch(() => undefined)
  },
  /** Asks for more than 100 items a page. */
  'pagination.limit-out-of-range': async (setup) => {
    const api = apiOf(setup, false)
    await api.raw({ method: 'GET', path: '/projects', query: { limit: '500' } })
  },
}

/** What the clients need of the control plane for one account (the library's `emulator.control` or the HTTP control client). */
export interface AccountControl {
  setCredits(teamId: string, input: { credits: number }): unknown
  createKey(input: { userId: string }): Promise<{ keyId: string; apiKey: string }> | { keyId: string; apiKey: string }
  revokeKey(keyId: string): unknown
  completeJob(jobId: string): unknown
  addFault(input: never): unknown
}

/** The reference client's setup and the misbehaving clients' helpers for one account, whichever way the API is reached. */
export function clientFor(
  account: { apiKey: string; teamId: string; userId: string },
  way: { baseUrl: string; fetch: typeof fetch; sleep(ms: number): Promise<void>; clock: 'real' | 'manual'; control: AccountControl },
): { setup: ClientSetup; helpers: MisbehaviourHelpers } {
  const { control } = way
  const setup: ClientSetup = {
    baseUrl: way.baseUrl,
    apiKey: account.apiKey,
    fetch: way.fetch,
    sleep: way.sleep,
    setCredits: async (credits) => {
      await control.setCredits(account.teamId, { credits })
    },
  }
  const helpers: MisbehaviourHelpers = {
    clock: way.clock,
    async projects(n) {
      for (let i = 0; i < n; i++) {
        const response = await way.fetch(`${way.baseUrl}/projects`, {
          method: 'POST',
          headers: { authorization: `Bearer ${account.apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name: `Project ${i}` }),
        })
        if (response.status !== 200) throw new Error(`making project ${i} answered ${response.status}`)
      }
    },
    async refusedKey() {
      const key = await control.createKey({ userId: account.userId })
      await control.revokeKey(key.keyId)
      return key.apiKey
    },
    async completeJob(jobId) {
      await control.completeJob(jobId)
    },
    async addFault(fault) {
      await control.addFault({ ...fault, apiKey: account.apiKey } as never)
    },
  }
  return { setup, helpers }
}
