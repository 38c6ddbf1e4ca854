/**
 * The API has no delete, so a person must be able to find everything a run
 * made: every project the kit creates carries `conformance-<run id>` by the
 * end of its scenario (those whose name the kit cannot choose at creation
 * are renamed), and the report lists every one of them.
 */
import { describe, expect, it } from 'vitest'
import { runConformance, type Report } from '../../conformance/index.js'
import { createEmulator, type PresentationEmulator } from '../../src/index.js'
import { runAsDeployment, specLegalEmulator } from './variants.js'

const BASE = 'http://127.0.0.1:4010/v1'

async function projects(emulator: PresentationEmulator): Promise<Map<string, string>> {
  const state = (await emulator.control.getState()) as unknown as { projects: Array<{ slug: string; name: string }> }
  return new Map(state.projects.map((p) => [p.slug, p.name]))
}

/** The projects the run made: their names all carry the prefix, and the report lists exactly them. */
function expectAllPrefixed(report: Report, before: Map<string, string>, after: Map<string, string>): void {
  const made = [...after].filter(([slug]) => !before.has(slug))
  expect(made.length).toBeGreaterThan(10)
  const prefix = `conformance-${report.runId}`
  expect(made.filter(([, name]) => !name.startsWith(prefix)).map(([slug, name]) => `${slug}: ${name}`)).toEqual([])
  expect(made.map(([slug]) => slug).sort()).toEqual([...report.createdProjects].sort())
  // Projects the run did not make kept their names.
  for (const [slug, name] of before) expect(after.get(slug), slug).toBe(name)
}

describe('every project the kit creates carries the run’s prefix', () => {
  it('against the emulator with a control plane (spec and emulator checks)', async () => {
    const emulator = createEmulator({ clock: 'manual', rateLimit: 50 })
    const before = await projects(emulator)
    const report = await runConformance({
      fetch: emulator.fetch,
      baseUrl: BASE,
      controlUrl: 'http://127.0.0.1:4010/_emulator',
      allowWrites: true,
      allowGeneration: true,
      seed: 21,
    })
    expect(report.scenarios.filter((s) => s.outcome === 'fail').map((s) => s.id)).toEqual([])
    expectAllPrefixed(report, before, await projects(emulator))
  })

  it('against a deployment that names copies and generated projects its own way', async () => {
    const server = specLegalEmulator()
    const before = await projects(server)
    const report = await runAsDeployment(server, { seed: 22, grep: /^(projects|slides|publishing|generation|isolation)\./ })
    expect(report.scenarios.filter((s) => s.outcome === 'fail').map((s) => s.id)).toEqual([])
    expectAllPrefixed(report, before, await projects(server))
  })
})
