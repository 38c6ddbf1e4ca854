import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createEmulator, type PresentationEmulator } from '../src/index.js'
import { WAYS } from './support/harness.js'

/**
 * The pages' live updates (server-sent events) through every way in: the
 * socket-free fetch, msw's setupServer and the HTTP server. Each stream
 * holds one change listener while it is open and none once the client has
 * gone away.
 */

interface ServerSentEvent {
  event: string
  data: string
}

/** Reads server-sent events from a response body. */
function eventsOf(response: Response) {
  const reader = response.body!.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  const queue: ServerSentEvent[] = []
  return {
    /** The next event that satisfies `accept` (others are skipped). */
    async next(accept: (event: ServerSentEvent) => boolean = () => true): Promise<ServerSentEvent> {
      for (;;) {
        const event = queue.shift()
        if (event !== undefined) {
          if (accept(event)) return event
          continue
        }
        const { value, done } = await reader.read()
        if (done) throw new Error('the stream ended')
        buffer += decoder.decode(value, { stream: true })
        let end: number
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          let name = 'message'
          const data: string[] = []
          for (const line of block.split('\n')) {
            if (line.startsWith('event: ')) name = line.slice(7)
            else if (line.startsWith('data: ')) data.push(line.slice(6))
          }
          if (data.length > 0) queue.push({ event: name, data: data.join('\n') })
        }
      }
    },
    cancel: () => reader.cancel(),
  }
}

/** Waits until `check` holds (the streams release their listener asynchronously when a socket closes). */
async function eventually(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (check()) return
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  throw new Error(`timed out waiting until ${what}`)
}

