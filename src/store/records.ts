import * as z from 'zod'
import { jsonTextDepthExceeded, MAX_JSON_DEPTH } from '../core/json-depth.js'
import { lineColumn } from '../core/text-position.js'
import { DateTime, JOB_STATUSES, MODELS, ProjectConfig } from '../schemas/index.js'
import { SLIDE_DESIGNS } from '../schemas/slide-designs.js'

/**
 * A JSON slide file is stored only when nested at most `MAX_JSON_DEPTH`
 * levels deep, whichever way it comes in (API, state document), so every
 * page can render it.
 */
function boundedJsonText(text: string, ctx: z.RefinementCtx): void {
  const at = jsonTextDepthExceeded(text)
  if (at === -1) return
  const { line, column } = lineColumn(text, at)
  ctx.addIssue({ code: 'custom', message: `${line}:${column}: nested deeper than ${MAX_JSON_DEPTH} levels of arrays and objects` })
}

/** The three files of a stored slide (strict: a state document cannot smuggle in other keys). */
const SlideFiles = z.strictObject({
  'slide.tsx': z.string(),
  'slide.content.json': z.string().superRefine(boundedJsonText),
  'slide.controls.json': z.string().superRefine(boundedJsonText),
})

/**
 * The emulator's internal records. Every object is strict, so a state
 * document with a key this version does not know is rejected rather than
 * silently losing it. They are what the store holds, what the
 * state document (`GET /_emulator/state`) contains, and what a state import is
 * validated against. API responses are built from them, never returned as is.
 */

export const UserRecord = z.strictObject({
  id: z.string(),
  name: z.string(),
  email: z.string(),
})
export type UserRecord = z.infer<typeof UserRecord>

export const TeamRecord = z.strictObject({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  /** The user whose personal team this is; null for a shared team. */
  personalOf: z.string().nullable(),
  credits: z.number().int().min(0),
  createdAt: DateTime,
})
export type TeamRecord = z.infer<typeof TeamRecord>

export const MembershipRecord = z.strictObject({
  id: z.string(),
  userId: z.string(),
  teamId: z.string(),
  role: z.enum(['owner', 'member']),
})
export type MembershipRecord = z.infer<typeof MembershipRecord>

export const ApiKeyRecord = z.strictObject({
  id: z.string(),
  /** The bearer value, `pres_…`. */
  key: z.string(),
  name: z.string(),
  userId: z.string(),
  teamId: z.string(),
  createdAt: DateTime,
  revokedAt: DateTime.nullable(),
})
export type ApiKeyRecord = z.infer<typeof ApiKeyRecord>

/** A subdomain a team can publish under: each project has its own, a team may have custom ones. */
export const SubdomainRecord = z.strictObject({
  id: z.string(),
  teamId: z.string(),
  subdomain: z.string(),
  isCustom: z.boolean(),
})
export type SubdomainRecord = z.infer<typeof SubdomainRecord>

/** A custom domain of a team. */
export const DomainRecord = z.strictObject({
  id: z.string(),
  teamId: z.string(),
  hostname: z.string(),
})
export type DomainRecord = z.infer<typeof DomainRecord>

/**
 * Where a project is published: a hostname (one of the team's subdomains, or
 * a custom domain) and a path on it. `linkId` identifies the binding of the
 * project to that subdomain or domain (`projectSubdomainId` / `projectDomainId`).
 */
/**
 * The path of a placement: `/`, or `/`-separated segments of letters, digits, `-`, `_` and `~`, as the
 * emulator makes them (`/`, `/q3-business-review`). The sites are served at `/sites/{hostname}{path}`:
 * a site at any other path (empty, a trailing `/`, `..`, characters a URL encodes) could not be reached.
 */
const PlacementPath = z.string().regex(/^\/(?:[A-Za-z0-9_~-]+(?:\/[A-Za-z0-9_~-]+)*)?$/, {
  error: 'must be "/" or a path like "/decks/q3-review" (letters, digits, "-", "_" and "~" between slashes)',
})

