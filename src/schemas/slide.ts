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

/**
 * `GET /projects/{slug}/slides/guide` (emulator extension): the token naming
 * rules (patterns as regular-expression source text), the conventions and
 * validation rules of the three slide files, and the project's current tokens.
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
  projectTokens: z.object({
    palette: z.array(z.object({ name: z.string(), value: z.string() })),
    fonts: z.array(z.object({ name: z.string(), family: z.string(), url: z.string().optional() })),
  }),
})
export type SlideGuideResponse = z.infer<typeof SlideGuideResponse>
