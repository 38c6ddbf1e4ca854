import { generateConfig } from '../content/config.js'
import type { Faker } from '../content/random.js'
import { generateContent, slideFiles, slideName, type SlideDesign } from '../content/slides.js'
import type { TemplateRecord } from '../store/records.js'
import type { World } from '../store/world.js'

/** The designs of a template's slides: a title, body slides, a closing slide. */
export function templateDesigns(count: number): SlideDesign[] {
  const body: SlideDesign[] = ['content', 'stats', 'split', 'quote']
  if (count === 1) return ['title']
  return Array.from({ length: count }, (_, i) => (i === 0 ? 'title' : i === count - 1 ? 'closing' : body[(i - 1) % body.length]!))
}

export interface NewTemplate {
  teamId: string
  name: string
  slideCount: number
  at: string
  id?: string
  screenshotUrl?: string | null
}

/** Creates a team template with seeded slides (its design) and config. */
export function createTemplate(world: World, faker: Faker, input: NewTemplate): TemplateRecord {
  const designs = templateDesigns(input.slideCount)
  return world.templates.insert({
    id: input.id ?? world.ids('tpl'),
    teamId: input.teamId,
    name: input.name,
    screenshotUrl: input.screenshotUrl ?? null,
    createdAt: input.at,
    updatedAt: input.at,
    config: generateConfig(faker),
    slides: designs.map((design, index) => {
      const content = generateContent(faker, design, input.name)
      return { name: slideName(content, index), design, files: slideFiles(design, content) }
    }),
  })
}
