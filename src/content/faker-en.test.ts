import type { Faker } from '@faker-js/faker'
import { faker as englishFaker } from '@faker-js/faker/locale/en'
import { describe, expect, it } from 'vitest'
import { generateConfig } from './config.js'
import { createFaker } from './faker-en.js'
import { generateDeck } from './deck.js'
import { SLIDE_DESIGNS } from './slides.js'

/** Everything the emulator draws from a faker, in the order a world build and a job draw it. */
function draw(faker: Faker): unknown[] {
  const out: unknown[] = [faker.company.catchPhrase(), generateConfig(faker)]
  out.push(generateDeck(faker, { prompt: 'Topic', designs: SLIDE_DESIGNS }), generateDeck(faker, { prompt: 'Topic' }))
  return out
}

describe('the English subset of faker the package bundles', () => {
  it('draws exactly what the full English locale draws, for every kind of content', () => {
    const Full = englishFaker.constructor as new (options: { locale: Faker['rawDefinitions'] }) => Faker
    for (let seed = 0; seed < 40; seed++) {
      const full = new Full({ locale: englishFaker.rawDefinitions })
      full.seed(seed)
      expect(draw(createFaker(seed))).toEqual(draw(full))
    }
  })
})
