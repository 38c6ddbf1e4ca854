/**
 * A project's slides read over HTTP, as `presentation-emulator check
 * --base-url URL SLUG` reads them from a running emulator (or any server
 * with the emulator's read of a slide's files):
 *
 * - `GET {base}/projects/{slug}/slides`: the slides, in deck order;
 * - `GET {base}/projects/{slug}/config`: the theme and tokens;
 * - `GET {base}/projects/{slug}/slides/{slideId}/files` (an emulator
 *   extension; the published API has no read of a slide's files): each
 *   slide's three files, read on its turn.
 *
 * What stops the check before any slide is checked (the target cannot be
 * reached, rejects the key, has no such project or slide, lacks the files
 * read) is a `TargetError`: the CLI exits 2 with its message.
 */
import type { DeckSlide } from '../model/deck-check.js'
import type { ProjectConfig, SlideFiles, SlideListItem } from '../schemas/index.js'

/** Why the target cannot be checked; the CLI reports it and exits 2. */
export class TargetError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'TargetError'
  }
}

/** Where the project is, and whose key reads it. */
export interface RemoteTarget {
  /** The API base URL, ending in `/v1`. */
  baseUrl: string
  apiKey?: string
  slug: string
  /** Only these slides (each must be in the project); checked in deck order. */
  slideIds?: readonly string[]
}

/** How long one request may take before the target counts as unreachable. */
const REQUEST_TIMEOUT_MS = 30_000
/** How often a 429 is waited out, and the longest wait its `Retry-After` may ask for. */
const RATE_LIMIT_RETRIES = 5
const MAX_RETRY_WAIT_MS = 60_000

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** How long a 429's `Retry-After` (seconds, or an HTTP date) asks to wait, within bounds. */
function retryWait(response: Response): number {
  const header = response.headers.get('retry-after')
  if (header === null) return 1_000
  const seconds = Number(header)
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now()
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), MAX_RETRY_WAIT_MS) : 1_000
}

/** The error body's message (`{error, hint?}`), or the start of the text. */
function errorText(status: number, text: string): string {
  try {
    const body = JSON.parse(text) as { error?: unknown; hint?: unknown }
    if (typeof body.error === 'string') return `${status}: ${body.error}${typeof body.hint === 'string' ? ` (${body.hint})` : ''}`
  } catch {}
  return `${status}${text.trim() === '' ? '' : `: ${text.trim().slice(0, 200)}`}`
}

/** A GET of `path` below the base URL: the JSON body of a 2xx, else what `onError` says (a `TargetError` by default). */
async function getJson<T>(
  target: RemoteTarget,
  path: string,
  onError?: (status: number, text: string) => TargetError | undefined,
): Promise<T> {
  const url = `${target.baseUrl.replace(/\/+$/, '')}${path}`
  for (let attempt = 0; ; attempt++) {
    let response: Response
    try {
      response = await fetch(url, {
        headers: { accept: 'application/json', ...(target.apiKey === undefined ? {} : { authorization: `Bearer ${target.apiKey}` }) },
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      })
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause
      throw new TargetError(`cannot reach ${target.baseUrl} (GET ${path}): ${cause?.code ?? cause?.message ?? (error as Error).message}`)
    }
    const text = await response.text()
    if (response.ok) {
      try {
        return JSON.parse(text) as T
      } catch {
        throw new TargetError(
          `GET ${url} answered ${response.status} with a body that is not JSON: is ${target.baseUrl} the API's base URL?`,
        )
      }
    }
    if (response.status === 429 && attempt < RATE_LIMIT_RETRIES) {
      await sleep(retryWait(response))
      continue
    }
    const special = onError?.(response.status, text)
    if (special !== undefined) throw special
    if (response.status === 401)
      throw new TargetError(
        `${target.baseUrl} rejected the API key (${errorText(response.status, text)}): give one with --api-key or PRESENTATION_API_KEY`,
      )
    throw new TargetError(`GET ${url} answered ${errorText(response.status, text)}`)
  }
}

const slugPath = (target: RemoteTarget) => `/projects/${encodeURIComponent(target.slug)}`

/**
 * Opens the project: its slides (those asked for, each checked to exist)
 * and its config. Each slide's files are read on its turn.
 */
export async function remoteDeck(target: RemoteTarget): Promise<{ slides: DeckSlide[]; config: ProjectConfig }> {
  const notFound = (status: number, text: string) =>
    status === 404 ? new TargetError(`no project ${target.slug} at ${target.baseUrl} for this key (${errorText(status, text)})`) : undefined
  const listed = await getJson<{ slides?: SlideListItem[] }>(target, `${slugPath(target)}/slides`, notFound)
  const { config } = await getJson<{ config: ProjectConfig }>(target, `${slugPath(target)}/config`, notFound)
  const ids = (listed.slides ?? []).map((slide) => slide.id)
  let wanted = ids
  if (target.slideIds !== undefined && target.slideIds.length > 0) {
    const known = new Set(ids)
    const unknown = target.slideIds.filter((id) => !known.has(id))
    if (unknown.length > 0)
      throw new TargetError(`no slide ${unknown.join(', ')} in ${target.slug} (its slides: ${ids.length === 0 ? 'none' : ids.join(', ')})`)
    const asked = new Set(target.slideIds)
    wanted = ids.filter((id) => asked.has(id))
  }
  const slides = wanted.map(
    (slideId): DeckSlide => ({
      slideId,
      position: ids.indexOf(slideId) + 1,
      load: async () => {
        const { files } = await getJson<{ files: SlideFiles }>(
          target,
          `${slugPath(target)}/slides/${encodeURIComponent(slideId)}/files`,
          (status, text) =>
            status === 404 || status === 405
              ? new TargetError(
                  `${target.baseUrl} has no read of slide ${slideId}'s files (GET …/slides/${slideId}/files answered ${errorText(status, text)}). ` +
                    'It is an emulator extension, not part of the published API: check a deployment’s slides from folders on disk instead',
                )
              : undefined,
        )
        return { files, config }
      },
    }),
  )
  return { slides, config }
}
