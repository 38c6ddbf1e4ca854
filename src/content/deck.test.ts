import { faker as englishFaker } from '@faker-js/faker/locale/en'
import { describe, expect, it } from 'vitest'
import { SlideContent } from '../schemas/index.js'
import { DESIGN_CONTROLS, slideComponent } from './components.js'
import * as copy from './copy.js'
import { deckDesigns, generateDeck } from './deck.js'
import { SLIDE_DESIGNS, type SlideDesign } from './designs.js'
import { createFaker } from './faker-en.js'

const LOREM = new Set(englishFaker.definitions.lorem.word.map((word) => word.toLowerCase()))

/** Every string in a value, however deep. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value]
  if (Array.isArray(value)) return value.flatMap(strings)
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(strings)
  return []
}

function words(text: string): string[] {
  return text.toLowerCase().match(/\p{L}+/gu) ?? []
}

function content(slide: { files: { 'slide.content.json': string } }): SlideContent {
  return SlideContent.parse(JSON.parse(slide.files['slide.content.json']))
}

describe('deckDesigns', () => {
  it('starts with a title, ends with a closing slide, never puts one design twice in a row, for any length', () => {
    for (let seed = 1; seed <= 40; seed++) {
      for (let count = 0; count <= 40; count++) {
        const designs = deckDesigns(count, createFaker(seed))
        expect(designs).toHaveLength(count)
        if (count === 0) continue
        expect(designs[0]).toBe('title')
        if (count >= 2) expect(designs.at(-1)).toBe('closing')
        for (let i = 1; i < designs.length; i++) expect(designs[i], `${designs.join(' ')}`).not.toBe(designs[i - 1])
        // An agenda second when at least three slides sit between the title and the closing slide, and nowhere else.
        expect(designs.indexOf('agenda')).toBe(count >= 5 ? 1 : -1)
        expect(designs.lastIndexOf('agenda')).toBe(designs.indexOf('agenda'))
      }
    }
  })

  it('uses all eight designs in a deck of eight', () => {
    for (let seed = 1; seed <= 10; seed++) expect(new Set(deckDesigns(8, createFaker(seed)))).toEqual(new Set(SLIDE_DESIGNS))
  })
})

describe('generateDeck', () => {
  it('makes 4 to 8 slides from scratch, each count for some seed', () => {
    const counts = new Set<number>()
    for (let seed = 1; seed <= 60; seed++) counts.add(generateDeck(createFaker(seed), { prompt: 'Ocean conservation' }).length)
    expect([...counts].sort()).toEqual([4, 5, 6, 7, 8])
  })

  it('keeps the designs it is given (a template’s), in order, repeats included', () => {
    const designs: SlideDesign[] = ['title', 'stats', 'stats', 'quote', 'agenda', 'image', 'title']
    const deck = generateDeck(createFaker(3), { prompt: 'Launch plan', designs })
    expect(deck.map((slide) => slide.design)).toEqual(designs)
    expect(deck.map((slide) => slide.files['slide.tsx'])).toEqual(designs.map(slideComponent))
  })

  it('is a pure function of the seed and the prompt', () => {
    const request = { prompt: 'Create a presentation about ocean conservation for high school students' }
    expect(generateDeck(createFaker(7), request)).toEqual(generateDeck(createFaker(7), request))
    expect(generateDeck(createFaker(7), request)).not.toEqual(generateDeck(createFaker(8), request))
  })

  it('writes content by the slide.content.json conventions, the prompt only there, and the same component per design', () => {
    const prompt = 'Zanzibar spice routes for museum volunteers'
    for (let seed = 1; seed <= 20; seed++) {
      for (const slide of generateDeck(createFaker(seed), { prompt, designs: SLIDE_DESIGNS })) {
        expect(() => content(slide)).not.toThrow()
        expect(slide.files['slide.tsx']).toBe(slideComponent(slide.design))
        expect(slide.files['slide.tsx']).not.toMatch(/zanzibar|spice|volunteers/i)
        expect(JSON.parse(slide.files['slide.controls.json'])).toEqual({ controls: DESIGN_CONTROLS[slide.design] })
      }
    }
  })

  it('names the topic in the title slide and in every body slide’s title; the agenda lists the sections that follow', () => {
    const deck = generateDeck(createFaker(5), { prompt: 'Onboarding guide for new engineers', designs: SLIDE_DESIGNS })
    const titles = deck.map((slide) => content(slide).title)
    expect(titles[0]).toBe('Onboarding Guide')
    for (const [index, slide] of deck.entries()) {
      if (slide.design !== 'agenda' && slide.design !== 'closing') expect(titles[index]).toMatch(/onboarding guide/i)
    }
    const agenda = content(deck[1]!).blocks[0]
    expect(agenda?.type).toBe('bullets')
    const items = agenda?.type === 'bullets' ? agenda.items : []
    expect(items).toHaveLength(5)
    for (const [i, item] of items.entries()) expect(titles[i + 2]!.toLowerCase()).toContain(item.toLowerCase())
  })

  it('draws images as data: SVG URLs in the project’s colours, with alt text and nothing that could load or run', () => {
    const seen = new Set<string>()
    for (let seed = 1; seed <= 30; seed++) {
      const [image] = generateDeck(createFaker(seed), {
        prompt: 'Maps',
        designs: ['image'],
        colors: { primary: '#123456', accent: '#abcdef' },
      })
      const block = content(image!).blocks.find((b) => b.type === 'image')
      expect(block?.type).toBe('image')
      if (block?.type !== 'image') continue
      expect(block.alt.length).toBeGreaterThan(10)
      expect(block.url.startsWith('data:image/svg+xml,')).toBe(true)
      const svg = decodeURIComponent(block.url.slice('data:image/svg+xml,'.length))
      expect(svg).toMatch(/^<svg xmlns='http:\/\/www\.w3\.org\/2000\/svg' viewBox='0 0 640 480'>.*<\/svg>$/)
      expect(svg).toContain('#123456')
      expect(svg.replace("xmlns='http://www.w3.org/2000/svg'", '')).not.toMatch(
        /script|href|http|url\(|on\w+=|<text|<image|<foreignObject/i,
      )
      seen.add(block.alt)
    }
    expect(seen.size).toBe(4)
  })
})

describe('the copy', () => {
  it('has no word of faker’s lorem list in any of its texts', () => {
    const texts = strings(Object.entries(copy).filter(([, value]) => typeof value !== 'function'))
    expect(texts.length).toBeGreaterThan(100)
    const lorem = texts.flatMap((text) =>
      words(text)
        .filter((word) => LOREM.has(word))
        .map((word) => `${word} (in "${text}")`),
    )
    expect(lorem).toEqual([])
  })

  it('writes no lorem word in any slide of any design, alt texts included, for a prompt without one', () => {
    for (let seed = 1; seed <= 40; seed++) {
      for (const slide of generateDeck(createFaker(seed), { prompt: 'Warehouse robotics rollout', designs: SLIDE_DESIGNS })) {
        const { title, blocks } = content(slide)
        const text = strings([title, blocks.map((block) => (block.type === 'image' ? block.alt : block))])
        expect(text.flatMap(words).filter((word) => LOREM.has(word))).toEqual([])
      }
    }
  })
})