describe.each(WAYS)('live pages (%s)', (way) => {
  let emulator: PresentationEmulator
  let origin: string
  let get: (path: string, init?: RequestInit) => Promise<Response>
  let msw: ReturnType<typeof setupServer> | undefined
  const listeners = () => emulator.emulator.changeListenerCount
  /** Opens an event stream; `close()` goes away the way a client does (aborting the request). */
  const open = async (path: string) => {
    const controller = new AbortController()
    const response = await get(path, { signal: controller.signal })
    expect(response.status).toBe(200)
    const events = eventsOf(response)
    return Object.assign(events, { close: () => controller.abort() })
  }
  const api = (method: string, path: string, json?: unknown, key = 'pres_test_alice') =>
    get(`/v1${path}`, { method, headers: { authorization: `Bearer ${key}` }, body: json === undefined ? undefined : JSON.stringify(json) })

  beforeAll(async () => {
    origin = way === 'msw' ? 'https://presentation.test' : 'http://127.0.0.1:4010'
    emulator = createEmulator({ clock: 'manual', rateLimit: 0, baseUrl: `${origin}/v1` })
    await emulator.ready()
    if (way === 'fetch') get = (path, init) => emulator.fetch(`${origin}${path}`, init)
    if (way === 'msw') {
      msw = setupServer(...emulator.handlers)
      msw.listen({ onUnhandledRequest: 'error' })
      get = (path, init) => fetch(`${origin}${path}`, init)
    }
    if (way === 'http') {
      const server = await emulator.listen({ port: 0 })
      origin = server.origin
      get = (path, init) => fetch(`${origin}${path}`, init)
    }
  })
  afterAll(async () => {
    msw?.close()
    await emulator.close()
  })
  afterEach(async () => {
    await eventually(() => listeners() === 0, 'every stream let go of its listener')
  })

  it('sends the editor’s state at once, then again after every change: rename, edit, editing flag, generation', async () => {
    const controller = new AbortController()
    const response = await get('/editor/welcome-deck/events', { signal: controller.signal })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
    const events = eventsOf(response)
    const state = async (accept: (view: any) => boolean) =>
      JSON.parse((await events.next((e) => e.event === 'state' && accept(JSON.parse(e.data)))).data)

    const first = await state(() => true)
    expect(first.name).toBe('Welcome deck')
    expect(first.slides.length).toBeGreaterThan(1)
    expect(listeners()).toBe(1)

    await api('PATCH', '/projects/welcome-deck', { name: 'Renamed live' })
    expect((await state((view) => view.name === 'Renamed live')).title).toBe('Renamed live · Editor')

    const slideId = first.slides[1].id as string
    await api('POST', `/projects/welcome-deck/slides/${slideId}/editing`, { agentName: 'Live Bot' })
    const editing = await state((view) => view.slides[1].frame.includes('editing-indicator'))
    expect(editing.slides[1].frame).toContain('Live Bot is editing this slide')
    expect(editing.slides[1].thumb).toContain('thumb-editing')
    await api('DELETE', `/projects/welcome-deck/slides/${slideId}/editing`)
    await state((view) => !view.slides[1].frame.includes('editing-indicator'))

    await api('PUT', `/projects/welcome-deck/slides/${slideId}`, { files: { 'slide.content.json': '{"title":"Edited live","blocks":[]}' } })
    expect((await state((view) => view.slides[1].frame.includes('<h1>Edited live</h1>'))).slides[1].id).toBe(slideId)

    controller.abort()
    await eventually(() => listeners() === 0, 'the aborted stream let go of its listener')
  })

  it('follows a generation from processing to completed, and says when one fails', async () => {
    const job = await (
      await api('POST', '/projects/generate', { prompt: 'Board update', templateId: 'tpl_acme_quarterly' }, 'pres_test_alice_acme')
    ).json()
    const events = await open(`/editor/${job.projectSlug}/events`)
    const state = async (accept: (view: any) => boolean) =>
      JSON.parse((await events.next((e) => e.event === 'state' && accept(JSON.parse(e.data)))).data)
    const processing = await state(() => true)
    expect(processing.slides).toEqual([])
    expect(processing.meta).toContain('Generating')
    await emulator.control.advanceClock({ ms: 200_000 })
    const done = await state((view) => view.slides.length > 0)
    expect(done.meta).not.toContain('Generating')
    expect(done.meta).toContain('Published')
    events.close()

    const failing = await (await api('POST', '/projects/generate', { prompt: 'emulator:fail please' }, 'pres_test_alice_acme')).json()
    const second = await open(`/editor/${failing.projectSlug}/events`)
    await second.next((e) => e.event === 'state')
    await emulator.control.advanceClock({ ms: 400_000 })
    const failed = JSON.parse((await second.next((e) => e.event === 'state' && e.data.includes('generation-failed'))).data)
    expect(failed.notice).toContain('Generation failed')
    second.close()
  })

  it('says a project is gone while it does not exist, and follows it back', async () => {
    const created = await (await api('POST', '/projects', { name: 'Short-lived' })).json()
    const events = await open(`/editor/${created.projectSlug}/events`)
    await events.next((e) => e.event === 'state')
    await emulator.control.reset()
    expect(JSON.parse((await events.next()).data)).toEqual({ slug: created.projectSlug })
    events.close()
    const missing = await open('/editor/never-existed/events')
    expect((await missing.next()).event).toBe('gone')
    missing.close()
  })

  it('sends the dashboard’s sections, then those that change after a request or a control-plane action', async () => {
    const events = await open('/_emulator/dashboard/events?operationId=listTeams')
    const first = JSON.parse((await events.next((e) => e.event === 'state')).data)
    expect(Object.keys(first.sections)).toEqual(
      expect.arrayContaining(['teams', 'keys', 'projects', 'jobs', 'faults', 'requests', 'requests-count', 'clock']),
    )
    await api('GET', '/teams')
    const after = JSON.parse((await events.next((e) => e.event === 'state' && JSON.parse(e.data).sections.requests !== undefined)).data)
    expect(after.sections.requests).toContain('GET /v1/teams')
    expect(after.sections.teams).toBeUndefined()
    emulator.control.addFault({ operationId: 'getProject', status: 503 })
    const fault = JSON.parse((await events.next((e) => e.event === 'state' && JSON.parse(e.data).sections.faults !== undefined)).data)
    expect(fault.sections.faults).toContain('getProject')
    emulator.control.clearFaults()
    events.close()
  })

  it.skipIf(way === 'msw')('lets go of the stream when the reader cancels the body', async () => {
    // msw keeps its own copy of every response, so a cancelled reader does not reach the emulator there;
    // aborting the request does (above), and a stream nobody reads ends after two heartbeats.
    const events = eventsOf(await get('/editor/welcome-deck/events'))
    await events.next((e) => e.event === 'state')
    expect(listeners()).toBe(1)
    await events.cancel()
    await eventually(() => listeners() === 0, 'the cancelled stream let go of its listener')
  })
})

describe('live pages over HTTP: server shutdown', () => {
  it('ends open streams when the server closes, instead of waiting for them', async () => {
    const emulator = createEmulator({ clock: 'manual' })
    const server = await emulator.listen({ port: 0 })
    const events = eventsOf(await fetch(`${server.origin}/editor/welcome-deck/events`))
    await events.next((e) => e.event === 'state')
    const dashboard = eventsOf(await fetch(`${server.origin}/_emulator/dashboard/events`))
    await dashboard.next((e) => e.event === 'state')
    expect(emulator.emulator.changeListenerCount).toBe(2)
    await server.close(5_000)
    expect(server.forced).toBe(false)
    await expect(events.next()).rejects.toThrow(/ended|terminated/)
    expect(emulator.emulator.changeListenerCount).toBe(0)
    await emulator.close()
  })
})
