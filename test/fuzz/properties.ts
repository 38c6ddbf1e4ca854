import type fc from 'fast-check'
import { expect } from 'vitest'
import { defaultErrorCode } from '../../src/core/errors.js'
import type { EmulatorRequest, EmulatorResponse } from '../../src/core/exchange.js'
import type { PresentationEmulator } from '../../src/index.js'
import { siteAddress } from '../../src/model/urls.js'

/**
 * The fuzz properties of issue 11, shared by the in-process and HTTP runs:
 *
 * - never a crash or a 5xx, except the documented 502 of a dispatch-error prompt;
 * - every success validates against its response schema;
 * - every error has the spec's body, `X-Service-Error-Code` and a documented status;
 * - an error leaves the exported state byte-identical;
 * - every page renders with 200 after any accepted write.
 *
 * `npm test` runs them at a fixed seed with a bounded number of runs;
 * `npm run fuzz -- --seed S --runs N` runs them longer (FUZZ_SEED, FUZZ_RUNS).
 */

const envNumber = (name: string): number | undefined => {
  const value = process.env[name]
  return value === undefined || value === '' ? undefined : Number(value)
}

/** The seed of every fuzz property: fixed in `npm test`, chosen with `npm run fuzz -- --seed S`. */
export const FUZZ_SEED = envNumber('FUZZ_SEED') ?? 20_261_123

/** Runs of a property: its share of the suite's budget, or `--runs N` for each. */
export function runs(suiteDefault: number): number {
  return envNumber('FUZZ_RUNS') ?? suiteDefault
}

/** A test's time limit: `ms` in npm test, none in a longer `npm run fuzz`. */
export function timeout(ms: number): number {
  return envNumber('FUZZ_RUNS') === undefined ? ms : 7 * 24 * 3_600_000
}

/** fast-check parameters of every property: seeded, no time limit of its own (vitest's applies). */
export function params(numRuns: number): fc.Parameters<unknown> {
  return { seed: FUZZ_SEED, numRuns, endOnFailure: true, verbose: 1 }
}

/** How many generated cases ran, by property, for the report at the end of each file. */
export const counts = new Map<string, number>()
export function count(name: string): void {
  counts.set(name, (counts.get(name) ?? 0) + 1)
}

/** The spec's error body and code, exactly. */
export function expectErrorShape(
  response: { status: number; headers: Record<string, string>; body: string | null },
  context: string,
  code?: string,
): void {
  // 403 is the web guard's own code; every other status has the contract's code (or HTTP_<status>), unless the route documents its own.
  expect(response.headers['x-service-error-code'], context).toBe(
    code ?? (response.status === 403 ? 'FORBIDDEN' : defaultErrorCode(response.status)),
  )
  expect(response.headers['content-type'], context).toMatch(/^application\/json/)
  const body = JSON.parse(response.body ?? '')
  expect(typeof body.error, context).toBe('string')
  expect(
    Object.keys(body).filter((key) => key !== 'error' && key !== 'hint'),
    context,
  ).toEqual([])
  if ('hint' in body) expect(typeof body.hint, context).toBe('string')
}

/** The whole exported state as text (byte-identity is the property). */
export async function stateText(emulator: PresentationEmulator): Promise<string> {
  return JSON.stringify(await emulator.control.getState())
}

const get = (path: string): EmulatorRequest => ({ method: 'GET', path, query: '', headers: {}, body: null })

/** The pages a write may have touched: the dashboard, and the project's editor, live fragment and published site. */
export async function expectPagesRender(emulator: PresentationEmulator, slugs: Iterable<string>, context: string): Promise<void> {
  const paths = ['/_emulator']
  const world = emulator.emulator.world
  for (const slug of slugs) {
    const project = world.projectBySlug(slug)
    if (project === undefined) continue
    paths.push(`/editor/${encodeURIComponent(slug)}`, `/editor/${encodeURIComponent(slug)}/live`)
    if (project.publishedAt !== null) {
      const address = siteAddress(world, project)
      paths.push(`/sites/${address.hostname}${address.path}`)
    }
  }
  for (const path of paths) {
    const page: EmulatorResponse = await emulator.handle(get(path))
    expect(page.status, `${path} after ${context}`).toBe(200)
  }
}

/** A short description of a request for failure messages. */
export function describeRequest(request: EmulatorRequest): string {
  const body = request.body === null ? '' : Buffer.from(request.body).toString('utf8')
  return `${request.method} ${request.path}${request.query === '' ? '' : `?${request.query}`} ${JSON.stringify(request.headers).slice(0, 200)} body=${JSON.stringify(body.slice(0, 300))}${body.length > 300 ? `… (${body.length} chars)` : ''}`
}
