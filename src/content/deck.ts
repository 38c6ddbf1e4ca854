/**
 * The deck generator: from a prompt (or a template's or fixture project's
 * name) and a seeded faker, the three files of every slide. Loaded on first
 * use (`loadDeckGenerator`), like faker: only a completed job, a new
 * template and a world built from fixtures need it.
 *
 * - Designs: a deck from scratch starts with a title slide and ends with a
 *   closing slide; an agenda follows the title when at least three slides
 *   sit between them; the body designs come in a seeded order, each once
 *   before any repeats, so no two neighbours share a design. A template's
 *   designs are given and kept.
 * - Text: English sentences from `copy.ts` around the prompt's topic
 *   (`prompt.ts`); the title slide's title is the prompt's leading noun
 *   phrase, every body slide's title names it. Prompt text goes into
 *   `slide.content.json` only; `slide.tsx` is the same for every slide of a
 *   design (`components.ts`).
 * - Images: seeded SVG illustrations as `data:` URLs in the project's colours.
 *
 * Everything is drawn from the faker given, in a fixed order: the same seed
 * and prompt give the same files.
 *
 * This module and those it imports share no code with what the emulator
 * loads at start (only types): a shared module would become a chunk of its
 * own that every browser fetches before its first answer.
 */
import type { Faker } from '@faker-js/faker'
import type { SlideContent, SlideFiles } from '../schemas/index.js'
import { slideComponent, slideControls } from './components.js'
import * as copy from './copy.js'
import type { SlideDesign } from './designs.js'
import { illustration, type IllustrationColors } from './illustration.js'
import { capitalizeFirst, readTopic, type Topic } from './prompt.js'

/** The designs between the title (and agenda) and the closing slide, in a seeded order per deck. */
const BODY_DESIGNS = ['content', 'split', 'stats', 'image', 'quote'] as const satisfies readonly SlideDesign[]

/** The fewest body slides for which a deck gets an agenda. */
const AGENDA_FROM = 3
/** An agenda lists at most this many sections. */
const AGENDA_MAX = 6

/**
 * The designs of a deck of `count` slides: title first, closing last, an
 * agenda second when the deck is long enough, the body designs in a seeded
 * order between them (cycled when there are more slides than designs), so
 * no two neighbours share a design.
 */
export function deckDesigns(count: number, faker: Faker): SlideDesign[] {
  if (count <= 0) return []
  if (count === 1) return ['title']
  const body = faker.helpers.shuffle([...BODY_DESIGNS])
  const between = count - 2
  const designs: SlideDesign[] = ['title']
  if (between >= AGENDA_FROM) designs.push('agenda')
  for (let i = 0; designs.length < count - 1; i++) designs.push(body[i % body.length]!)
  designs.push('closing')
  return designs
}

/** A list drawn without repeats until it runs out, then again in the same order. */
class Bag<T> {
  private readonly items: T[]
  private next = 0
  constructor(faker: Faker, items: readonly T[]) {
    this.items = faker.helpers.shuffle([...items])
  }
  take(): T {
    const item = this.items[this.next % this.items.length]!
    this.next++
    return item
  }
  takeMany(count: number): T[] {
    return Array.from({ length: Math.min(count, this.items.length) }, () => this.take())
  }
}

/** Writes the content of each design, drawing every list without repeats across the deck. */
class DeckWriter {
  private readonly bags = new Map<readonly unknown[], Bag<unknown>>()

  constructor(
    private readonly faker: Faker,
    private readonly topic: Topic,
    private readonly colors: IllustrationColors,
  ) {}

  /** The deck's bag of `items` (made, and shuffled, on first use). */
  private bag<T>(items: readonly T[]): Bag<T> {
    let bag = this.bags.get(items)
    if (bag === undefined) {
      bag = new Bag(this.faker, items)
      this.bags.set(items, bag)
    }
    return bag as Bag<T>
  }

  private fill(template: string): string {
    return copy.fill(template, this.topic)
  }

  private written(titles: readonly string[]): string {
    return this.fill(this.bag(titles).take())
  }

