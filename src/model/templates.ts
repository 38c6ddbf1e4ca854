import { generateConfig } from '../content/config.js'
import type { Faker } from '../content/random.js'
import { loadDeckGenerator } from '../content/slides.js'
import type { TemplateRecord } from '../store/records.js'
import type { World } from '../store/world.js'
import { illustrationColors } from './generation.js'

export interface NewTemplate {
  teamId: string
  name: string
  slideCount: number
  at: string
  id?: string
  screenshotUrl?: string | null
}

/**
 * Creates a team template: a seeded config, and `slideCount` slides
 * generated from its name, whose designs (a title first, a closing slide
 * last) every deck generated from it keeps. `faker` is the template's own
 * stream: its config, then its slides.
 */
export async function createTemplate(world: World, faker: Faker, input: NewTemplate): Promise<TemplateRecord> {
  const { generateDeck } = await loadDeckGenerator()
  const config = generateConfig(faker)
  const slides = generateDeck(faker, { prompt: input.name, count: input.slideCount, colors: illustrationColors(config) })
  return world.templates.insert({
    id: input.id ?? world.ids('tpl'),
    teamId: input.teamId,
    name: input.name,
    screenshotUrl: input.screenshotUrl ?? null,
    createdAt: input.at,
    updatedAt: input.at,
    config,
    slides,
  })
}
