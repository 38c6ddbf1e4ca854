import { expect } from 'vitest'
import { ServiceError } from '../../src/core/errors.js'
import { expectError, type Harness, type Reply } from '../support/harness.js'

/** What `POST /_emulator/accounts` answers. */
export interface Account {
  userId: string
  teamId: string
  apiKey: string
  keyId: string
}

/** Creates a fresh account through the control plane (the way under test) and checks the 201. */
export async function createAccount(h: Harness, json: Record<string, unknown> = {}): Promise<Account> {
  const reply = await h.control('POST', '/accounts', { json })
  expect(reply.status, reply.text).toBe(201)
  return reply.body as Account
}

/** The whole state document as the control plane exports it (its exact text). */
export async function stateText(h: Harness): Promise<string> {
  const reply = await h.control('GET', '/state')
  expect(reply.status, reply.text).toBe(200)
  return reply.text
}

/** A team's credits as the state document reports them. */
export async function creditsOf(h: Harness, teamId: string): Promise<number> {
  const reply = await h.control('GET', '/state')
  const team = (reply.body.teams as Array<{ id: string; credits: number }>).find((t) => t.id === teamId)
  if (team === undefined) throw new Error(`no team ${teamId} in the state`)
  return team.credits
}

/** Asserts a control-plane 400 with the spec's error body and a hint. */
export function expectBadInput(reply: Reply, hint?: RegExp | string): void {
  expectError(reply, 400, 'VALIDATION_ERROR')
  expect(reply.body.hint).toBeTypeOf('string')
  if (hint !== undefined) expect(reply.body.hint).toMatch(hint)
}

/** Asserts a control-plane 404 with the spec's error body. */
export function expectUnknown(reply: Reply): void {
  expectError(reply, 404, 'NOT_FOUND')
}

/**
 * Runs an in-process control action expected to fail and returns the
 * `ServiceError` it threw (synchronously or as a rejection).
 */
export async function rejection(action: () => unknown): Promise<ServiceError> {
  let outcome: unknown
  try {
    await action()
  } catch (error) {
    outcome = error
  }
  if (!(outcome instanceof ServiceError)) {
    throw new Error(`expected a ServiceError, got ${outcome === undefined ? 'success' : String(outcome)}`)
  }
  return outcome
}

/** Starts a generation with `key` and returns the 200 body. */
export async function generate(h: Harness, key: string, json: Record<string, unknown> = { prompt: 'A deck about otters' }) {
  const reply = await h.api('POST', '/projects/generate', { key, json })
  expect(reply.status, reply.text).toBe(200)
  return reply.body as { jobId: string; projectSlug: string; projectId: string; templateId?: string; estimatedDuration: string }
}
