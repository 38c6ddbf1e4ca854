/**
 * The designs a generated slide can have. A deck from scratch starts with a
 * title and ends with a closing slide; a template fixes one design per
 * slide. The names are part of the state format (a template's slides
 * record theirs): add new ones, never rename.
 */
import type { SlideDesign } from '../schemas/slide-designs.js'

export { SLIDE_DESIGNS, type SlideDesign } from '../schemas/slide-designs.js'

/** What each design is, in words (the slide guide and the docs show these). */
export const DESIGN_LABELS: Record<SlideDesign, string> = {
  title: 'Title: the deck’s title, a kicker line and a subtitle, with decorative shapes',
  agenda: 'Agenda: the sections that follow, numbered',
  content: 'Content with bullets: a title, a lead sentence, bullet points and a takeaway',
  split: 'Two columns: a card per heading, each with a sentence and points',
  quote: 'Quote: a large quotation and who said it',
  stats: 'Stats: a row of figures, each with what it measures',
  image: 'Image with text: a title, a sentence and points beside an illustration',
  closing: 'Closing: thanks, a closing line and a contact',
}

/**
 * The most slides a template or a fixture project has (a deck from a
 * prompt has 4 to 8): room for long decks such as the 30-slide one the
 * render bench uses.
 */
export const DECK_SLIDES_MAX = 50
