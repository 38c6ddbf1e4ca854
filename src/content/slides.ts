import type { ContentBlock, SlideContent, SlideFiles } from '../schemas/index.js'

export { DESIGN_LABELS, SLIDE_DESIGNS, type SlideDesign } from './designs.js'

/** A block of `slide.content.json` (the conventions are zod schemas in `schemas/slide-content.ts`). */
export type { ContentBlock, SlideContent }

let generator: Promise<typeof import('./deck.js')> | undefined

/**
 * Loads the deck generator (`deck.ts`: the copy, the components, the
 * illustrations) on first use. Only generated content needs it, so
 * importing the package, starting the default world and answering
 * requests never load it.
 */
export function loadDeckGenerator(): Promise<typeof import('./deck.js')> {
  generator ??= import('./deck.js')
  return generator
}

/** The files of a new blank slide: a minimal component on the base stylesheet's classes, empty content, no controls. */
export function blankSlideFiles(): SlideFiles {
  return {
    'slide.tsx': `import content from "./slide.content.json";

export default function Slide() {
  return (
    <section className="slide">
      <div className="slide__inner">
        <h1 className="slide__title">{content.title}</h1>
      </div>
    </section>
  );
}
`,
    'slide.content.json': `${JSON.stringify({ title: '', blocks: [] }, null, 2)}\n`,
    'slide.controls.json': `${JSON.stringify({ controls: [] }, null, 2)}\n`,
  }
}
