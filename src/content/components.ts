/**
 * The `slide.tsx` and `slide.controls.json` that generation writes for each
 * design. A component reads its text from `./slide.content.json`, takes one
 * prop per control (the control's `default` is the prop's default too) and
 * styles itself with the class names of `SLIDE_BASE_CSS` (`slide-styles.ts`)
 * and the theme's CSS variables. The sources hold no text of the deck: the
 * same design has the same component in every deck, so a prompt never
 * reaches code.
 */
import type { SlideDesign } from './designs.js'

/** An editor control of `slide.controls.json` (one prop of the component). */
export type SlideControlSpec =
  | { id: string; type: 'color'; label: string; default: string }
  | { id: string; type: 'select'; label: string; options: readonly string[]; default: string }
  | { id: string; type: 'toggle'; label: string; default: boolean }
  | { id: string; type: 'number'; label: string; min: number; max: number; step: number; default: number }

const accent: SlideControlSpec = { id: 'accent', type: 'color', label: 'Accent colour', default: 'var(--primary)' }
const align = (value: 'left' | 'center'): SlideControlSpec => ({
  id: 'align',
  type: 'select',
  label: 'Alignment',
  options: ['left', 'center'],
  default: value,
})

/** The controls of each design, in the order the editor lists them. */
export const DESIGN_CONTROLS: Record<SlideDesign, readonly SlideControlSpec[]> = {
  title: [accent, align('left'), { id: 'decor', type: 'toggle', label: 'Decorative shapes', default: true }],
  agenda: [accent, { id: 'numbered', type: 'toggle', label: 'Numbered', default: true }],
  content: [accent, align('left'), { id: 'listColumns', type: 'number', label: 'List columns', min: 1, max: 2, step: 1, default: 1 }],
  split: [accent],
  quote: [accent, align('left')],
  stats: [accent],
  image: [accent, { id: 'imageSide', type: 'select', label: 'Image side', options: ['left', 'right'], default: 'right' }],
  closing: [accent, { id: 'showContact', type: 'toggle', label: 'Show contact', default: true }],
}

/** The start of every generated component: its imports, the block types, and the content's blocks by type. */
const PRELUDE = `import type { CSSProperties } from "react";
import content from "./slide.content.json";

// The blocks of slide.content.json (see GET /projects/{slug}/slides/guide).
type Block =
  | { type: "heading"; text: string }
  | { type: "text"; text: string }
  | { type: "bullets"; items: string[] }
  | { type: "quote"; text: string; author?: string }
  | { type: "stat"; value: string | number; label: string }
  | { type: "image"; url: string; alt: string };

const title: string = typeof content.title === "string" ? content.title : "";
// The blocks that are objects (an edited file may hold anything).
const blocks: Block[] = Array.isArray(content.blocks)
  ? content.blocks.filter((block: unknown) => typeof block === "object" && block !== null)
  : [];

/** The blocks of one type, in order. */
function ofType<T extends Block["type"]>(type: T): Extract<Block, { type: T }>[] {
  return blocks.filter((block): block is Extract<Block, { type: T }> => block.type === type);
}
`

/** Helpers a component gets when its code (or another helper it gets) names them, in this order. */
const HELPERS = {
  bulletItems: `/** The items of every bullets block, in order. */
function bulletItems(): string[] {
  return ofType("bullets").flatMap((block) => (Array.isArray(block.items) ? block.items : []));
}
`,
  classes: `/** Class names, leaving out the ones that are off. */
function classes(...names: Array<string | false>): string {
  return names.filter(Boolean).join(" ");
}
`,
  List: `/** A bullet list (in two columns when \`two\`); nothing when there are no items. */
function List({ items, two = false }: { items: unknown; two?: boolean }) {
  if (!Array.isArray(items) || items.length === 0) return null;
  return (
    <ul className={classes("slide__list", two && "slide__list--two")}>
      {items.map((item, index) => (
        <li key={index}>{String(item)}</li>
      ))}
    </ul>
  );
}
`,
  accentStyle: `/** The accent colour as the custom property the base stylesheet reads. */
function accentStyle(accent: string): CSSProperties {
  return { "--slide-accent": accent } as CSSProperties;
}
`,
} as const

