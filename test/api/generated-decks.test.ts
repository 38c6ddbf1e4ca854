/**
 * What generation writes, measured the way a user gets it: decks generated
 * through the API, read back from the state, every slide's component
 * rendered (in this test process, with sucrase and react-dom/server: our
 * own generated code, never a user's) with its content and its controls'
 * defaults as props.
 */
import { faker as englishFaker } from '@faker-js/faker/locale/en'
import { describe, expect, it } from 'vitest'
import { DESIGN_CONTROLS, slideComponent } from '../../src/content/components.js'
import { generateDeck } from '../../src/content/deck.js'
import { createFaker } from '../../src/content/faker-en.js'
import { SLIDE_DESIGNS, type SlideDesign } from '../../src/content/designs.js'
import { SLIDE_BASE_CSS } from '../../src/content/slide-styles.js'
import { createEmulator } from '../../src/index.js'
import { SlideContent, type SlideFiles } from '../../src/schemas/index.js'
import { renderSlide } from '../support/render-slide.js'

const KEY = 'pres_decks'
const FIXTURES = {
  format: 'presentation-emulator/fixtures@1',
  users: [{ id: 'u1', name: 'Dana Decks' }],
  teams: [{ id: 't1', slug: 'decks', name: 'Decks', personalOf: 'u1', members: ['u1'], credits: 100 }],
  apiKeys: [{ key: KEY, userId: 'u1' }],
  projects: [],
}

/** Five fixed prompts, each with its leading noun phrase as a reader names it. */
const PROMPTS = [
  { prompt: 'Quarterly business review for the Northwind logistics team', phrase: 'quarterly business review' },
  { prompt: 'Create a presentation about ocean conservation for high school students', phrase: 'ocean conservation' },
  { prompt: 'Onboarding guide for new engineers joining the platform team', phrase: 'onboarding guide' },
  { prompt: 'Make a short deck on remote work policies, benefits and risks', phrase: 'remote work policies' },
  { prompt: 'The history of jazz in New Orleans. Keep it light and visual.', phrase: 'history of jazz' },
]

/** English stopwords, and the words that ask for a deck rather than say what it is about. */
const STOPWORDS = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both but by can ' +
    'could did do does doing down during each few for from further had has have having he her here hers herself him himself his ' +
    'how i if in into is it its itself just keep let me more most my myself no nor not now of off on once only or other our ours ' +
    'ourselves out over own same she should so some such than that the their theirs them themselves then there these they this ' +
    'those through to too under until up very was we were what when where which while who whom why will with would you your ' +
    'yours yourself yourselves create make build generate write prepare deck slides slide presentation short'
  ).split(' '),
)

const LOREM = new Set(englishFaker.definitions.lorem.word.map((word) => word.toLowerCase()))
const COMPONENT_DESIGN = new Map(SLIDE_DESIGNS.map((design) => [slideComponent(design), design]))

const words = (text: string) => text.toLowerCase().match(/\p{L}+/gu) ?? []

interface Deck {
  prompt: string
  slides: Array<{ files: SlideFiles; design: SlideDesign | undefined }>
}

type State = {
  slides: Array<{ projectId: string; position: number; files: SlideFiles }>
  templates: Array<{ id: string; slides: Array<{ design: SlideDesign; files: SlideFiles }> }>
  projects: Array<{ id: string; config: { theme?: { colors: { default: { primary: string } } } } }>
}

async function emulatorWithSeed(seed: number) {
  const emulator = createEmulator({ seed, fixtures: FIXTURES as never, clock: 'manual', rateLimit: 0 })
  await emulator.ready()
  return emulator
}

type Emulator = Awaited<ReturnType<typeof emulatorWithSeed>>

