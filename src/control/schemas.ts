import * as z from 'zod'
import { DECK_SLIDES_MAX } from '../content/designs.js'
import { MAX_WAIT_MS } from '../core/journal.js'
import { OPERATION_IDS, type OperationId } from '../schemas/index.js'

/** Request and response schemas of the control plane (`/_emulator/*`). */

const Name = z.string().min(1).max(200)
// The bound first, and alone: 1e308 is "at most 1000000000", not also "at most 9007199254740991".
const Credits = z.number().min(0).max(1_000_000_000, { abort: true }).int()

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

/** `GET /_emulator/keys/{keyId}`: one key with its value (the dashboard's reveal and copy buttons read it). */
export const KeyResponse = z.object({
  keyId: z.string(),
  apiKey: z.string(),
  name: z.string(),
  userId: z.string(),
  teamId: z.string(),
  createdAt: z.string(),
  revokedAt: z.string().nullable(),
})
export type KeyResponse = z.infer<typeof KeyResponse>

export const SetCreditsRequest = z.strictObject({ credits: Credits })
export type SetCreditsRequest = z.infer<typeof SetCreditsRequest>
export const SetCreditsResponse = z.object({ teamId: z.string(), credits: z.number() })
export type SetCreditsResponse = z.infer<typeof SetCreditsResponse>

export const CreateTemplateRequest = z.strictObject({
  teamId: z.string(),
  name: Name,
  slideCount: z.number().int().min(1).max(DECK_SLIDES_MAX).optional(),
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
  ms: z
    .number()
    .int()
    .min(0)
    .max(366 * 24 * 3_600_000),
})
export type AdvanceClockRequest = z.infer<typeof AdvanceClockRequest>
export const AdvanceClockResponse = z.object({ now: z.string() })
export type AdvanceClockResponse = z.infer<typeof AdvanceClockResponse>

export const FailJobRequest = z.strictObject({ error: z.string().min(1).max(2000).optional() })
export type FailJobRequest = z.infer<typeof FailJobRequest>

/** An operation id of the contract, or `*` for every operation: a typo is a type error in-process and a 400 over HTTP. */
const OperationOrAll = z.enum(['*', ...OPERATION_IDS] as ['*', ...OperationId[]])

export const AddFaultRequest = z
  .strictObject({
    operationId: OperationOrAll,
    status: z.number().int().min(400).max(599).optional(),
    times: z.number().int().min(0).max(1_000_000).optional(),
    error: z.string().min(1).max(2000).optional(),
    code: z
      .string()
      .regex(/^[A-Z][A-Z0-9_]{0,63}$/, { error: 'must be UPPER_SNAKE_CASE' })
      .optional(),
    delayMs: z.number().int().min(0).max(120_000).optional(),
    apiKey: z.string().min(1).optional(),
    retryAfter: z.number().int().min(0).max(86_400).optional(),
  })
  .refine((fault) => fault.status !== undefined || (fault.delayMs ?? 0) > 0, {
    error: 'give a status to answer, a delayMs to wait, or both',
  })
  .refine((fault) => fault.retryAfter === undefined || fault.status !== undefined, {
    error: 'is sent with an error: give a status too',
    path: ['retryAfter'],
  })
export type AddFaultRequest = z.input<typeof AddFaultRequest>
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
  retryAfter: z.number().nullable(),
  hits: z.number(),
})
export const ListFaultsResponse = z.object({ faults: z.array(FaultView) })
export type ListFaultsResponse = z.infer<typeof ListFaultsResponse>

const WholeNumber = z
  .string()
  .regex(/^[0-9]+$/, { error: 'must be a whole number, 0 or more' })
  .transform(Number)

/** An ISO 8601 date (UTC) or date-time with its zone: no local time, which would depend on the machine. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/i

/** A date-time on the emulator clock: ISO 8601 with a zone (`Z` or `±hh:mm`), or epoch milliseconds. */
const Instant = z.string().transform((value, ctx) => {
  const ms = /^[0-9]+$/.test(value) ? Number(value) : ISO_INSTANT.test(value) ? Date.parse(value) : Number.NaN
  if (!Number.isFinite(ms)) {
    ctx.addIssue({ code: 'custom', message: 'must be an ISO 8601 date-time with its zone (2026-01-01T00:00:00Z) or epoch milliseconds' })
    return z.NEVER
  }
  return ms
})

/** Which journal entries a listing or a wait is about (query strings: every value is text). */
export const JournalFilterQuery = z.object({
  operationId: OperationOrAll.exclude(['*']).optional(),
  status: z
    .string()
    .regex(/^(?:[1-5][0-9]{2}|[1-5]xx)$/, { error: 'must be a status (429) or a class (4xx)' })
    .transform((value) => (value.endsWith('xx') ? (value as `${1 | 2 | 3 | 4 | 5}xx`) : Number(value)))
    .optional(),
  keyId: z.string().min(1).optional(),
  since: Instant.optional(),
  until: Instant.optional(),
  after: z
    .string()
    .regex(/^req_[0-9]+$/, { error: 'must be a request id (req_<n>)' })
    .optional(),
  bodyLimit: WholeNumber.pipe(
    z
      .number()
      .int()
      .min(0)
      .max(16 * 1024 * 1024),
  ).optional(),
})

export const ListRequestsQuery = JournalFilterQuery.extend({
  limit: WholeNumber.pipe(z.number().int().min(1).max(10_000)).optional(),
})
export type ListRequestsQuery = z.infer<typeof ListRequestsQuery>

export const WaitForRequestQuery = JournalFilterQuery.extend({
  timeoutMs: WholeNumber.pipe(z.number().int().min(0).max(MAX_WAIT_MS)).optional(),
})
export type WaitForRequestQuery = z.infer<typeof WaitForRequestQuery>

/** `GET /_emulator/client-report`: every credential, or one key; everything kept, or after a request id or a mark. */
export const ClientReportQuery = z.strictObject({
  keyId: z.string().min(1).optional(),
  since: z
    .string()
    .regex(/^(?:req|mark)_[0-9]+$/, { error: 'must be a request id (req_<n>) or a mark (mark_<n>)' })
    .optional(),
})
export type ClientReportQuery = z.infer<typeof ClientReportQuery>

/** `POST /_emulator/client-report/marks`: a mark at the newest request so far. */
export const ClientReportMarkResponse = z.object({ mark: z.string(), after: z.string().nullable() })
export type ClientReportMarkResponse = z.infer<typeof ClientReportMarkResponse>

const JournalMessageView = z.object({
  headers: z.record(z.string(), z.string()),
  body: z.string().nullable(),
  bodySize: z.number(),
  bodyTruncated: z.boolean(),
})

export const JournalEntryView = z.object({
  id: z.string(),
  time: z.string(),
  method: z.string(),
  path: z.string(),
  query: z.string(),
  operationId: z.string().nullable(),
  status: z.number(),
  durationMs: z.number(),
  keyId: z.string().nullable(),
  userId: z.string().nullable(),
  realTime: z.string(),
  keyFingerprint: z.string().nullable(),
  clientGone: z.boolean(),
  request: JournalMessageView,
  response: JournalMessageView,
})
export const ListRequestsResponse = z.object({ requests: z.array(JournalEntryView) })
export type ListRequestsResponse = z.infer<typeof ListRequestsResponse>
export const WaitForRequestResponse = z.object({ request: JournalEntryView })
export type WaitForRequestResponse = z.infer<typeof WaitForRequestResponse>

export const HealthResponse = z.object({ status: z.literal('ok'), version: z.string() })
export type HealthResponse = z.infer<typeof HealthResponse>
