/**
 * The visual designs a generated slide can have; a template fixes one per
 * slide. A vocabulary of the records (a template's slides name theirs), so
 * it sits below the store and the content generator that both use it. The
 * names are part of the state format: add new ones, never rename.
 */
export const SLIDE_DESIGNS = ['title', 'agenda', 'content', 'split', 'quote', 'stats', 'image', 'closing'] as const
export type SlideDesign = (typeof SLIDE_DESIGNS)[number]
