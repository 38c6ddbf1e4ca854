/**
 * A fast, well-distributed string hash and the base-36 tokens made from it:
 * the one source of every derived id, slug token and seed (pure functions,
 * so the same input always gives the same token).
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
export function pushToken(codes: number[], input: string, length: number, seed: number): void {
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
