import { fail } from '../../src/core/errors.js'
import { textResponse, type EmulatorRequest, type EmulatorResponse } from '../../src/core/exchange.js'
import { eventStreamResponse } from '../../src/core/server-sent-events.js'
import { SITES_DOMAIN } from '../../src/model/urls.js'
import type { SlideCheckResultsReader } from '../../src/model/check-results.js'
import type { ProjectRecord } from '../../src/store/records.js'
import type { Change } from '../../src/store/table.js'
import type { World } from '../../src/store/world.js'
import { frameKeyOf, requestOrigin } from '../render/documents.js'
import { SlideTranspiler } from '../render/transpile.js'
import { editorPage, editorSlidesHtml, editorView } from './editor.js'
import type { ImagePolicy } from './html.js'
import { pageHeaders } from './security.js'
import { editorNotFoundPage, siteNotFoundPage, sitePage, siteView } from './site.js'

/** What the pages need from the emulator that hosts them. */
export interface PageHost {
  readonly world: World
  /** The emulator's own origin: an image there is not remote. */
  readonly publicUrl: string
  /** Whether pages load remote images (and allow them in their CSP). */
  readonly allowRemoteImages: boolean
  exclusive<T>(task: () => Promise<T> | T): Promise<T>
  settleDueJobs(): Promise<void>
  /** Subscribes to every change of state; returns the unsubscribe function. */
  onChange(listener: (change: Change<unknown> | { table: '*' }) => void): () => void
  /** The last check result of each slide (the editor's badges): read only, so a page never starts a check. */
  readonly slideCheckResults: SlideCheckResultsReader
}

/** How long the editor's stream waits after a change before it renders, so a burst of changes is one update. */
const COALESCE_MS = 25

/** Each emulator's transpiler (its cache lives as long as the emulator; nothing is shared between emulators). */
const transpilers = new WeakMap<PageHost, SlideTranspiler>()

/** The transpiler of the emulator behind `host`: the pages hand slides to the renderer transpiled. */
export function transpilerOf(host: PageHost): SlideTranspiler {
  let transpiler = transpilers.get(host)
  if (transpiler === undefined) {
    transpiler = new SlideTranspiler()
    transpilers.set(host, transpiler)
  }
  return transpiler
}

function imagePolicy(host: PageHost): ImagePolicy {
  return { allowRemote: host.allowRemoteImages, origin: new URL(host.publicUrl).origin }
}

/**
 * Serves the pages behind the URLs the API hands out: the editor at
 * `/editor/{slug}` (its stage alone at `/live`, its live updates at
 * `/events`), published sites at `/sites/{hostname}{path}`.
 */