  content(design: Exclude<SlideDesign, 'agenda'>): SlideContent {
    const faker = this.faker
    switch (design) {
      case 'title':
        return {
          title: this.topic.title,
          blocks: [
            { type: 'heading', text: this.bag(copy.TITLE_KICKERS).take() },
            { type: 'text', text: this.topic.rest === '' ? this.bag(copy.TITLE_SUBTITLES).take() : this.topic.rest },
          ],
        }
      case 'content': {
        const title = this.written(copy.CONTENT_TITLES)
        const lead = this.fill(this.bag(copy.CONTENT_LEADS).take())
        const items = this.bag(copy.CONTENT_BULLETS).takeMany(faker.number.int({ min: 3, max: 5 }))
        const takeaway = faker.datatype.boolean() ? [{ type: 'text' as const, text: this.bag(copy.CONTENT_TAKEAWAYS).take() }] : []
        return { title, blocks: [{ type: 'text', text: lead }, { type: 'bullets', items }, ...takeaway] }
      }
      case 'split': {
        const pair = this.bag(copy.SPLIT_PAIRS).take()
        return {
          title: this.fill(pair.title),
          blocks: pair.columns.flatMap((column) => [
            { type: 'heading' as const, text: column.heading },
            { type: 'text' as const, text: column.text },
            { type: 'bullets' as const, items: [...column.points] },
          ]),
        }
      }
      case 'quote': {
        const author = `${this.bag(copy.FIRST_NAMES).take()} ${this.bag(copy.LAST_NAMES).take()}, ${this.bag(copy.ROLES).take()}`
        return {
          title: this.written(copy.QUOTE_TITLES),
          blocks: [{ type: 'quote', text: this.fill(this.bag(copy.QUOTES).take()), author }],
        }
      }
      case 'stats':
        return {
          title: this.written(copy.STATS_TITLES),
          blocks: [
            { type: 'text', text: this.bag(copy.STATS_LEADS).take() },
            ...this.bag(copy.STATS)
              .takeMany(3)
              .map(({ value, label }) => {
                const number =
                  value.decimals === undefined
                    ? String(faker.number.int({ min: value.min, max: value.max }))
                    : faker.number.float({ min: value.min, max: value.max, fractionDigits: value.decimals }).toFixed(value.decimals)
                return { type: 'stat' as const, value: `${number}${value.suffix}`, label }
              }),
          ],
        }
      case 'image': {
        const title = this.written(copy.IMAGE_TITLES)
        const lead = this.fill(this.bag(copy.IMAGE_LEADS).take())
        const items = this.bag(copy.IMAGE_POINTS).takeMany(faker.number.int({ min: 2, max: 3 }))
        const image = illustration(faker, this.colors)
        return {
          title,
          blocks: [
            { type: 'text', text: lead },
            { type: 'bullets', items },
            { type: 'image', url: image.url, alt: image.alt },
          ],
        }
      }
      case 'closing':
        return {
          title: this.bag(copy.CLOSING_TITLES).take(),
          blocks: [
            { type: 'text', text: this.fill(this.bag(copy.CLOSING_LINES).take()) },
            { type: 'text', text: this.bag(copy.CONTACTS).take() },
          ],
        }
    }
  }

  /**
   * An agenda listing `sections` (the titles of the slides after it), each
   * without the topic the deck's title already names ("Ocean conservation:
   * results so far" is listed as "Results so far").
   */
  agenda(sections: readonly string[]): SlideContent {
    const prefix = `${this.topic.lead}: `
    const short = (title: string) => (title.startsWith(prefix) ? capitalizeFirst(title.slice(prefix.length)) : title)
    const unique = [...new Set(sections.map(short))].slice(0, AGENDA_MAX)
    return {
      title: this.bag(copy.AGENDA_TITLES).take(),
      blocks: [{ type: 'bullets', items: unique.length > 0 ? unique : [...copy.AGENDA_FALLBACK] }],
    }
  }
}

/** What to generate a deck from. */
export interface DeckRequest {
  /** What the deck is about: a generation prompt, or a template's or project's name. */
  prompt: string
  /** The designs of the slides, in order (a template's). Without them, `count` slides from scratch. */
  designs?: readonly SlideDesign[]
  /** The number of slides from scratch; without it, 4 to 8 (seeded). */
  count?: number
  /** The project's colours, for illustrations. */
  colors?: IllustrationColors
}

/** A generated slide: its name (its title), its design and its three files. */
export interface GeneratedSlide {
  name: string
  design: SlideDesign
  files: SlideFiles
}

/** A readable slide name: the content's title, as the editor would show it. */
export function slideName(content: SlideContent, index: number): string {
  return content.title.trim() === '' ? `Slide ${index + 1}` : content.title
}

/** Serializes content the way the emulator writes `slide.content.json`. */
export function contentFile(content: SlideContent): string {
  return `${JSON.stringify(content, null, 2)}\n`
}

/** The three files of a slide of `design` with `content`. */
export function slideFiles(design: SlideDesign, content: SlideContent): SlideFiles {
  return {
    'slide.tsx': slideComponent(design),
    'slide.content.json': contentFile(content),
    'slide.controls.json': slideControls(design),
  }
}

/** Generates a deck: the designs (given, or chosen) and each slide's files. */
export function generateDeck(faker: Faker, request: DeckRequest): GeneratedSlide[] {
  const designs = request.designs ?? deckDesigns(request.count ?? faker.number.int({ min: 4, max: 8 }), faker)
  const writer = new DeckWriter(faker, readTopic(request.prompt), request.colors ?? {})
  const contents = designs.map((design) => (design === 'agenda' ? undefined : writer.content(design)))
  const slides = designs.map((design, index) => {
    const content =
      contents[index] ??
      writer.agenda(
        contents
          .slice(index + 1)
          .filter((_, offset) => designs[index + 1 + offset] !== 'closing' && designs[index + 1 + offset] !== 'agenda')
          .map((next) => next!.title),
      )
    return { name: slideName(content, index), design, files: slideFiles(design, content) }
  })
  return slides
}
