/**
 * Deterministic identifiers: every id is a pure function of the world's seed
 * and a sequence number that the world keeps (and persists with its state),
 * so the same seed and the same requests always produce the same ids, and a
 * world restored from a state document never reissues an id.
 */

import { pushToken } from '../core/hash.js'

export { hashToken } from '../core/hash.js'

/** The mutable counter behind an id factory, stored in the world's state. */
export interface Sequence {
  value: number
}

export type IdFactory = (prefix: string, length?: number) => string

/**
 * Creates an id factory: `ids('prj')` → `prj_k3x9…`. Ids are 16 base-36
 * characters (about 82 bits), so collisions are not a practical concern.
 */
export function createIdFactory(seed: number, sequence: Sequence): IdFactory {
  /** The character codes of `<prefix>_`, by prefix (a world uses a dozen prefixes, a build of one hundreds of thousands of ids). */
  const heads = new Map<string, number[]>()
  return (prefix, length = 16) => {
    sequence.value += 1
    let head = heads.get(prefix)
    if (head === undefined) heads.set(prefix, (head = Array.from(`${prefix}_`, (char) => char.charCodeAt(0))))
    // Built as one flat string (ids are hashed as map keys at once).
    const codes = head.slice()
    pushToken(codes, `${seed}:${prefix}:${sequence.value}`, length, seed)
    return String.fromCharCode(...codes)
  }
}

const NON_ASCII = /[^\x00-\x7f]/

/** A lowercase URL slug of `name`: `"Q3 Review!"` → `"q3-review"`. */
export function slugify(name: string, maxLength = 40): string {
  // Decomposing and dropping accents changes nothing in ASCII text: most names skip it.
  const slug = (NON_ASCII.test(name) ? name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '') : name)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, maxLength)
    .replace(/-+$/g, '')
  return slug.length > 0 ? slug : 'project'
}