export const ProjectPlacement = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('subdomain'), subdomainId: z.string(), linkId: z.string(), path: PlacementPath }),
  z.strictObject({ type: z.literal('domain'), domainId: z.string(), linkId: z.string(), path: PlacementPath }),
])
export type ProjectPlacement = z.infer<typeof ProjectPlacement>

/** What the API makes slugs of (lowercase words joined by "-"); a state import may not bring others. */
const ProjectSlug = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, { error: 'must be lowercase words joined by "-"' })

export const ProjectRecord = z.strictObject({
  id: z.string(),
  slug: ProjectSlug,
  name: z.string(),
  teamId: z.string(),
  createdBy: z.string(),
  createdAt: DateTime,
  updatedAt: DateTime,
  config: ProjectConfig,
  /** The project's own subdomain, created with it (a duplicate gets a new one). */
  subdomainId: z.string(),
  placement: ProjectPlacement,
  latestVersionId: z.string().nullable(),
  publishedAt: DateTime.nullable(),
  /** The version that was latest when the project was last published. */
  publishedVersionId: z.string().nullable(),
  /** Users the project is shared with as collaborators. */
  collaborators: z.array(z.string()),
})
export type ProjectRecord = z.infer<typeof ProjectRecord>

export const VersionRecord = z.strictObject({
  id: z.string(),
  projectId: z.string(),
  number: z.number().int().min(1),
  name: z.string(),
  createdAt: DateTime,
})
export type VersionRecord = z.infer<typeof VersionRecord>

export const EditingState = z.strictObject({
  agentName: z.string().nullable(),
  editPrompt: z.string().nullable(),
  since: DateTime,
})
export type EditingState = z.infer<typeof EditingState>

export const SlideRecord = z.strictObject({
  id: z.string(),
  projectId: z.string(),
  /** Presentation order within the project (ascending, gaps allowed). */
  position: z.number().int().min(0),
  name: z.string(),
  files: SlideFiles,
  editing: EditingState.nullable(),
  createdAt: DateTime,
  updatedAt: DateTime,
})
export type SlideRecord = z.infer<typeof SlideRecord>

/** A slide of a template: its design (which content it takes) and its files. */
export const TemplateSlide = z.strictObject({ name: z.string(), design: z.enum(SLIDE_DESIGNS), files: SlideFiles })
export type TemplateSlide = z.infer<typeof TemplateSlide>

export const TemplateRecord = z.strictObject({
  id: z.string(),
  teamId: z.string(),
  name: z.string(),
  screenshotUrl: z.string().nullable(),
  createdAt: DateTime,
  updatedAt: DateTime,
  config: ProjectConfig,
  slides: z.array(TemplateSlide),
})
export type TemplateRecord = z.infer<typeof TemplateRecord>

export const JobRecord = z.strictObject({
  id: z.string(),
  teamId: z.string(),
  userId: z.string(),
  keyId: z.string(),
  projectId: z.string(),
  prompt: z.string(),
  templateId: z.string().nullable(),
  model: z.enum(MODELS),
  referenceImageUrls: z.array(z.string()),
  status: z.enum(JOB_STATUSES),
  createdAt: DateTime,
  /** When the job is due to finish on the emulator clock. */
  dueAt: DateTime,
  /** The outcome it will have when due. */
  outcome: z.enum(['completed', 'failed']),
  finishedAt: DateTime.nullable(),
  error: z.string().nullable(),
})
export type JobRecord = z.infer<typeof JobRecord>

/** What a published URL serves: the project as it was when last published. */
export const PublicationRecord = z.strictObject({
  id: z.string(),
  projectId: z.string(),
  versionId: z.string().nullable(),
  publishedAt: DateTime,
  name: z.string(),
  config: ProjectConfig,
  slides: z.array(z.strictObject({ id: z.string(), name: z.string(), files: SlideFiles })),
})
export type PublicationRecord = z.infer<typeof PublicationRecord>
