import { Serialized } from '../core/serialized.js'
import type { ProjectListItem } from '../schemas/index.js'
import type { ProjectRecord } from '../store/records.js'
import type { World } from '../store/world.js'
import type { Urls } from './urls.js'
import { projectListItem } from './views.js'

/** A list page kept for reuse: the records it shows, the origin of its URLs, whether more follow, its value and JSON text. */
interface KeptPage {
  records: readonly ProjectRecord[]
  origin: string
  more: boolean
  result: Serialized<object>
}

/** How many list pages a world keeps. */
const PAGE_CACHE_SIZE = 256

/**
 * The one cache of composed answers, per world: a client polling a list
 * gets the same text without the emulator composing or serialising it
 * again.
 *
 * - Each project's list item and its JSON text, by record. Records are
 *   replaced, never changed in place, on a write, so an entry holds while
 *   its record is the stored one and the public origin is the same.
 * - The last page of each project list (by user and query), reused while
 *   it would show the very same records, with the same cursor and origin.
 * - Each kept page as a `Serialized` value: the page and its JSON text,
 *   which the pipeline sends instead of serialising the value; with
 *   `validateResponses` on, it checks that the text is the value's.
 */
export class ResponseCache {
  readonly #items = new WeakMap<ProjectRecord, { origin: string; item: ProjectListItem; json: string }>()
  readonly #pages = new Map<string, KeptPage>()

  /** A project's list item and `JSON.stringify` of it. Treat the item as read-only. */
  listItem(project: ProjectRecord, urls: Urls): { item: ProjectListItem; json: string } {
    const origin = urls.origin
    const cached = this.#items.get(project)
    if (cached !== undefined && cached.origin === origin) return cached
    const item = projectListItem(project, urls)
    const entry = { origin, item, json: JSON.stringify(item) }
    this.#items.set(project, entry)
    return entry
  }

  /** The page kept under `key` if it shows exactly `records` (the same objects), for `origin`, with `more` alike. */
  page<T extends object>(key: string, records: readonly ProjectRecord[], origin: string, more: boolean): Serialized<T> | undefined {
    const kept = this.#pages.get(key)
    if (kept === undefined || kept.origin !== origin || kept.more !== more || kept.records.length !== records.length) return undefined
    for (let i = 0; i < records.length; i++) if (kept.records[i] !== records[i]) return undefined
    return kept.result as Serialized<T>
  }

  /** Keeps a page's value with its JSON text (which must be exactly `JSON.stringify(result)`), and answers it. */
  keepPage<T extends object>(
    key: string,
    records: readonly ProjectRecord[],
    origin: string,
    more: boolean,
    result: T,
    json: string,
  ): Serialized<T> {
    if (this.#pages.size >= PAGE_CACHE_SIZE) this.#pages.clear()
    const page = new Serialized(result, json)
    this.#pages.set(key, { records, origin, more, result: page })
    return page
  }
}

const caches = new WeakMap<World, ResponseCache>()

/** The response cache of `world` (made on first use; it goes with the world). */
export function responseCache(world: World): ResponseCache {
  let cache = caches.get(world)
  if (cache === undefined) caches.set(world, (cache = new ResponseCache()))
  return cache
}
