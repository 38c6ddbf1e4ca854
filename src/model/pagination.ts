import { fail } from '../core/errors.js'
import type { RecencyKey } from '../store/recency-index.js'

/** What a cursor points into; a cursor of one list is rejected by another. */
export type CursorKind = 'projects' | 'templates'

const TAGS: Record<CursorKind, string> = { projects: 'p', templates: 't' }

function toBase64Url(text: string): string {
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

function fromBase64Url(text: string): string {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) throw new Error('not base64url')
  return atob(text.replace(/-/g, '+').replace(/_/g, '/'))
}

/**
 * An opaque keyset cursor: the position (`updatedAt`, `id`) of the last item
 * of a page. The next page starts strictly after it, so items created or
 * removed between pages never cause another item to be skipped or repeated.
 */
export function encodeCursor(kind: CursorKind, key: RecencyKey): string {
  return toBase64Url(JSON.stringify([TAGS[kind], key.at, key.id]))
}

/** Decodes a cursor of `kind`, or throws a 400 that says it is not one. */
export function decodeCursor(kind: CursorKind, cursor: string): RecencyKey {
  try {
    const value: unknown = JSON.parse(fromBase64Url(cursor))
    if (
      Array.isArray(value) &&
      value.length === 3 &&
      value[0] === TAGS[kind] &&
      typeof value[1] === 'string' &&
      !Number.isNaN(Date.parse(value[1])) &&
      typeof value[2] === 'string'
    ) {
      return { at: value[1], id: value[2] }
    }
  } catch {
    // fall through to the 400 below
  }
  throw fail.validation(`cursor: not a cursor returned by this list (pass nextCursor of the previous page)`)
}

/**
 * Takes up to `limit` items from an ordered stream of keys, skipping those
 * `accept` rejects, and says whether more remain.
 */
export function takePage<T>(
  keys: Iterable<RecencyKey>,
  limit: number,
  load: (key: RecencyKey) => T | undefined,
): { items: T[]; last: RecencyKey | undefined; more: boolean } {
  const items: T[] = []
  let last: RecencyKey | undefined
  for (const key of keys) {
    const item = load(key)
    if (item === undefined) continue
    if (items.length === limit) return { items, last, more: true }
    items.push(item)
    last = key
  }
  return { items, last, more: false }
}
