/**
 * The table of facts: its rows are complete and the docs carry them; the
 * observer judges recorded exchanges on its own (plain data in, verdicts
 * out), learning what the spec leaves to the server from the server's own
 * first answers.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { FACTS, Observer, observe, type Recorded, type Verdict } from '../../conformance/index.js'
import { FACTS_DOC, factsDoc } from '../../scripts/conformance-docs.js'

const BASE = 'https://api.example.com/v1'

/** A recorded exchange, as a proxy or a HAR file would give it. */
function recorded(method: string, path: string, status: number, response: unknown, request?: unknown, key = 'acme_main_key'): Recorded {
  return {
    method,
    url: `${BASE}${path}`,
    requestHeaders: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    requestBody: request === undefined ? undefined : JSON.stringify(request),
    status,
    responseHeaders: { 'Content-Type': 'application/json', ...(status >= 400 ? { 'X-Service-Error-Code': 'whatever' } : {}) },
    responseBody: JSON.stringify(response),
  }
}

/** An observer and a function that shows it one recorded exchange, answering its verdicts. */
function watching(settings: ConstructorParameters<typeof Observer>[0] = {}) {
  const observer = new Observer(settings)
  return (exchange: Recorded) => observer.observe(observe(exchange, BASE))
}

/** A project `slug` created with the name `name`, as recorded. */
const creation = (slug: string, name: string) =>
  recorded(
    'POST',
    '/projects',
    200,
    { projectId: `id-${slug}`, projectSlug: slug, projectVersionId: 'v1', editorUrl: `https://app.example.com/e/${slug}` },
    { name },
  )

const broken = (verdicts: Verdict[]) => verdicts.filter((v) => !v.holds).map((v) => `${v.fact.id}: ${v.miss?.subject ?? ''}`)

const project = (slug: string, name: string, published = false) => ({
  id: `id-${slug}`,
  slug,
  name,
  publishedAt: published ? '2026-01-01T00:00:00Z' : null,
  updatedAt: '2026-01-01T00:00:00Z',
  editorUrl: `https://app.example.com/e/${slug}`,
  createdAt: '2026-01-01T00:00:00Z',
  publishedUrl: published ? `https://${slug}.example.net/` : null,
  latestVersion: { id: 'v1', name: 'first', createdAt: '2026-01-01T00:00:00Z' },
})

describe('the table of facts', () => {
  it('has unique ids; a spec row names its heading and judges, a learned row says how, a never row why', () => {
    expect(new Set(FACTS.map((f) => f.id)).size).toBe(FACTS.length)
    for (const fact of FACTS) {
      if (fact.basis === 'spec') {
        expect(fact.clause, fact.id).toMatch(/^(Resources|Endpoints|States|Authentication|Errors|Limits|Versioning|What the service does)/)
        expect(typeof fact.evaluate, fact.id).toBe('function')
      } else if (fact.basis === 'learned') expect(fact.how.length, fact.id).toBeGreaterThan(20)
      else expect(fact.reason.length, fact.id).toBeGreaterThan(3)
    }
    expect(FACTS.filter((f) => f.basis === 'learned').map((f) => f.id)).toEqual(
      expect.arrayContaining(['learned.prefix', 'learned.new-config', 'learned.names']),
    )
  })

  it('is published in docs/conformance/facts.md, as the table generates it (npm run docs:conformance)', () => {
    const current = readFileSync(FACTS_DOC, 'utf8')
    expect(factsDoc(current)).toBe(current)
    for (const fact of FACTS) expect(current).toContain(`\`${fact.id}\``)
  })
})

describe('a passive observer', () => {
  it('learns a new project’s configuration from the server’s first answer, and holds the merge to it', () => {
    const see = watching({ prefix: 'acme_' })
    see(
      recorded(
        'POST',
        '/projects',
        200,
        { projectId: 'p1', projectSlug: 'p1', projectVersionId: 'v1', editorUrl: 'https://e/p1' },
        { name: 'Deck' },
      ),
    )
    // What a new project's configuration holds is the server's choice: learned, never compared with another server's.
    expect(broken(see(recorded('GET', '/projects/p1/config', 200, { config: { tokens: { palette: [], fonts: [] } } })))).toEqual([])
    see(recorded('PUT', '/projects/p1/config', 200, { versionId: 'v2', config: { layout: 'CARD' } }, { config: { layout: 'CARD' } }))
    // Key order is never judged; a key written is, and so is every other key as it was.
    expect(
      broken(see(recorded('GET', '/projects/p1/config', 200, { config: { layout: 'CARD', tokens: { fonts: [], palette: [] } } }))),
    ).toEqual([])
    expect(broken(see(recorded('GET', '/projects/p1/config', 200, { config: { layout: 'CARD' } })))).toEqual([
      'config.merge: project p1, config key tokens',
    ])
  })

  it('judges relations across exchanges: a rename then a read, a duplicate then a write to it then a read of its source', () => {
    const see = watching()
    see(creation('a', 'A'))
    see(recorded('PATCH', '/projects/a', 200, { success: true, name: 'B' }, { name: 'B' }))
    expect(broken(see(recorded('GET', '/projects/a', 200, project('a', 'A'))))).toEqual(['project.name: project a'])
    expect(broken(see(recorded('GET', '/projects/a/config', 200, { config: {} })))).toEqual([])
    see(
      recorded('POST', '/projects/a/duplicate', 200, {
        projectId: 'id-c',
        projectSlug: 'c',
        name: 'B (copy)',
        editorUrl: 'https://app.example.com/e/c',
      }),
    )
    see(recorded('PUT', '/projects/c/config', 200, { versionId: 'v9', config: { width: 'FULL' } }, { config: { width: 'FULL' } }))
    // The source shows its duplicate's write: they share their config.
    expect(broken(see(recorded('GET', '/projects/a/config', 200, { config: { width: 'FULL' } })))).toEqual([
      'config.merge: project a, config key width',
    ])
  })

  it('holds keys to the prefix learned from the key given: one with another prefix must be 401', () => {
    const observer = new Observer({ prefix: 'acme_' })
    const teams = { teams: [{ id: 't', slug: 't', name: 'T', isPersonal: true }] }
    expect(broken(observer.observe(observe(recorded('GET', '/teams', 200, teams, undefined, 'acme_one'), BASE)))).toEqual([])
    expect(broken(observer.observe(observe(recorded('GET', '/teams', 200, teams, undefined, 'other_one'), BASE)))).toEqual([
      'auth.prefix: a key not beginning with acme_',
    ])
    expect(broken(observer.observe(observe(recorded('GET', '/teams', 401, { error: 'no' }, undefined, 'other_one'), BASE)))).toEqual([])
  })

  it('judges nothing of projects it did not see made, and forgets one an unknown operation changed', () => {
    const see = watching()
    expect(broken(see(recorded('GET', '/projects/elsewhere', 404, { error: 'Project not found' })))).toEqual([])
    see(creation('a', 'A'))
    expect(broken(see(recorded('GET', '/projects/a', 404, { error: 'Project not found' })))).toEqual(['project.reachable: project a'])
    // An operation the spec does not show (say, its own create-slides path) may change anything about the project.
    see(recorded('POST', '/projects/a/slides/bulk', 200, { ok: true }))
    expect(broken(see(recorded('GET', '/projects/a', 200, project('a', 'Renamed elsewhere'))))).toEqual([])
  })
})
