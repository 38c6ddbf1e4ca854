import type { Faker } from '@faker-js/faker'
import { faker as englishFaker } from '@faker-js/faker/locale/en'
import { hashToken } from '../store/ids.js'

/**
 * A new, independently seeded faker with the English locale only.
 *
 * `@faker-js/faker/locale/en` exports one shared instance; building a new
 * instance from its class and definitions gives each world (and each
 * generation job) its own random stream without loading every locale, which
 * roughly halves the emulator's cold start.
 */
export function createFaker(seed: number): Faker {
  const FakerClass = englishFaker.constructor as new (options: {
    locale: Faker['rawDefinitions']
  }) => Faker
  const faker = new FakerClass({ locale: englishFaker.rawDefinitions })
  faker.seed(seed)
  return faker
}

/** A 31-bit integer seed derived from any string (for per-record faker streams). */
export function seedFrom(input: string): number {
  return Number.parseInt(hashToken(input, 6), 36) & 0x7fffffff
}

export type { Faker }
