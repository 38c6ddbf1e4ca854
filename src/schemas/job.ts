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
 * The fields of a job that belong to one status (the spec's "only when status
 * is …"): each is present only in that status. `always` marks the one that
 * status always carries: a failed job has its `error` ("failed: error
 * appears"). The response schema below rejects a field outside its status;
 * the conformance kit checks `always` as its own clause ("a failed job has
 * error"), so a report names it. The OpenAPI document describes a job as one
 * object per status built from this table.
 */
export const JOB_STATUS_FIELDS = {
  finalDuration: { status: 'completed', always: false },
  publishedUrl: { status: 'completed', always: false },
  error: { status: 'failed', always: true },
} as const satisfies Record<string, { status: JobStatusValue; always: boolean }>

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
    for (const [field, { status }] of Object.entries(JOB_STATUS_FIELDS)) {
      if (job[field as keyof typeof JOB_STATUS_FIELDS] !== undefined && job.status !== status) {
        ctx.addIssue({ code: 'custom', path: [field], message: `present only when status is ${status}` })
      }
    }
  })
export type JobStatusResponse = z.infer<typeof JobStatusResponse>
