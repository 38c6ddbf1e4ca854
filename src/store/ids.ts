/**
 * Deterministic identifiers: every id is a pure function of the world's seed
 * and a sequence number that the world keeps (and persists with its state),
 * so the same seed and the same requests always produce the same ids, and a
 * world restored from a state document never reissues an id.
 */

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz'

/** cyrb53: a fast, well-distributed 53-bit string hash. */
function cyrb53(input: string, seed: number): number {
  let h1 = 0xdeadbeef ^ seed
  let h2 = 0x41c6ce57 ^ seed
  for (let i = 0; i < input.length; i++) {
    const ch = input.charCodeAt(i)
    h1 = Math.imul(h1 ^ ch, 2654435761)
    h2 = Math.imul(h2 ^ ch, 1597334677)
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507)
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507)
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  return 4294967296 * (2097151 & h2) + (h1 >>> 0)
}

const CODES = Array.from(ALPHABET, (char) => char.charCodeAt(0))

/**
 * Appends to `codes` the character codes of a token of `length` base-36
 * characters derived from `input`: ten digits of a cyrb53 hash per round,
 * least significant first.
 */
function pushToken(codes: number[], input: string, length: number, seed: number): void {
  const end = codes.length + length
  for (let round = 0; codes.length < end; round++) {
    let rest = cyrb53(input, seed + round * 0x9e3779b1)
    for (let i = 0; i < 10 && codes.length < end; i++) {
      codes.push(CODES[rest % 36]!)
      rest = Math.floor(rest / 36)
    }
  }
}

/** A deterministic token of `length` base-36 characters derived from `input`. */
export function hashToken(input: string, length: number, seed = 0): string {
  const codes: number[] = []
  pushToken(codes, input, length, seed)
  return String.fromCharCode(...codes)
}

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
