import * as z from 'zod'
import { objectFor, type Strictness } from './common.js'

/** The three source files of a slide, in the order the spec lists them. */
export const SLIDE_FILE_NAMES = ['slide.tsx', 'slide.content.json', 'slide.controls.json'] as const
export type SlideFileName = (typeof SLIDE_FILE_NAMES)[number]

/** All three files of a slide, as a response carries them. */
export const SlideFiles = z.object({
  'slide.tsx': z.string(),
  'slide.content.json': z.string(),
  'slide.controls.json': z.string(),
})
export type SlideFiles = z.infer<typeof SlideFiles>

function partialFiles(strictness: Strictness) {
  return objectFor(strictness, {
    'slide.tsx': z.string().optional(),
    'slide.content.json': z.string().optional(),
    'slide.controls.json': z.string().optional(),
  })
}

/** Some of the files of a slide; only those present change. */
export const PartialSlideFiles = partialFiles('request')
export type PartialSlideFiles = z.infer<typeof PartialSlideFiles>

/**
 * `GET /projects/{slug}/slides/{slideId}/files` (emulator extension): the
 * slide's three files, in the shape `PUT /projects/{slug}/slides/{slideId}`
 * takes them, so a program can read, edit and send back the same body.
 */
export const SlideFilesResponse = z.object({ files: SlideFiles })
export type SlideFilesResponse = z.infer<typeof SlideFilesResponse>

export const SlideListItem = z.object({ id: z.string(), name: z.string() })
export type SlideListItem = z.infer<typeof SlideListItem>

export const ListSlidesResponse = z.object({ slides: z.array(SlideListItem) })
export type ListSlidesResponse = z.infer<typeof ListSlidesResponse>

/**
 * Body of `PUT /projects/{slug}/slides/{slideId}`. The emulator refuses
 * `{"files":{}}` (an update that changes nothing), which the spec does not
 * say; the OpenAPI document records it as `x-emulator-minProperties: 1`.
 */
export const UpdateSlideRequest = z.strictObject({
  files: PartialSlideFiles.refine((files) => Object.keys(files).length > 0, {
    error: 'must contain at least one of slide.tsx, slide.content.json, slide.controls.json',
  }).meta({ 'x-emulator-minProperties': 1 }),
})
export type UpdateSlideRequest = z.infer<typeof UpdateSlideRequest>

export const UpdateSlideResponse = z.object({
  slideId: z.string(),
  versionId: z.string(),
  files: SlideFiles,
})
export type UpdateSlideResponse = z.infer<typeof UpdateSlideResponse>

/** Bound of a slide name (emulator choice; the spec shows none). */
export const SLIDE_NAME_MAX = 200

/** Body of `POST /projects/{slug}/slides` (emulator extension). */
export const CreateSlideRequest = z.strictObject({
  name: z.string().min(1).max(SLIDE_NAME_MAX).optional(),
  files: PartialSlideFiles.optional(),
})
export type CreateSlideRequest = z.infer<typeof CreateSlideRequest>

export const CreateSlideResponse = z.object({
  slideId: z.string(),
  versionId: z.string(),
})
export type CreateSlideResponse = z.infer<typeof CreateSlideResponse>

/** Body of `POST .../slides/{slideId}/editing`: both fields optional. */
export const StartSlideEditingRequest = z.strictObject({
  agentName: z.string().optional(),
  editPrompt: z.string().optional(),
})
export type StartSlideEditingRequest = z.infer<typeof StartSlideEditingRequest>

/** A name and what it is (a CSS variable, a class name, a design, an import). */
const Described = z.object({ name: z.string(), description: z.string() })

/**
 * How a slide is rendered, as the slide guide states it: what `slide.tsx`
 * may import and receives, the box it is laid out in, the CSS variables and
 * base class names it can use, and the designs generation writes.
 */
export const SlideRenderingGuide = z.object({
  /** What the default export is and where it runs. */
  component: z.string(),
  /** The modules `slide.tsx` may import (any other is an error in the slide's place). */
  imports: z.array(Described),
  /** What the component receives as props. */
  props: z.string(),
  /** The box a slide is laid out in, and how to size type. */
  box: z.string(),
  /** The CSS custom properties a slide can use. */
  cssVariables: z.array(Described),
  /** The class names of the base stylesheet every slide's document has. */
  classNames: z.array(Described),
  /** The designs generated slides have, by the name of their `slide--<name>` class. */
  designs: z.array(Described),
  /** What shows when a component cannot render. */
  fallback: z.string(),
})
export type SlideRenderingGuide = z.infer<typeof SlideRenderingGuide>

/**
 * `GET /projects/{slug}/slides/guide` (emulator extension): the token naming
 * rules (patterns as regular-expression source text), the conventions and
 * validation rules of the three slide files, how a slide is rendered, and
 * the project's current tokens.
 */
export const SlideGuideResponse = z.object({
  tokens: z.object({
    palette: z.object({ namePattern: z.string(), valuePattern: z.string(), example: z.object({ name: z.string(), value: z.string() }) }),
    fonts: z.object({ namePattern: z.string(), example: z.object({ name: z.string(), family: z.string() }) }),
    usage: z.string(),
  }),
  files: z.array(z.object({ name: z.string(), rules: z.array(z.string()) })),
  /** How updates are validated and how a rejection reads. */
  validation: z.string(),
  rendering: SlideRenderingGuide,
  projectTokens: z.object({
    palette: z.array(z.object({ name: z.string(), value: z.string() })),
    fonts: z.array(z.object({ name: z.string(), family: z.string(), url: z.string().optional() })),
  }),
})
export type SlideGuideResponse = z.infer<typeof SlideGuideResponse>