export async function handlePage(host: PageHost, request: EmulatorRequest): Promise<EmulatorResponse> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return fail.methodNotAllowed(['GET', 'HEAD']).toResponse()
  const images = imagePolicy(host)
  const transpiler = transpilerOf(host)
  // A published site's pages (everything here but the editor) run in an opaque origin: whatever runs
  // there cannot speak for the control plane (docs/decisions/0203-sites-in-an-opaque-origin.md).
  const isolated = !(request.path === '/editor' || request.path.startsWith('/editor/'))
  const html = async (status: number, body: string, inlineStyle?: string, showsSlides = false) =>
    textResponse(
      status,
      body,
      'text/html; charset=utf-8',
      await pageHeaders({
        inlineStyles: inlineStyle === undefined ? [] : [inlineStyle],
        allowRemoteImages: images.allowRemote,
        isolated,
        ...(showsSlides ? { renderOrigin: requestOrigin(request, host.publicUrl) } : {}),
      }),
    )
  let segments: string[]
  try {
    segments = request.path.split('/').slice(1).map(decodeURIComponent)
  } catch {
    return html(400, siteNotFoundPage(request.path))
  }
  const [area, first, second, ...rest] = segments
  if (area === 'editor' && first !== undefined && second === 'events' && rest.length === 0) {
    return editorEvents(host, first, images, transpiler)
  }
  const page = await host.exclusive(async () => {
    await host.settleDueJobs()
    const world = host.world
    if (area === 'editor') {
      const project = first === undefined || first === '' ? undefined : world.projectBySlug(first)
      if (project === undefined || (second !== undefined && second !== 'live') || rest.length > 0) {
        return { status: 404, body: editorNotFoundPage(first === undefined || first === '' ? request.path : first) }
      }
      const view = editorView(world, project, images, transpiler, host.slideCheckResults)
      return second === 'live'
        ? { status: 200, body: editorSlidesHtml(view) }
        : { status: 200, body: editorPage(view, project.slug), style: view.css }
    }
    // /sites/{hostname}{path}
    const hostname = first ?? ''
    const sitePath = `/${[second, ...rest].filter((s) => s !== undefined).join('/')}`
    let project: ProjectRecord | undefined
    if (hostname.endsWith(`.${SITES_DOMAIN}`)) {
      const subdomain = world.subdomainByLabel(hostname.slice(0, -SITES_DOMAIN.length - 1))
      project = subdomain === undefined ? undefined : world.projectAt({ subdomainId: subdomain.id }, sitePath)
    } else {
      const domain = world.domainByHostname(hostname)
      project = domain === undefined ? undefined : world.projectAt({ domainId: domain.id }, sitePath)
    }
    const publication = project === undefined || project.publishedAt === null ? undefined : world.publicationOf(project.id)
    if (publication === undefined) return { status: 404, body: siteNotFoundPage(`${hostname}${sitePath}`) }
    // The site's page runs in an opaque origin: its renderer frames show the emulator's frame key instead.
    const view = { ...siteView(publication, images, transpiler), frameKey: frameKeyOf(host) }
    return { status: 200, body: sitePage(view), style: view.css }
  })
  // A page with a stylesheet shows slides (the editor, a site): it may frame the renderer.
  return html(page.status, page.body, page.style, page.style !== undefined)
}

/** Whether a change can alter what the editor of `projectId` shows. */
function concerns(change: Change<unknown> | { table: '*' }, projectId: string | undefined): boolean {
  if (change.table === '*' || projectId === undefined) return true
  const { prev, next } = change as Change<{ id?: string; projectId?: string }>
  return [prev, next].some((record) => record !== undefined && (record.projectId === projectId || record.id === projectId))
}

/**
 * The editor's live updates: a `state` event with the whole `DeckView`
 * (JSON) at once and after every change that alters it, `gone` while the
 * project does not exist (after a reset, say). Fed by the world's change
 * hook; the subscription ends with the stream.
 */
function editorEvents(host: PageHost, slug: string, images: ImagePolicy, transpiler: SlideTranspiler): EmulatorResponse {
  return eventStreamResponse((sink) => {
    let projectId: string | undefined
    let last: string | undefined
    let timer: ReturnType<typeof setTimeout> | undefined
    let rendering = false
    let again = false
    const render = async () => {
      if (rendering) {
        again = true
        return
      }
      rendering = true
      try {
        const next = await host.exclusive(() => {
          const project = host.world.projectBySlug(slug)
          projectId = project?.id
          return project === undefined ? null : JSON.stringify(editorView(host.world, project, images, transpiler, host.slideCheckResults))
        })
        send(next)
      } catch (error) {
        console.error('[presentation-emulator] the editor’s live update failed:', error)
        sink.end()
      } finally {
        rendering = false
        if (again && !sink.closed) {
          again = false
          schedule()
        }
      }
    }
    const send = (state: string | null) => {
      const text = state ?? 'gone'
      if (text === last) return
      last = text
      if (state === null) sink.send(JSON.stringify({ slug }), 'gone')
      else sink.send(state, 'state')
    }
    const schedule = () => {
      if (timer !== undefined || sink.closed) return
      timer = setTimeout(() => {
        timer = undefined
        void render()
      }, COALESCE_MS)
    }
    const unsubscribe = host.onChange((change) => {
      if (concerns(change, projectId)) schedule()
    })
    // A check recorded for one of the project's slides changes its badge (nothing in the world changed).
    const unsubscribeChecks = host.slideCheckResults.onRecord((slide) => {
      if (slide === undefined || projectId === undefined || slide.projectId === projectId) schedule()
    })
    void render()
    return () => {
      unsubscribe()
      unsubscribeChecks()
      if (timer !== undefined) clearTimeout(timer)
      timer = undefined
    }
  })
}
