import * as z from 'zod'
import { DateTime, HttpUrl, Uri } from './common.js'

/** The emulator's two model identifiers; the first is the default (the spec leaves the real ones unnamed). */
export const MODELS = ['fast', 'quality'] as const
export type Model = (typeof MODELS)[number]
export const DEFAULT_MODEL: Model = 'fast'

/** At most this many `referenceImageUrls` per generation. */
export const MAX_REFERENCE_IMAGES = 20

export const JOB_STATUSES = ['processing', 'completed', 'failed'] as const
export type JobStatusValue = (typeof JOB_STATUSES)[number]

/** Body of `POST /projects/generate`. */
export const GenerateProjectRequest = z.strictObject({
  prompt: z.string().min(1),
  templateId: z.string().min(1).optional(),
  referenceImageUrls: z.array(HttpUrl).max(MAX_REFERENCE_IMAGES).optional(),
  model: z.enum(MODELS).optional(),
})
export type GenerateProjectRequest = z.infer<typeof GenerateProjectRequest>

export const GenerateProjectResponse = z.object({
  jobId: z.string(),
  status: z.enum(JOB_STATUSES),
  editorUrl: Uri.nullable(),
  estimatedDuration: z.string(),
  projectId: z.string().nullable(),
  projectSlug: z.string().nullable(),
  templateId: z.string().optional(),
})
export type GenerateProjectResponse = z.infer<typeof GenerateProjectResponse>

/**
 * `GET /projects/jobs/{jobId}`. `finalDuration` appears only on a completed
 * job, `error` only on a failed one; `publishedUrl` only on a completed one.
 */
export const JobStatusResponse = z
  .object({
    jobId: z.string(),
    status: z.enum(JOB_STATUSES),
    editorUrl: Uri.nullable(),
    projectId: z.string().nullable(),
    projectSlug: z.string().nullable(),
    teamId: z.string().nullable(),
    createdAt: DateTime,
    finalDuration: z.string().optional(),
    publishedUrl: Uri.optional(),
    error: z.string().optional(),
  })
  .superRefine((job, ctx) => {
    if (job.finalDuration !== undefined && job.status !== 'completed') {
      ctx.addIssue({ code: 'custom', path: ['finalDuration'], message: 'present only when status is completed' })
    }
    if (job.publishedUrl !== undefined && job.status !== 'completed') {
      ctx.addIssue({ code: 'custom', path: ['publishedUrl'], message: 'present only when status is completed' })
    }
    if (job.error !== undefined && job.status !== 'failed') {
      ctx.addIssue({ code: 'custom', path: ['error'], message: 'present only when status is failed' })
    }
  })
export type JobStatusResponse = z.infer<typeof JobStatusResponse>
