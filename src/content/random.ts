import type { Faker } from '@faker-js/faker'
import { hashToken } from '../core/hash.js'

/** Makes a new faker seeded with `seed`. */
export type FakerFactory = (seed: number) => Faker

let factory: Promise<FakerFactory> | undefined

/**
 * Loads faker on first use. Only generated content needs it (a world built
 * from fixtures, a completed generation job, a new template), so importing
 * the package, starting the default world and answering requests never
 * load it.
 */
export function loadFaker(): Promise<FakerFactory> {
  factory ??= import('./faker-en.js').then((module) => module.createFaker)
  return factory
}

/** A 31-bit integer seed derived from any string (for per-record faker streams). */
export function seedFrom(input: string): number {
  return Number.parseInt(hashToken(input, 6), 36) & 0x7fffffff
}

export type { Faker }
