/** A small seeded PRNG (mulberry32), so generated inputs replay with `--seed`. */
export class Rng {
  #state: number

  constructor(seed: number) {
    this.#state = seed >>> 0 || 0x9e3779b9
  }

  /** A float in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0
    let t = this.#state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1))
  }

  /** `length` characters of [a-z0-9]. */
  token(length: number): string {
    const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789'
    let out = ''
    for (let i = 0; i < length; i++) out += alphabet[this.int(0, alphabet.length - 1)]
    return out
  }

  /** A derived generator, independent of later draws of this one. */
  fork(label: string): Rng {
    let hash = this.#state
    for (const char of label) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0
    return new Rng(hash)
  }
}

/** A random seed for a run that was given none. */
export function randomSeed(): number {
  return Math.floor(Math.random() * 2 ** 31)
}

/**
 * A run's id: six characters of [a-z0-9], fresh for every run, seed or not.
 * The seed fixes a run's inputs; the id names what it creates
 * (`conformance-<run id> …`), so two runs with one seed never collide.
 */
export function newRunId(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789'
  const bytes = crypto.getRandomValues(new Uint8Array(6))
  return [...bytes].map((b) => alphabet[b % alphabet.length]).join('')
}

/** What `--run-id` takes: 1 to 12 characters of [a-z0-9] (it starts every name the run creates). */
export const RUN_ID = /^[a-z0-9]{1,12}$/
