import type { Faker } from '@faker-js/faker'
import { faker as englishFaker } from '@faker-js/faker/locale/en'

/**
 * faker's own class, reached through its English instance: importing it from
 * the package's main entry would load every locale faker ships in Node
 * (about a second on a busy machine), where `locale/en` loads one.
 */
const FakerClass = englishFaker.constructor as typeof Faker

/**
 * A new, independently seeded faker on faker's English locale as published
 * (the definitions of `@faker-js/faker/locale/en`: `en` over `base`), so each
 * world and each generation job has its own random stream. The package's
 * bundles carry faker unchanged, in a chunk loaded on first use
 * (`random.ts`'s `loadFaker`): what the tests run is what users run.
 */
export function createFaker(seed: number): Faker {
  const faker = new FakerClass({ locale: englishFaker.rawDefinitions })
  faker.seed(seed)
  return faker
}
