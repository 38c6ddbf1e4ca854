import * as z from 'zod'

/**
 * The conventions of `slide.content.json`: what the emulator's generator
 * writes, what the slide guide describes and what the editor and the
 * published site render. An update is not validated against them (the
 * spec checks only that the file is JSON); a block that does not follow
 * them is shown on the page as a labelled notice instead.
 */

export const HeadingBlock = z.object({ type: z.literal('heading'), text: z.string() })
export const TextBlock = z.object({ type: z.literal('text'), text: z.string() })
export const BulletsBlock = z.object({ type: z.literal('bullets'), items: z.array(z.string()) })
export const QuoteBlock = z.object({ type: z.literal('quote'), text: z.string(), author: z.string().optional() })
export const StatBlock = z.object({ type: z.literal('stat'), value: z.union([z.string(), z.number()]), label: z.string() })
/**
 * An image: `url` is a `data:image/…` URL, a path on the emulator's own
 * origin, or a remote http(s) URL. Remote images load only when the
 * emulator runs with `allowRemoteImages`; otherwise the page shows a
 * placeholder with `alt`.
 */
export const ImageBlock = z.object({ type: z.literal('image'), url: z.string().min(1), alt: z.string() })

/** One block of `slide.content.json`. */
export const ContentBlock = z.discriminatedUnion('type', [HeadingBlock, TextBlock, BulletsBlock, QuoteBlock, StatBlock, ImageBlock])
export type ContentBlock = z.infer<typeof ContentBlock>

/** The block types, in the order the slide guide lists them. */
export const CONTENT_BLOCK_TYPES = ['heading', 'text', 'bullets', 'quote', 'stat', 'image'] as const

/** `slide.content.json` by the conventions: a title and blocks. */
export const SlideContent = z.object({ title: z.string(), blocks: z.array(ContentBlock) })
export type SlideContent = z.infer<typeof SlideContent>

/** The alignments the `align` control of `slide.controls.json` can take. */
export const SLIDE_ALIGNMENTS = ['left', 'center', 'right'] as const

/**
 * `slide.controls.json`: `{controls: [{id, type, label, default, …}]}`, one
 * control per prop of the component, which receives each `default` by its
 * `id`. The content rendering applies the defaults of two:
 * `align` (left, center or right) and `accent` (a colour or a
 * `var(--token)`, used for the title).
 */
export const SlideControl = z.object({ id: z.string(), default: z.unknown().optional() })
export const SlideControls = z.object({ controls: z.array(z.unknown()) })
