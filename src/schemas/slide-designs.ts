/**
 * The visual designs a generated slide can have; a template fixes one per
 * slide. A vocabulary of the records (a template's slides name theirs), so
 * it sits below the store and the content generator that both use it.
 */
export const SLIDE_DESIGNS = ['title', 'content', 'split', 'quote', 'stats', 'closing'] as const
export type SlideDesign = (typeof SLIDE_DESIGNS)[number]