/** The helpers `code` uses, and those they use, in `HELPERS` order. */
function helpersFor(code: string): string {
  const used = new Set<string>()
  let text = code
  for (let grown = true; grown; ) {
    grown = false
    for (const [name, helper] of Object.entries(HELPERS)) {
      if (!used.has(name) && new RegExp(`\\b${name}\\b`).test(text)) {
        used.add(name)
        text += helper
        grown = true
      }
    }
  }
  return Object.entries(HELPERS)
    .filter(([name]) => used.has(name))
    .map(([, helper]) => `\n${helper}`)
    .join('')
}

const HEADER = `<header className="slide__header">
          <h1 className="slide__title">{title}</h1>
        </header>`

const DECOR = `<div className="slide__decor" aria-hidden="true">
        <span />
        <span />
        <span />
      </div>`

/** Each design's component: its name, local code before it, and its body (inside the function, after the props). */
const BODIES: Record<SlideDesign, { name: string; before?: string; body: string }> = {
  title: {
    name: 'TitleSlide',
    body: `  const kicker = ofType("heading")[0]?.text;
  const subtitle = ofType("text")[0]?.text;
  return (
    <section className={classes("slide slide--title", align === "center" && "slide--centered")} style={accentStyle(accent)}>
      {decor && (
        <div className="slide__decor" aria-hidden="true">
          <span />
          <span />
          <span />
        </div>
      )}
      <div className="slide__inner">
        <header className="slide__header">
          {kicker && <p className="slide__kicker">{kicker}</p>}
          <h1 className="slide__title">{title}</h1>
        </header>
        {subtitle && <p className="slide__subtitle">{subtitle}</p>}
      </div>
    </section>
  );`,
  },
  agenda: {
    name: 'AgendaSlide',
    body: `  return (
    <section className="slide slide--agenda" style={accentStyle(accent)}>
      <div className="slide__inner">
        ${HEADER}
        <ol className="slide__agenda">
          {bulletItems().map((item, index) => (
            <li key={index}>
              <span className="slide__agenda-number">{numbered ? String(index + 1).padStart(2, "0") : "•"}</span>
              <span className="slide__agenda-text">{item}</span>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );`,
  },
  content: {
    name: 'ContentSlide',
    body: `  const [lead, takeaway] = ofType("text");
  return (
    <section className={classes("slide slide--content", align === "center" && "slide--centered")} style={accentStyle(accent)}>
      <div className="slide__inner">
        ${HEADER}
        {lead && <p className="slide__lead">{lead.text}</p>}
        <List items={bulletItems()} two={listColumns > 1} />
        {takeaway && <p className="slide__callout">{takeaway.text}</p>}
      </div>
    </section>
  );`,
  },
  split: {
    name: 'SplitSlide',
    before: `type Column = { heading: string; blocks: Block[] };

/** One column per heading block, holding the blocks that follow it. */
function columnsOf(list: Block[]): Column[] {
  const columns: Column[] = [];
  for (const block of list) {
    if (block.type === "heading") columns.push({ heading: block.text, blocks: [] });
    else columns.at(-1)?.blocks.push(block);
  }
  return columns;
}

function ColumnBlock({ block }: { block: Block }) {
  if (block.type === "text") return <p>{block.text}</p>;
  if (block.type === "bullets") return <List items={block.items} />;
  return null;
}
`,
    body: `  return (
    <section className="slide slide--split" style={accentStyle(accent)}>
      <div className="slide__inner">
        ${HEADER}
        <div className="slide__columns">
          {columnsOf(blocks).map((column, index) => (
            <div className="slide__column" key={index}>
              <h2 className="slide__column-title">{column.heading}</h2>
              {column.blocks.map((block, i) => (
                <ColumnBlock key={i} block={block} />
              ))}
            </div>
          ))}
        </div>
      </div>
    </section>
  );`,
  },
  quote: {
    name: 'QuoteSlide',
    body: `  const quote = ofType("quote")[0];
  return (
    <section className={classes("slide slide--quote", align === "center" && "slide--centered")} style={accentStyle(accent)}>
      <div className="slide__inner">
        {title && <h1 className="slide__kicker">{title}</h1>}
        {quote && (
          <blockquote className="slide__quote">
            <p className="slide__quote-text">{quote.text}</p>
            {quote.author && <cite className="slide__quote-author">{quote.author}</cite>}
          </blockquote>
        )}
      </div>
    </section>
  );`,
  },
  stats: {
    name: 'StatsSlide',
    body: `  const lead = ofType("text")[0];
  return (
    <section className="slide slide--stats" style={accentStyle(accent)}>
      <div className="slide__inner">
        ${HEADER}
        {lead && <p className="slide__lead">{lead.text}</p>}
        <div className="slide__stats">
          {ofType("stat").map((stat, index) => (
            <figure className="slide__stat" key={index}>
              <strong className="slide__stat-value">{String(stat.value ?? "")}</strong>
              <figcaption className="slide__stat-label">{stat.label}</figcaption>
            </figure>
          ))}
        </div>
      </div>
    </section>
  );`,
  },
  image: {
    name: 'ImageSlide',
    body: `  const lead = ofType("text")[0];
  const image = ofType("image")[0];
  return (
    <section className="slide slide--image" style={accentStyle(accent)}>
      <div className="slide__inner">
        <div className={classes("slide__media", imageSide === "left" && "slide__media--reverse")}>
          <div className="slide__media-text">
            ${HEADER.replace(/\n/g, '\n    ')}
            {lead && <p className="slide__lead">{lead.text}</p>}
            <List items={bulletItems()} />
          </div>
          {image && (
            <figure className="slide__figure">
              <img className="slide__image" src={image.url} alt={image.alt} />
            </figure>
          )}
        </div>
      </div>
    </section>
  );`,
  },
  closing: {
    name: 'ClosingSlide',
    body: `  const [line, contact] = ofType("text");
  return (
    <section className="slide slide--closing" style={accentStyle(accent)}>
      ${DECOR}
      <div className="slide__inner">
        ${HEADER}
        {line && <p className="slide__subtitle">{line.text}</p>}
        {showContact && contact && <p className="slide__contact">{contact.text}</p>}
      </div>
    </section>
  );`,
  },
}

