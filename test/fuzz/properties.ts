import type fc from 'fast-check'
import { expect } from 'vitest'
import { defaultErrorCode } from '../../src/core/errors.js'
import type { EmulatorRequest, EmulatorResponse } from '../../src/core/exchange.js'
import { BUILT_IN_FIXTURES, type FixturesInput, type PresentationEmulatorBase, type StateDocument } from '../../src/index.js'
import { SITES_DOMAIN } from '../../src/model/urls.js'

/**
 * The fuzz properties of issue 11, shared by the in-process and HTTP runs:
 *
 * - never a crash or a 5xx, except the documented 502 of a dispatch-error prompt;
 * - every success validates against its response schema;
 * - every error has the spec's body, `X-Service-Error-Code` and a documented status;
 * - an error leaves the exported state byte-identical;
 * - every page renders with 200 after any accepted write.
 *
 * Every case starts from the same world (`CaseWorld`), so a case's cost
 * does not grow with the cases before it, and a failure replays from its
 * seed and path alone.
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

/**
 * fast-check parameters of every property: seeded, no time limit of its own (vitest's applies). With
 * `FUZZ_PATH` (`npm run fuzz -- --seed S --path P`), a property replays the failing case at that path
 * alone: every case starts from the same world, so it fails again on its own.
 */
export function params(numRuns: number): fc.Parameters<unknown> {
  const path = process.env.FUZZ_PATH
  return { seed: FUZZ_SEED, numRuns, endOnFailure: true, verbose: 1, ...(path === undefined || path === '' ? {} : { path }) }
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

/**
 * The world the fuzz properties run against: the built-in fixtures' users,
 * teams, keys, templates and named projects (published, on a custom domain,
 * shared with a collaborator), with a few slides each and a handful of
 * other projects. Its state document is a tenth of the default world's, and
 * reading it back after every case is most of a case's cost.
 */
export const FUZZ_FIXTURES: FixturesInput = {
  ...BUILT_IN_FIXTURES,
  templates: (BUILT_IN_FIXTURES.templates ?? []).map((template) => ({ ...template, slideCount: 2 })),
  projects: [
    { teamId: 'team_alice', slug: 'welcome-deck', name: 'Welcome deck', published: true, slideCount: 2 },
    { teamId: 'team_alice', count: 1, slideCount: 1 },
    {
      teamId: 'team_acme',
      slug: 'q3-business-review',
      name: 'Q3 business review',
      published: true,
      slideCount: 2,
      domain: 'decks.acme.example',
    },
    { teamId: 'team_acme', count: 4, slideCount: 1 },
    { teamId: 'team_acme', count: 2, published: true, slideCount: 1 },
    { teamId: 'team_bob', slug: 'bobs-roadmap', name: "Bob's roadmap", published: true, slideCount: 1, collaborators: ['usr_alice'] },
    { teamId: 'team_bob', count: 1, slideCount: 1 },
  ],
}

/**
 * The world every case of a property starts from. After each case, `after()`
 * reads the state back: a case that changed it is undone (the start is put
 * back), so each case runs against the same world, whatever ran before it.
 * An error must have changed nothing: `after()` tells whether the state is
 * still, byte for byte, the start.
 */
export class CaseWorld {
  private constructor(
    private readonly emulator: PresentationEmulatorBase,
    readonly start: StateDocument,
    private readonly startText: string,
    private readonly extra: { snapshot: () => unknown; restore: () => Promise<void> | void },
  ) {}

  /** Takes the emulator's current state as the start; `extra` adds state outside the document (faults, clock). */
  static async take(
    emulator: PresentationEmulatorBase,
    extra: { snapshot: () => unknown; restore: () => Promise<void> | void } = { snapshot: () => null, restore: () => undefined },
  ): Promise<CaseWorld> {
    const start = await emulator.control.getState()
    return new CaseWorld(emulator, start, JSON.stringify([start, extra.snapshot()]), extra)
  }

  /**
   * Whether the case left the state as it started. If not, `changed` runs first on the state the case
   * left (to render the pages of it, say), then the start is put back.
   */
  async after(changed?: (state: StateDocument) => Promise<void>): Promise<boolean> {
    const state = await this.emulator.control.getState()
    if (JSON.stringify([state, this.extra.snapshot()]) === this.startText) return true
    try {
      await changed?.(state)
    } finally {
      // The start is never changed (nor are records, which the world replaces, never edits): adopting it spares a copy.
      await this.emulator.control.putState(this.start, { adopt: true })
      await this.extra.restore()
    }
    return false
  }
}

/** Where a published project's site is served (`publishedUrl`'s path), from a state document. */
function sitePath(state: StateDocument, project: StateDocument['projects'][number]): string {
  const { placement } = project
  const hostname =
    placement.type === 'domain'
      ? state.domains.find((domain) => domain.id === placement.domainId)!.hostname
      : `${state.subdomains.find((subdomain) => subdomain.id === placement.subdomainId)!.subdomain}.${SITES_DOMAIN}`
  return `/sites/${hostname}${placement.path}`
}

/**
 * The pages of a state: the dashboard, and the editor, live fragment and published site of each of
 * `slugs` that exists. Only their status is looked at, never what they show.
 */
export async function expectPagesRender(
  emulator: PresentationEmulatorBase,
  state: StateDocument,
  slugs: Iterable<string>,
  context: string,
): Promise<void> {
  const paths = ['/_emulator']
  for (const slug of new Set(slugs)) {
    const project = state.projects.find((p) => p.slug === slug)
    if (project === undefined) continue
    paths.push(`/editor/${encodeURIComponent(slug)}`, `/editor/${encodeURIComponent(slug)}/live`)
    if (project.publishedAt !== null) paths.push(sitePath(state, project))
  }
  for (const path of paths) {
    const page: EmulatorResponse = await emulator.handle({ method: 'GET', path, query: '', headers: {}, body: null })
    if (page.stream !== undefined) await page.stream[Symbol.asyncIterator]().return?.()
    expect(page.status, `${path} after ${context}`).toBe(200)
  }
}

/** A short description of a request for failure messages. */
export function describeRequest(request: EmulatorRequest): string {
  const body = request.body === null ? '' : Buffer.from(request.body).toString('utf8')
  return `${request.method} ${request.path}${request.query === '' ? '' : `?${request.query}`} ${JSON.stringify(request.headers).slice(0, 200)} body=${JSON.stringify(body.slice(0, 300))}${body.length > 300 ? `… (${body.length} chars)` : ''}`
}
