import { base, en, Faker } from '@faker-js/faker'

/**
 * A new, independently seeded faker on faker's English locale as published
 * (`en` over `base`, the same definitions `@faker-js/faker/locale/en`'s
 * `faker` uses), so each world and each generation job has its own random
 * stream. The package's bundles carry faker unchanged, in a chunk loaded on
 * first use (`random.ts`'s `loadFaker`): what the tests run is what users run.
 */
export function createFaker(seed: number): Faker {
  const faker = new Faker({ locale: [en, base] })
  faker.seed(seed)
  return faker
}
