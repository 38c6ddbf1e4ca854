/**
 * The OpenAPI document's `JobStatus` (one object per status, a `oneOf`
 * discriminated by `status`) accepts exactly the job bodies the conformance
 * kit accepts: each case below is judged twice, by the kit itself (its
 * `generation.lifecycle` scenario, with the emulator's job status answer
 * replaced by the case) and by ajv against the document.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { describe, expect, it } from 'vitest'
import { runConformance } from '../../conformance/index.js'
import { createEmulator } from '../../src/index.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
const document = JSON.parse(readFileSync(`${root}reference/openapi.json`, 'utf8')) as Record<string, any>
const ajv = new Ajv2020({ strict: false, allErrors: true })
addFormats.default(ajv)
ajv.addSchema(document, 'openapi.json')
const validateJob = ajv.getSchema('openapi.json#/components/schemas/JobStatus')!

interface Case {
  name: string
  status: string
  /** Fields set on the emulator's own answer (after its state-dependent fields are removed). */
  set?: Record<string, unknown>
  /** Fields removed from it. */
  drop?: string[]
  accepted: boolean
}

const CASES: Case[] = [
  { name: 'processing', status: 'processing', accepted: true },
  { name: 'processing with finalDuration', status: 'processing', set: { finalDuration: '3 seconds' }, accepted: false },
  { name: 'processing with publishedUrl', status: 'processing', set: { publishedUrl: 'https://site.example/' }, accepted: false },
  { name: 'processing with error', status: 'processing', set: { error: 'not yet' }, accepted: false },
  { name: 'processing with error null', status: 'processing', set: { error: null }, accepted: false },
  { name: 'completed, without finalDuration and publishedUrl', status: 'completed', accepted: true },
  {
    name: 'completed with finalDuration and publishedUrl',
    status: 'completed',
    set: { finalDuration: '118 seconds', publishedUrl: 'https://site.example/' },
    accepted: true,
  },
  { name: 'completed with a number as finalDuration', status: 'completed', set: { finalDuration: 118 }, accepted: false },
  { name: 'completed with error', status: 'completed', set: { error: 'none' }, accepted: false },
  { name: 'completed without teamId', status: 'completed', drop: ['teamId'], accepted: false },
  { name: 'completed with a field the spec does not list', status: 'completed', set: { progress: 1 }, accepted: true },
  { name: 'failed with error', status: 'failed', set: { error: 'The model is overloaded' }, accepted: true },
  { name: 'failed without error', status: 'failed', accepted: false },
  { name: 'failed with a number as error', status: 'failed', set: { error: 42 }, accepted: false },
  { name: 'failed with error null', status: 'failed', set: { error: null }, accepted: false },
  { name: 'failed with error and finalDuration', status: 'failed', set: { error: 'x', finalDuration: '3 seconds' }, accepted: false },
  {
    name: 'failed with error and publishedUrl',
    status: 'failed',
    set: { error: 'x', publishedUrl: 'https://site.example/' },
    accepted: false,
  },
  { name: 'failed with error and a field the spec does not list', status: 'failed', set: { error: 'x', retryable: true }, accepted: true },
  { name: 'a status the spec does not list', status: 'cancelled', accepted: false },
]

/** The case's body, built on the emulator's own answer so every other field is real. */
function caseBody(real: Record<string, unknown>, c: Case): Record<string, unknown> {
  const { finalDuration: _f, publishedUrl: _p, error: _e, ...rest } = real
  const body: Record<string, unknown> = { ...rest, status: c.status, ...c.set }
  for (const field of c.drop ?? []) delete body[field]
  return body
}

/**
 * The kit's verdict: its job life-cycle scenario against an emulator (manual
 * clock) whose job status answer is replaced by the case, the first
 * `processing` one for a `processing` case, the final one otherwise.
 */
async function kitAccepts(c: Case): Promise<{ accepted: boolean; body: Record<string, unknown> | undefined; failures: string[] }> {
  const emulator = createEmulator({ clock: 'manual', rateLimit: 0 })
  let sent: Record<string, unknown> | undefined
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const response = await emulator.fetch(input, init)
    const url = new URL(input instanceof Request ? input.url : String(input))
    if (!url.pathname.startsWith('/v1/projects/jobs/') || response.status !== 200) return response
    // A job that ended stays as it ended (the kit checks it across polls): every final answer after the case is the case.
    if (sent !== undefined && (c.status === 'processing' || sent.jobId !== url.pathname.split('/').pop())) return response
    const real = (await response.json()) as Record<string, unknown>
    const replace = sent !== undefined || (c.status === 'processing' ? real.status === 'processing' : real.status !== 'processing')
    if (replace) sent ??= caseBody(real, c)
    return new Response(JSON.stringify(replace ? sent : real), { status: 200, headers: response.headers })
  }
  try {
    const report = await runConformance({
      fetch: fetch as typeof globalThis.fetch,
      baseUrl: 'http://127.0.0.1:4010/v1',
      apiKey: 'pres_test_alice',
      allowWrites: true,
      allowGeneration: true,
      grep: '^generation\\.lifecycle$',
      seed: 7,
      clock: {
        now: async () => Date.parse(emulator.control.clock().now),
        sleep: async (ms) => void (await emulator.control.advanceClock({ ms: Math.max(0, Math.ceil(ms)) })),
      },
    })
    const result = report.scenarios.find((s) => s.id === 'generation.lifecycle')!
    return { accepted: result.outcome === 'pass', body: sent, failures: result.failures.map((f) => `${f.clause}: ${f.message}`) }
  } finally {
    await emulator.close()
  }
}

describe('JobStatus in the OpenAPI document', () => {
  it('is a oneOf of one object per status, discriminated by status', () => {
    const schemas = document.components.schemas
    expect(schemas.JobStatus.discriminator).toEqual({
      propertyName: 'status',
      mapping: {
        processing: '#/components/schemas/JobProcessing',
        completed: '#/components/schemas/JobCompleted',
        failed: '#/components/schemas/JobFailed',
      },
    })
    expect(schemas.JobFailed.required).toContain('error')
    expect(schemas.JobFailed.properties.status).toEqual({ type: 'string', enum: ['failed'] })
    // The fields of other statuses are not listed, and refused by name.
    expect(schemas.JobProcessing.properties.error).toBeUndefined()
    expect(schemas.JobProcessing.propertyNames).toEqual({ not: { enum: ['finalDuration', 'publishedUrl', 'error'] } })
    expect(schemas.JobCompleted.propertyNames).toEqual({ not: { enum: ['error'] } })
    expect(schemas.JobFailed.propertyNames).toEqual({ not: { enum: ['finalDuration', 'publishedUrl'] } })
  })

  it.each(CASES.map((c) => [c.name, c] as const))('judges a job body as the kit does: %s', async (_, c) => {
    const kit = await kitAccepts(c)
    expect(kit.body, 'the case was sent to the kit').toBeDefined()
    expect(kit.accepted, `the kit: ${kit.failures.join(' | ')}`).toBe(c.accepted)
    const valid = validateJob(kit.body)
    expect(valid, ajv.errorsText(validateJob.errors)).toBe(c.accepted)
  })
})
