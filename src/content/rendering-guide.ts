/**
 * The rendering section of the slide guide (`GET …/slides/guide`): the
 * environment a `slide.tsx` runs in: its imports, props and box, the CSS
 * variables the pages define, the class names the base stylesheet
 * (`SLIDE_BASE_CSS` in `slide-styles.ts`) styles, and the generated designs.
 */
import type { SlideRenderingGuide } from '../schemas/index.js'
import { DESIGN_LABELS, SLIDE_DESIGNS } from './designs.js'

/** The custom properties a slide can use, as the pages define them (plus `--slide-accent`, set by a component). */
export const SLIDE_CSS_VARIABLES: ReadonlyArray<{ name: string; description: string }> = [
  { name: '--slide-bg', description: 'The slide background (the theme’s background, opaque).' },
  { name: '--slide-fg', description: 'Body text, readable on --slide-bg (WCAG AA).' },
  { name: '--slide-title', description: 'Titles: the primary colour, made readable on --slide-bg.' },
  { name: '--slide-muted', description: 'Secondary text, readable on --slide-bg.' },
  { name: '--slide-decor', description: 'Decoration (rules, markers): the primary colour as given.' },
  { name: '--slide-card', description: 'Card background.' },
  { name: '--slide-card-fg', description: 'Text on --slide-card, readable.' },
  { name: '--slide-card-title', description: 'Headings and figures on --slide-card: the primary colour, readable.' },
  { name: '--slide-border', description: 'Borders and dividers.' },
  { name: '--slide-radius', description: 'Corner radius (the theme’s radius).' },
  { name: '--slide-font', description: 'Body font stack (the theme’s fontFamily, then system fonts).' },
  { name: '--slide-heading-font', description: 'Heading font stack (headingFontFamily, else fontFamily).' },
  {
    name: '--background, --foreground, --primary, --primary-foreground, --secondary, --muted, --muted-foreground, --accent, --card, --card-foreground, --border, …',
    description: 'Every colour of the theme’s colors.default, by its key, as a hex colour (not checked for contrast).',
  },
  { name: '--<palette token>', description: 'Each colour token of config.tokens.palette by its name (--brand-blue).' },
  {
    name: '--font-<name>',
    description:
      'Each font token of config.tokens.fonts by its name, as a font stack. Generated slides use --font-heading for headings and --font-body for text when the project defines them.',
  },
  {
    name: '--slide-accent',
    description:
      'The accent of generated slides (rules, markers, shapes): set by the component from its `accent` prop; var(--primary) by default.',
  },
]

/** The class names `SLIDE_BASE_CSS` styles. */
export const SLIDE_CLASS_NAMES: ReadonlyArray<{ name: string; description: string }> = [
  {
    name: 'slide',
    description: 'The root: fills the 16:9 box, theme background, text and fonts; a size container (text scales with the slide).',
  },
  {
    name: 'slide--title, slide--agenda, slide--content, slide--split, slide--quote, slide--stats, slide--image, slide--closing',
    description: 'One per design, beside `slide`: the layout of that design.',
  },
  { name: 'slide--centered', description: 'Centres the text (the `align` control set to center).' },
  {
    name: 'slide__decor',
    description: 'A layer of decorative shapes behind the text (its `span` children), hidden from assistive technology.',
  },
  { name: 'slide__inner', description: 'The padded content area; sets the base type size (1.9% of the slide width).' },
  { name: 'slide__header', description: 'Kicker and title, with an accent rule under them.' },
  { name: 'slide__kicker', description: 'A small uppercase line above a title.' },
  { name: 'slide__title', description: 'The slide title (h1).' },
  { name: 'slide__subtitle', description: 'The line under a title-slide title.' },
  { name: 'slide__lead', description: 'An introductory sentence, larger and muted.' },
  { name: 'slide__list', description: 'A bullet list with accent markers; slide__list--two lays it out in two columns.' },
  { name: 'slide__callout', description: 'A takeaway on a tinted band with an accent edge.' },
  { name: 'slide__agenda', description: 'An ordered list of sections with large numbers (slide__agenda-number, slide__agenda-text).' },
  { name: 'slide__columns', description: 'Two (or more) equal columns of cards (slide__column, slide__column-title).' },
  { name: 'slide__quote', description: 'A large quotation (blockquote) with slide__quote-text and slide__quote-author.' },
  { name: 'slide__stats', description: 'A row of figure cards (slide__stat, slide__stat-value, slide__stat-label).' },
  {
    name: 'slide__media',
    description: 'Text beside a figure (slide__media-text, slide__figure with slide__image); slide__media--reverse puts the figure first.',
  },
  { name: 'slide__contact', description: 'A pill with a contact line (closing slide).' },
]

/** The modules a slide component may import. */
export const SLIDE_IMPORTS: SlideRenderingGuide['imports'] = [
  { name: 'react', description: 'React 19: hooks (useState, useMemo, …), Fragment, types.' },
  {
    name: 'react/jsx-runtime',
    description: 'The automatic JSX runtime: JSX needs no `import React` (the transpiler imports this itself).',
  },
  { name: './slide.content.json', description: 'This slide’s own slide.content.json, parsed (default import).' },
  { name: './slide.controls.json', description: 'This slide’s own slide.controls.json, parsed (default import).' },
]

export const RENDERING_GUIDE: SlideRenderingGuide = {
  component:
    'The default export of slide.tsx is a React component (TypeScript and JSX, transpiled with the automatic JSX runtime). The editor, the published site and the overview render it in a sandboxed frame in the browser; the emulator’s server process never runs slide code. It runs in a worker whose built-ins and global object are frozen (SES lockdown: assigning to Array.prototype, JSON or a global throws) and which has no network, storage or timers; the render is static (hooks give their initial state, effects never run).',
  imports: SLIDE_IMPORTS,
  props:
    'One prop per control of slide.controls.json: {[control.id]: control.default}. Generated components give each prop the same default, so they also render without props.',
  box: 'A 16:9 box, scaled to fit (a thumbnail and full screen are the same slide). The base stylesheet makes `.slide` a size container: size type and spacing relative to the slide, in container query units (`cqw`: 1% of the slide’s width) or in `em` inside `.slide__inner`.',
  cssVariables: [...SLIDE_CSS_VARIABLES],
  classNames: [...SLIDE_CLASS_NAMES],
  designs: SLIDE_DESIGNS.map((design) => ({ name: design, description: DESIGN_LABELS[design] })),
  fallback:
    'A component that fails (throws, imports another module, never returns) shows its error in the slide’s place over the rendering of slide.content.json (the content view, also the editor’s Content toggle); the rest of the deck renders.',
}
