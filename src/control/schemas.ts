import * as z from 'zod'
import { OPERATION_IDS } from '../schemas/index.js'

/** Request and response schemas of the control plane (`/_emulator/*`). */

const Name = z.string().min(1).max(200)
const Credits = z.number().int().min(0).max(1_000_000_000)

export const CreateAccountRequest = z.strictObject({
  name: Name.optional(),
  credits: Credits.optional(),
})
export type CreateAccountRequest = z.infer<typeof CreateAccountRequest>
export const CreateAccountResponse = z.object({
  userId: z.string(),
  teamId: z.string(),
  apiKey: z.string(),
  keyId: z.string(),
})
export type CreateAccountResponse = z.infer<typeof CreateAccountResponse>

export const CreateTeamRequest = z.strictObject({
  name: Name,
  memberUserIds: z.array(z.string()).min(1),
  credits: Credits.optional(),
})
export type CreateTeamRequest = z.infer<typeof CreateTeamRequest>
export const CreateTeamResponse = z.object({ teamId: z.string(), slug: z.string() })
export type CreateTeamResponse = z.infer<typeof CreateTeamResponse>

export const CreateKeyRequest = z.strictObject({
  userId: z.string(),
  teamId: z.string().optional(),
  name: Name.optional(),
})
export type CreateKeyRequest = z.infer<typeof CreateKeyRequest>
export const CreateKeyResponse = z.object({ keyId: z.string(), apiKey: z.string() })
export type CreateKeyResponse = z.infer<typeof CreateKeyResponse>

export const SetCreditsRequest = z.strictObject({ credits: Credits })
export type SetCreditsRequest = z.infer<typeof SetCreditsRequest>
export const SetCreditsResponse = z.object({ teamId: z.string(), credits: z.number() })
export type SetCreditsResponse = z.infer<typeof SetCreditsResponse>

export const CreateTemplateRequest = z.strictObject({
  teamId: z.string(),
  name: Name,
  slideCount: z.number().int().min(1).max(20).optional(),
})
export type CreateTemplateRequest = z.infer<typeof CreateTemplateRequest>
export const CreateTemplateResponse = z.object({ templateId: z.string() })
export type CreateTemplateResponse = z.infer<typeof CreateTemplateResponse>

export const AddCollaboratorRequest = z.strictObject({ userId: z.string() })
export type AddCollaboratorRequest = z.infer<typeof AddCollaboratorRequest>
export const AddCollaboratorResponse = z.object({
  projectId: z.string(),
  slug: z.string(),
  collaborators: z.array(z.string()),
})
export type AddCollaboratorResponse = z.infer<typeof AddCollaboratorResponse>

export const ClockResponse = z.object({
  now: z.string(),
  mode: z.enum(['real', 'manual']),
  timeScale: z.number(),
})
export type ClockResponse = z.infer<typeof ClockResponse>

/** At most one year per call, so a typo cannot overflow dates. */
export const AdvanceClockRequest = z.strictObject({
  ms: z.number().int().min(0).max(366 * 24 * 3_600_000),
})
export type AdvanceClockRequest = z.infer<typeof AdvanceClockRequest>
export const AdvanceClockResponse = z.object({ now: z.string() })
export type AdvanceClockResponse = z.infer<typeof AdvanceClockResponse>

export const FailJobRequest = z.strictObject({ error: z.string().min(1).max(2000).optional() })
export type FailJobRequest = z.infer<typeof FailJobRequest>

const OperationOrAll = z.enum(['*', ...OPERATION_IDS] as [string, ...string[]])

export const AddFaultRequest = z.strictObject({
  operationId: OperationOrAll,
  status: z.number().int().min(400).max(599).optional(),
  times: z.number().int().min(0).max(1_000_000).optional(),
  error: z.string().min(1).max(2000).optional(),
  code: z.string().regex(/^[A-Z][A-Z0-9_]{0,63}$/, { error: 'must be UPPER_SNAKE_CASE' }).optional(),
  delayMs: z.number().int().min(0).max(120_000).optional(),
  apiKey: z.string().min(1).optional(),
})
  .refine((fault) => fault.status !== undefined || (fault.delayMs ?? 0) > 0, {
    error: 'give a status to answer, a delayMs to wait, or both',
  })
export type AddFaultRequest = z.infer<typeof AddFaultRequest>
export const AddFaultResponse = z.object({ faultId: z.string() })
export type AddFaultResponse = z.infer<typeof AddFaultResponse>

export const FaultView = z.object({
  id: z.string(),
  operationId: z.string(),
  status: z.number().nullable(),
  times: z.number(),
  remaining: z.number().nullable(),
  error: z.string().nullable(),
  code: z.string().nullable(),
  delayMs: z.number(),
  apiKey: z.string().nullable(),
  hits: z.number(),
})
export const ListFaultsResponse = z.object({ faults: z.array(FaultView) })
export type ListFaultsResponse = z.infer<typeof ListFaultsResponse>

export const ListRequestsQuery = z.object({
  operationId: OperationOrAll.exclude(['*']).optional(),
  limit: z
    .string()
    .regex(/^[0-9]+$/, { error: 'must be a whole number' })
    .transform(Number)
    .pipe(z.number().int().min(1).max(10_000))
    .optional(),
})
export type ListRequestsQuery = z.infer<typeof ListRequestsQuery>

export const JournalEntryView = z.object({
  id: z.string(),
  time: z.string(),
  method: z.string(),
  path: z.string(),
  operationId: z.string().nullable(),
  status: z.number(),
  durationMs: z.number(),
  keyId: z.string().nullable(),
  userId: z.string().nullable(),
})
export const ListRequestsResponse = z.object({ requests: z.array(JournalEntryView) })
export type ListRequestsResponse = z.infer<typeof ListRequestsResponse>

export const HealthResponse = z.object({ status: z.literal('ok'), version: z.string() })
export type HealthResponse = z.infer<typeof HealthResponse>
