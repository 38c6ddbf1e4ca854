/**
 * A fixed script of ordinary calls, as an app would make them, sent to any
 * base URL (the proxy's in the tests): create, read, rename, configure,
 * publish, list, duplicate, generate and poll, edit a slide, and the
 * mistakes an app makes (a name too long, an empty prompt, a malformed
 * body, a missing project, a missing key). Nothing here judges: the proxy
 * does.
 */
import type { PresentationEmulator } from '../../src/index.js'

export interface TrafficKeys {
  main: string
  other: string
  revoked: string
}

export interface Sent {
  status: number
  json: any
}

/** Sends one request; `key: null` sends none. */
export async function call(
  baseUrl: string,
  method: string,
  path: string,
  options: { key?: string | null; json?: unknown; raw?: string } = {},
): Promise<Sent> {
  const headers: Record<string, string> = {}
  if (options.key !== null && options.key !== undefined) headers.authorization = `Bearer ${options.key}`
  const body = options.raw ?? (options.json === undefined ? undefined : JSON.stringify(options.json))
  if (body !== undefined) headers['content-type'] = 'application/json'
  const response = await fetch(`${baseUrl}${path}`, { method, headers, ...(body === undefined ? {} : { body }) })
  const text = await response.text()
  let json: unknown
  try {
    json = text === '' ? undefined : JSON.parse(text)
  } catch {
    json = undefined
  }
  return { status: response.status, json }
}

const IMAGES = Array.from({ length: 21 }, (_, i) => `https://images.example.com/${i + 1}.png`)

/**
 * The script. `server` is the target behind the proxy: only its clock is
 * moved directly (the rate-limit window and generation take time), never
 * its data. Returns the main project's and the duplicate's slugs.
 */
export async function ordinaryTraffic(
  baseUrl: string,
  keys: TrafficKeys,
  server: PresentationEmulator,
): Promise<{ slug: string; copy: string }> {
  const { main } = keys
  const tick = () => server.control.advanceClock({ ms: 61_000 })
  const send = (method: string, path: string, options: { key?: string | null; json?: unknown; raw?: string } = {}) =>
    call(baseUrl, method, path, { key: main, ...options })

  await send('GET', '/teams')
  await send('GET', '/projects/templates')
  const created = await send('POST', '/projects', { json: { name: 'Quarterly review' } })
  const slug: string = created.json.projectSlug
  await send('GET', `/projects/${slug}`)
  await send('GET', `/projects/${slug}/url`)
  await send('PATCH', `/projects/${slug}`, { json: { name: 'Quarterly review, final' } })
  await send('GET', `/projects/${slug}`)
  await send('GET', `/projects/${slug}/config`)
  await send('PUT', `/projects/${slug}/config`, { json: { config: { layout: 'CARD', cardsCorners: 'ROUND' } } })
  await send('GET', `/projects/${slug}`)
  await send('PUT', `/projects/${slug}/config`, { json: { config: { width: 'MEDIUM' } } })
  await send('GET', `/projects/${slug}/config`)
  await send('POST', `/projects/${slug}/publish`)
  await send('GET', `/projects/${slug}`)
  await send('GET', '/projects?published=true&limit=100')
  await send('DELETE', `/projects/${slug}/publish`)
  await send('GET', `/projects/${slug}`)
  await send('GET', '/projects?published=false&limit=100')
  const duplicated = await send('POST', `/projects/${slug}/duplicate`)
  const copy: string = duplicated.json.projectSlug
  await send('GET', `/projects/${copy}`)
  await send('GET', `/projects/${copy}/slides`)
  await send('GET', `/projects/${copy}/url`)
  await send('GET', '/projects?limit=100')
  await tick()

  // The mistakes an app makes.
  await send('PATCH', `/projects/${slug}`, { json: { name: 'x'.repeat(192) } })
  await send('PATCH', `/projects/${slug}`, { raw: '{"name": ' })
  await send('POST', '/projects', { json: { name: 'y'.repeat(201) } })
  await send('POST', '/projects/generate', { json: { prompt: '' } })
  await send('POST', '/projects/generate', { json: {} })
  await send('POST', '/projects/generate', { json: { prompt: 'too many pictures', referenceImageUrls: IMAGES } })
  await send('GET', '/projects/no-such-project-anywhere')
  await send('GET', '/projects', { key: null })
  await send('GET', '/projects', { key: `zz${main.slice(main.indexOf('_'))}` })
  await send('GET', '/projects', { key: keys.revoked })
  await send('GET', `/projects/${slug}`, { key: keys.other })
  await send('GET', `/projects/${slug}`)
  await tick()

  // Generation, polled until done; then a slide edited twice.
  const job = await send('POST', '/projects/generate', { json: { prompt: 'A deck about proxies', referenceImageUrls: IMAGES.slice(0, 2) } })
  let status = await send('GET', `/projects/jobs/${job.json.jobId}`)
  for (let i = 0; i < 20 && status.json?.status === 'processing'; i++) {
    await server.control.advanceClock({ ms: 30_000 })
    status = await send('GET', `/projects/jobs/${job.json.jobId}`)
  }
  await tick()
  const generated: string | undefined = status.json?.projectSlug ?? undefined
  if (generated !== undefined && status.json.status === 'completed') {
    await send('GET', `/projects/${generated}`)
    const slides = await send('GET', `/projects/${generated}/slides`)
    const slide: string | undefined = slides.json?.slides?.[0]?.id
    if (slide !== undefined) {
      await send('PUT', `/projects/${generated}/slides/${slide}`, {
        json: { files: { 'slide.content.json': JSON.stringify({ blocks: [{ type: 'heading', text: 'Proxies' }] }) } },
      })
      await send('PUT', `/projects/${generated}/slides/${slide}`, {
        json: { files: { 'slide.controls.json': JSON.stringify({ controls: [] }) } },
      })
      await send('POST', `/projects/${generated}/slides/${slide}/editing`, { json: { agentName: 'Proxy test', editPrompt: 'Tidy up' } })
      await send('DELETE', `/projects/${generated}/slides/${slide}/editing`)
      await send('GET', `/projects/${generated}`)
    }
  }
  return { slug, copy }
}
