import { fail } from '../core/errors.js'
import { textResponse, type EmulatorRequest, type EmulatorResponse } from '../core/exchange.js'
import { SITES_DOMAIN } from '../model/urls.js'
import type { World } from '../store/world.js'
import { editorPage, editorSlidesHtml } from './editor.js'
import { siteNotFoundPage, sitePage } from './site.js'

/** What the pages need from the emulator that hosts them. */
export interface PageHost {
  readonly world: World
  exclusive<T>(task: () => Promise<T> | T): Promise<T>
  settleDueJobs(): Promise<void>
}

/** True for the paths the pages serve: `/editor/…` and `/sites/…`. */
export function isPagePath(path: string): boolean {
  return path.startsWith('/editor/') || path.startsWith('/sites/')
}

/**
 * Serves the pages behind the URLs the API hands out: the editor at
 * `/editor/{slug}` (and its live fragment), published sites at
 * `/sites/{hostname}{path}`.
 */
export async function handlePage(host: PageHost, request: EmulatorRequest): Promise<EmulatorResponse> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return fail.methodNotAllowed(['GET']).toResponse()
  const html = (status: number, body: string) =>
    textResponse(status, request.method === 'HEAD' ? '' : body, 'text/html; charset=utf-8', { 'cache-control': 'no-store' })
  let segments: string[]
  try {
    segments = request.path.split('/').slice(1).map(decodeURIComponent)
  } catch {
    return html(400, siteNotFoundPage(request.path))
  }
  return host.exclusive(async () => {
    await host.settleDueJobs()
    const world = host.world
    const [area, first, second, ...rest] = segments
    if (area === 'editor') {
      const project = first === undefined ? undefined : world.projectBySlug(first)
      if (project === undefined || (second !== undefined && second !== 'live') || rest.length > 0) {
        return html(404, siteNotFoundPage(request.path))
      }
      return second === 'live' ? html(200, editorSlidesHtml(world, project)) : html(200, editorPage(world, project))
    }
    // /sites/{hostname}{path}
    const hostname = first ?? ''
    const sitePath = `/${[second, ...rest].filter((s) => s !== undefined).join('/')}`
    let project
    if (hostname.endsWith(`.${SITES_DOMAIN}`)) {
      const subdomain = world.subdomainByLabel(hostname.slice(0, -SITES_DOMAIN.length - 1))
      project = subdomain === undefined ? undefined : world.projectAt({ subdomainId: subdomain.id }, sitePath)
    } else {
      const domain = world.domainByHostname(hostname)
      project = domain === undefined ? undefined : world.projectAt({ domainId: domain.id }, sitePath)
    }
    const publication = project === undefined || project.publishedAt === null ? undefined : world.publicationOf(project.id)
    return publication === undefined ? html(404, siteNotFoundPage(`${hostname}${sitePath}`)) : html(200, sitePage(publication))
  })
}
