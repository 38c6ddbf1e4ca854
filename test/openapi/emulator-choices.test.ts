/**
 * A status the OpenAPI document marks `x-emulator-choice` is the emulator's
 * own: the spec does not show it, so a deployment may answer otherwise. The
 * conformance kit must never fail a deployment over one: run as a
 * deployment against the spec-legal server, with every such answer turned
 * into a 422, it finds no failure.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { runAsDeployment, specLegalEmulator } from '../conformance/variants.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
const document = JSON.parse(readFileSync(`${root}reference/openapi.json`, 'utf8')) as Record<string, any>

/** The document's operations as path patterns, literal segments before parameters (as servers route them). */
const OPERATIONS = Object.entries(document.paths as Record<string, Record<string, any>>)
  .flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({
      method: method.toUpperCase(),
      pattern: new RegExp(`^/v1${path.replace(/\{\w+\}/g, '[^/]+')}$`),
      params: (path.match(/\{/g) ?? []).length,
      op,
    })),
  )
  .sort((a, b) => a.params - b.params)

/** The statuses the document marks as the emulator's choice for a request, by its method and path. */
function choicesFor(method: string, path: string): Set<number> {
  const found = OPERATIONS.find((o) => o.method === method && o.pattern.test(path))
  const responses = (found?.op.responses ?? {}) as Record<string, Record<string, unknown>>
  return new Set(
    Object.entries(responses)
      .filter(([, response]) => response['x-emulator-choice'] === true)
      .map(([status]) => Number(status)),
  )
}

describe('statuses marked x-emulator-choice', () => {
  it('are never required of a deployment: the kit passes one that answers 422 instead of each', async () => {
    const server = specLegalEmulator()
    const replaced = new Map<string, number>()
    const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      const request = new Request(input, init)
      const response = await server.fetch(request)
      const path = new URL(request.url).pathname
      if (!choicesFor(request.method, path).has(response.status)) return response
      const key = `${request.method} ${path.replace(/\/[^/]*$/, '/…')} ${response.status}`
      replaced.set(key, (replaced.get(key) ?? 0) + 1)
      return Response.json(
        { error: 'Unprocessable', hint: `a deployment's own answer instead of ${response.status}` },
        { status: 422, headers: { 'x-service-error-code': 'unprocessable' } },
      )
    }
    const report = await runAsDeployment(server, { seed: 5, fetch: fetch as typeof globalThis.fetch })
    const failures = report.scenarios
      .filter((s) => s.outcome === 'fail')
      .map((s) => ({ id: s.id, failures: s.failures.map((f) => `${f.clause}: ${f.message}`) }))
    expect(failures).toEqual([])
    // The kit did meet such statuses (the slide operations' 404 and 400 among them).
    expect([...replaced.keys()].some((key) => / 404$/.test(key))).toBe(true)
    expect([...replaced.keys()].some((key) => / 400$/.test(key))).toBe(true)
  })
})
