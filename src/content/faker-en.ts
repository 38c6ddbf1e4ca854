import type { Faker } from '@faker-js/faker'
import { faker as englishFaker } from '@faker-js/faker/locale/en'

/**
 * The parts of faker's English definitions the emulator's content uses
 * (names, company phrases, lorem words, e-mail addresses). The package's
 * bundles carry only these (`scripts/build.ts` replaces the full locale by
 * them), which keeps faker's data out of a browser bundle; a test checks
 * that a faker built on them draws exactly what the full locale draws.
 */
export const FAKER_MODULES = ['metadata', 'company', 'lorem', 'person', 'internet'] as const

const definitions: Record<string, unknown> = {}
for (const name of FAKER_MODULES) {
  const module = (englishFaker.rawDefinitions as Record<string, unknown>)[name]
  if (module !== undefined) definitions[name] = module
}

const FakerClass = englishFaker.constructor as new (options: { locale: Faker['rawDefinitions'] }) => Faker

/**
 * A new, independently seeded faker on the English definitions above, so
 * each world (and each generation job) has its own random stream.
 */
export function createFaker(seed: number): Faker {
  const faker = new FakerClass({ locale: definitions as Faker['rawDefinitions'] })
  faker.seed(seed)
  return faker
}
