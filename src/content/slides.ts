import type { Faker } from '@faker-js/faker'
import type { ContentBlock, SlideContent, SlideFiles } from '../schemas/index.js'
import type { SlideDesign } from '../schemas/slide-designs.js'

export { SLIDE_DESIGNS, type SlideDesign } from '../schemas/slide-designs.js'

/** A block of `slide.content.json` (the conventions are zod schemas in `schemas/slide-content.ts`). */
export type { ContentBlock, SlideContent }

function sentence(faker: Faker, words: [number, number]): string {
  return faker.lorem.sentence({ min: words[0], max: words[1] })
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

/** Seeded content for a slide of `design` about `topic`. */
export function generateContent(faker: Faker, design: SlideDesign, topic: string): SlideContent {
  switch (design) {
    case 'title':
      return {
        title: topic,
        blocks: [{ type: 'text', text: capitalize(faker.company.catchPhrase()) }],
      }
    case 'content':
      return {
        title: capitalize(faker.company.buzzPhrase()),
        blocks: [
          { type: 'text', text: sentence(faker, [8, 14]) },
          { type: 'bullets', items: Array.from({ length: faker.number.int({ min: 3, max: 5 }) }, () => sentence(faker, [4, 8])) },
        ],
      }
    case 'split':
      return {
        title: capitalize(faker.company.buzzNoun()),
        blocks: [
          { type: 'heading', text: capitalize(faker.company.buzzPhrase()) },
          { type: 'text', text: faker.lorem.paragraph({ min: 2, max: 3 }) },
          { type: 'heading', text: capitalize(faker.company.buzzPhrase()) },
          { type: 'text', text: faker.lorem.paragraph({ min: 2, max: 3 }) },
        ],
      }
    case 'quote':
      return {
        title: 'What people say',
        blocks: [{ type: 'quote', text: sentence(faker, [10, 18]), author: faker.person.fullName() }],
      }
    case 'stats':
      return {
        title: 'By the numbers',
        blocks: Array.from({ length: 3 }, () => ({
          type: 'stat' as const,
          value: `${faker.number.int({ min: 2, max: 98 })}%`,
          label: capitalize(faker.company.buzzNoun()),
        })),
      }
    case 'closing':
      return {
        title: 'Thank you',
        blocks: [
          { type: 'text', text: sentence(faker, [6, 10]) },
          { type: 'text', text: faker.internet.email({ provider: 'example.com' }) },
        ],
      }
  }
}

/** A readable slide name: the content's title, as the editor would show it. */
export function slideName(content: SlideContent, index: number): string {
  return content.title.trim() === '' ? `Slide ${index + 1}` : content.title
}

const COMPONENT_NAMES: Record<SlideDesign, string> = {
  title: 'TitleSlide',
  content: 'ContentSlide',
  split: 'SplitSlide',
  quote: 'QuoteSlide',
  stats: 'StatsSlide',
  closing: 'ClosingSlide',
}

/** `slide.tsx` for a design: a React component rendering its `slide.content.json`. */
export function slideComponent(design: SlideDesign): string {
  const name = COMPONENT_NAMES[design]
  return `import content from "./slide.content.json";

type Block =
  | { type: "heading"; text: string }
  | { type: "text"; text: string }
  | { type: "bullets"; items: string[] }
  | { type: "quote"; text: string; author: string }
  | { type: "stat"; value: string; label: string }
  | { type: "image"; url: string; alt: string };

type Props = { accent?: string; align?: "left" | "center" };

function renderBlock(block: Block, index: number) {
  switch (block.type) {
    case "heading":
      return <h2 key={index}>{block.text}</h2>;
    case "text":
      return <p key={index}>{block.text}</p>;
    case "bullets":
      return (
        <ul key={index}>
          {block.items.map((item, i) => (
            <li key={i}>{item}</li>
          ))}
        </ul>
      );
    case "quote":
      return (
        <blockquote key={index}>
          <p>{block.text}</p>
          <cite>{block.author}</cite>
        </blockquote>
      );
    case "stat":
      return (
        <figure key={index} className="stat">
          <strong>{block.value}</strong>
          <figcaption>{block.label}</figcaption>
        </figure>
      );
    case "image":
      return (
        <figure key={index} className="image">
          <img src={block.url} alt={block.alt} />
        </figure>
      );
  }
}

export default function ${name}({ accent = "var(--primary)", align = "${design === 'title' || design === 'closing' || design === 'quote' ? 'center' : 'left'}" }: Props) {
  return (
    <section className="slide slide--${design}" style={{ textAlign: align }}>
      <h1 style={{ color: accent }}>{content.title}</h1>
      <div className="slide__body">{(content.blocks as Block[]).map(renderBlock)}</div>
    </section>
  );
}
`
}

/** `slide.controls.json`: the editor controls the component's props expose. */
export function slideControls(design: SlideDesign): string {
  const controls = [
    { id: 'accent', type: 'color', label: 'Accent colour', default: 'var(--primary)' },
    {
      id: 'align',
      type: 'select',
      label: 'Alignment',
      options: ['left', 'center'],
      default: design === 'title' || design === 'closing' || design === 'quote' ? 'center' : 'left',
    },
  ]
  return `${JSON.stringify({ controls }, null, 2)}\n`
}

/** Serializes content the way the emulator writes `slide.content.json`. */
export function contentFile(content: SlideContent): string {
  return `${JSON.stringify(content, null, 2)}\n`
}

/** The three files of a generated slide. */
export function slideFiles(design: SlideDesign, content: SlideContent): SlideFiles {
  return {
    'slide.tsx': slideComponent(design),
    'slide.content.json': contentFile(content),
    'slide.controls.json': slideControls(design),
  }
}

/** The files of a new blank slide: a minimal component, empty content, no controls. */
export function blankSlideFiles(): SlideFiles {
  return {
    'slide.tsx': `import content from "./slide.content.json";

export default function Slide() {
  return (
    <section className="slide">
      <h1>{content.title}</h1>
    </section>
  );
}
`,
    'slide.content.json': `${JSON.stringify({ title: '', blocks: [] }, null, 2)}\n`,
    'slide.controls.json': `${JSON.stringify({ controls: [] }, null, 2)}\n`,
  }
}

/** The design a slide at `index` of `count` gets when generated from scratch. */
export function designAt(index: number, count: number, faker: Faker): SlideDesign {
  if (index === 0) return 'title'
  if (index === count - 1) return 'closing'
  return faker.helpers.arrayElement(['content', 'split', 'quote', 'stats'] as const)
}
