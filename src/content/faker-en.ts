import type { Faker } from '@faker-js/faker'
import { faker as englishFaker } from '@faker-js/faker/locale/en'

/**
 * The parts of faker's English definitions the emulator's content draws
 * from (person names, company phrases, lorem words), by module and entry.
 * The package's bundles carry only these (`scripts/build.ts` replaces the
 * full locale by them), which keeps most of faker's data out of a browser
 * bundle; a test checks that a faker built on them draws exactly what the
 * full locale draws.
 */
export const FAKER_DEFINITIONS = {
  metadata: 'all',
  company: ['adjective', 'descriptor', 'noun', 'buzz_verb', 'buzz_adjective', 'buzz_noun'],
  lorem: ['word'],
  person: ['first_name', 'last_name', 'last_name_pattern', 'name', 'prefix', 'suffix'],
} as const

/**
 * The faker modules the emulator's content calls (directly, or through
 * another of these: `internet.email` draws a person's name). The package's
 * bundles build only these (`scripts/build.ts`); the sources use faker whole.
 */
export const FAKER_MODULES = ['color', 'company', 'datatype', 'helpers', 'internet', 'lorem', 'number', 'person', 'string'] as const

/** The entries of `FAKER_DEFINITIONS`, taken from a locale's definitions. */
export function pickDefinitions(raw: Record<string, unknown>): Record<string, unknown> {
  const picked: Record<string, unknown> = {}
  for (const [name, keys] of Object.entries(FAKER_DEFINITIONS)) {
    const module = raw[name] as Record<string, unknown> | undefined
    if (module === undefined) continue
    picked[name] = keys === 'all' ? module : Object.fromEntries(keys.filter((key) => key in module).map((key) => [key, module[key]]))
  }
  return picked
}

const definitions = pickDefinitions(englishFaker.rawDefinitions as Record<string, unknown>)

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