/** Generates a deck through the API and completes its job; answers the project id. */
async function generate(emulator: Emulator, body: { prompt: string; templateId?: string }): Promise<string> {
  const reply = await emulator.fetch('http://127.0.0.1:4010/v1/projects/generate', {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  expect(reply.status).toBe(200)
  const job = (await reply.json()) as { jobId: string; projectId: string }
  expect((await emulator.control.completeJob(job.jobId)).status).toBe('completed')
  return job.projectId
}

async function state(emulator: Emulator): Promise<State> {
  return (await emulator.control.getState()) as unknown as State
}

function slidesOf(doc: State, projectId: string): Deck['slides'] {
  return doc.slides
    .filter((slide) => slide.projectId === projectId)
    .sort((a, b) => a.position - b.position)
    .map((slide) => ({ files: slide.files, design: COMPONENT_DESIGN.get(slide.files['slide.tsx']) }))
}

const contentOf = (files: SlideFiles) => SlideContent.parse(JSON.parse(files['slide.content.json']))

/** Every text a reader sees on the slide (an image's alt text included, not its URL). */
function textsOf(files: SlideFiles): string[] {
  const { title, blocks } = contentOf(files)
  return [
    title,
    ...blocks.flatMap((block) => {
      if (block.type === 'bullets') return block.items
      if (block.type === 'quote') return [block.text, block.author ?? '']
      if (block.type === 'stat') return [String(block.value), block.label]
      if (block.type === 'image') return [block.alt]
      return [block.text]
    }),
  ]
}

/** Seeds 1 to 20, the five prompts each: 100 decks, generated once for the whole file. */
const measured = (async () => {
  const decks: Deck[] = []
  for (let seed = 1; seed <= 20; seed++) {
    const emulator = await emulatorWithSeed(seed)
    const ids: Array<[string, string]> = []
    for (const { prompt } of PROMPTS) ids.push([prompt, await generate(emulator, { prompt })])
    const doc = await state(emulator)
    for (const [prompt, id] of ids) decks.push({ prompt, slides: slidesOf(doc, id) })
  }
  return decks
})()

describe('generated decks, over seeds 1 to 20 and five prompts', () => {
  it('are 4 to 8 slides of the eight designs: a title first, a closing slide last, no two neighbours alike', async () => {
    const decks = await measured
    expect(decks).toHaveLength(100)
    const used = new Set<SlideDesign>()
    for (const { slides } of decks) {
      expect(slides.length).toBeGreaterThanOrEqual(4)
      expect(slides.length).toBeLessThanOrEqual(8)
      const designs = slides.map((slide) => slide.design)
      // Every slide.tsx is one of the eight generated components, byte for byte (so no prompt text is in any).
      expect(designs.every((design) => design !== undefined)).toBe(true)
      expect(designs[0]).toBe('title')
      expect(designs.at(-1)).toBe('closing')
      for (let i = 1; i < designs.length; i++) expect(designs[i]).not.toBe(designs[i - 1])
      for (const slide of slides) {
        used.add(slide.design!)
        expect(JSON.parse(slide.files['slide.controls.json'])).toEqual({ controls: DESIGN_CONTROLS[slide.design!] })
      }
    }
    expect([...used].sort()).toEqual([...SLIDE_DESIGNS].sort())
  })

  it('render without error, each component with its content and its controls’ defaults', async () => {
    const rendered = new Set<string>()
    for (const { slides } of await measured) {
      for (const { files, design } of slides) {
        const html = renderSlide(files)
        expect(html).toMatch(new RegExp(`^<section class="slide slide--${design}[ "]`))
        const { title } = contentOf(files)
        expect(html).toContain(title.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'))
        for (const [, classes] of html.matchAll(/class="([^"]*)"/g)) for (const name of classes!.split(' ')) rendered.add(name)
      }
    }
    // Every class the components render is one the base stylesheet styles (designs aside: they only select).
    const unstyled = [...rendered].filter((name) => !SLIDE_BASE_CSS.includes(`.${name}`) && !/^slide--(?:content|split|stats)$/.test(name))
    expect(unstyled).toEqual([])
  })

  it('title the first slide with the prompt’s leading noun phrase', async () => {
    for (const { prompt, slides } of await measured) {
      const { phrase } = PROMPTS.find((p) => p.prompt === prompt)!
      expect(contentOf(slides[0]!.files).title.toLowerCase()).toContain(phrase)
    }
  })

  it('name a word of the prompt (not a stopword) in at least half of the titles', async () => {
    for (const { prompt, slides } of await measured) {
      const promptWords = new Set(words(prompt).filter((word) => !STOPWORDS.has(word)))
      const titles = slides.map((slide) => contentOf(slide.files).title)
      const naming = titles.filter((title) => words(title).some((word) => promptWords.has(word)))
      expect(naming.length * 2, titles.join(' | ')).toBeGreaterThanOrEqual(titles.length)
    }
  })

  it('contain no word of faker’s lorem list, except words the prompt itself has', async () => {
    for (const { prompt, slides } of await measured) {
      const promptWords = new Set(words(prompt))
      for (const { files } of slides) {
        const lorem = textsOf(files)
          .flatMap(words)
          .filter((word) => LOREM.has(word) && !promptWords.has(word))
        expect(lorem, files['slide.content.json']).toEqual([])
      }
    }
  })

  it('show only data: images, never a remote one', async () => {
    let images = 0
    for (const { slides } of await measured) {
      for (const { files } of slides) {
        for (const block of contentOf(files).blocks) {
          if (block.type !== 'image') continue
          images++
          expect(block.url).toMatch(/^data:image\/svg\+xml,/)
        }
        expect(files['slide.content.json']).not.toMatch(/https?:\/\/(?!www\.w3\.org\/2000\/svg)/)
      }
    }
    expect(images).toBeGreaterThan(20)
  })
})

describe('generation', () => {
  it('is deterministic: the same seed and the same requests give the same files', async () => {
    const files = async () => {
      const emulator = await emulatorWithSeed(4)
      const ids = [await generate(emulator, { prompt: PROMPTS[0]!.prompt }), await generate(emulator, { prompt: PROMPTS[1]!.prompt })]
      const doc = await state(emulator)
      return ids.map((id) => slidesOf(doc, id).map((slide) => slide.files))
    }
    const [first, second] = [await files(), await files()]
    expect(first).toEqual(second)
    expect(first[0]).not.toEqual(first[1])
  })

  it('from a template keeps its designs, components and controls, with new content from the prompt, in the project’s colours', async () => {
    const emulator = await emulatorWithSeed(2)
    const { templateId } = await emulator.control.createTemplate({ teamId: 't1', name: 'House style', slideCount: 30 })
    const id = await generate(emulator, { prompt: PROMPTS[1]!.prompt, templateId })
    const doc = await state(emulator)
    const template = doc.templates.find((t) => t.id === templateId)!
    const slides = slidesOf(doc, id)
    expect(slides).toHaveLength(30)
    expect(slides.map((slide) => slide.design)).toEqual(template.slides.map((slide) => slide.design))
    expect(new Set(template.slides.map((slide) => slide.design))).toEqual(new Set(SLIDE_DESIGNS))
    for (const [index, slide] of slides.entries()) {
      expect(slide.files['slide.tsx']).toBe(template.slides[index]!.files['slide.tsx'])
      expect(slide.files['slide.controls.json']).toBe(template.slides[index]!.files['slide.controls.json'])
      expect(() => renderSlide(slide.files)).not.toThrow()
    }
    expect(contentOf(slides[0]!.files).title).toBe('Ocean Conservation')
    const primary = doc.projects.find((p) => p.id === id)!.config.theme!.colors.default.primary
    const images = slides.flatMap(({ files }) => contentOf(files).blocks.filter((block) => block.type === 'image'))
    expect(images.length).toBeGreaterThan(0)
    for (const image of images) expect(image.type === 'image' && image.url).toContain(primary.replace('#', '%23'))
  })
})

describe('generated components', () => {
  /** Content an agent may leave behind: empty, of another shape, blocks missing fields. */
  const ODD_CONTENT = [
    {},
    { title: '', blocks: [] },
    { title: 42, blocks: 'none' },
    {
      title: 'T',
      blocks: [null, 7, { type: 'bullets' }, { type: 'bullets', items: 'x' }, { type: 'stat' }, { type: 'image' }, { type: 'quote' }],
    },
    { title: 'T', blocks: [{ type: 'heading' }, { type: 'text' }, { type: 'heading', text: 'H' }, { type: 'bullets', items: [1, 'two'] }] },
  ]

  it('render whatever content they are given, without props too', () => {
    for (const design of SLIDE_DESIGNS) {
      for (const content of ODD_CONTENT) {
        const files = {
          'slide.tsx': slideComponent(design),
          'slide.content.json': JSON.stringify(content),
          'slide.controls.json': JSON.stringify({ controls: DESIGN_CONTROLS[design] }),
        }
        expect(renderSlide(files), `${design} ${JSON.stringify(content)}`).toMatch(
          new RegExp(`^<section class="slide slide--${design}[ "]`),
        )
        expect(renderSlide(files, {})).toMatch(/^<section /)
      }
    }
  })

  it('apply their props: alignment, list columns, image side, toggles, the accent as --slide-accent', () => {
    const render = (design: SlideDesign, props: Record<string, unknown>) =>
      renderSlide(generateDeck(createFaker(1), { prompt: 'Harbour logistics', designs: [design] })[0]!.files, props)
    expect(render('title', { align: 'center', decor: false, accent: '#ff0000' })).toMatch(
      /^<section class="slide slide--title slide--centered" style="--slide-accent:#ff0000">(?!.*slide__decor)/,
    )
    expect(render('title', {})).toContain('slide__decor')
    expect(render('content', { listColumns: 2 })).toContain('slide__list slide__list--two')
    expect(render('image', { imageSide: 'left' })).toContain('slide__media slide__media--reverse')
    expect(render('agenda', { numbered: false })).not.toContain('>01<')
    expect(render('agenda', { numbered: true })).toContain('>01<')
    expect(render('closing', { showContact: false })).not.toContain('slide__contact')
  })
})

describe('the seeded world', () => {
  it('has only generated components (or a blank slide) in its projects and templates, and every slide renders', async () => {
    const emulator = createEmulator({ clock: 'manual' })
    await emulator.ready()
    const doc = await state(emulator)
    const files = [...doc.slides.map((slide) => slide.files), ...doc.templates.flatMap((t) => t.slides.map((slide) => slide.files))]
    expect(files.length).toBeGreaterThan(100)
    for (const slideFiles of files) {
      expect(COMPONENT_DESIGN.has(slideFiles['slide.tsx'])).toBe(true)
      expect(() => renderSlide(slideFiles)).not.toThrow()
    }
  })
})