/** The TypeScript type of a control's prop. */
function propType(control: SlideControlSpec): string {
  switch (control.type) {
    case 'color':
      return 'string'
    case 'select':
      return control.options.map((option) => JSON.stringify(option)).join(' | ')
    case 'toggle':
      return 'boolean'
    case 'number':
      return 'number'
  }
}

const components = new Map<SlideDesign, string>()

/** `slide.tsx` for a design: a React component rendering its `slide.content.json` (the same text for every slide of the design). */
export function slideComponent(design: SlideDesign): string {
  let source = components.get(design)
  if (source === undefined) {
    source = componentSource(design)
    components.set(design, source)
  }
  return source
}

function componentSource(design: SlideDesign): string {
  const { name, before, body } = BODIES[design]
  const controls = DESIGN_CONTROLS[design]
  const props = `type Props = { ${controls.map((control) => `${control.id}?: ${propType(control)}`).join('; ')} };`
  const parameters = controls.map((control) => `${control.id} = ${JSON.stringify(control.default)}`).join(', ')
  return `${PRELUDE}${helpersFor(`${before ?? ''}${body}`)}
${before === undefined ? '' : `${before}\n`}// One prop per control of slide.controls.json; the defaults are the controls' defaults.
${props}

export default function ${name}({ ${parameters} }: Props) {
${body}
}
`
}

/** `slide.controls.json` for a design: the editor controls its component's props expose. */
export function slideControls(design: SlideDesign): string {
  return `${JSON.stringify({ controls: DESIGN_CONTROLS[design] }, null, 2)}\n`
}
