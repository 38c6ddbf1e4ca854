/**
 * Run ids are unique per run even with a fixed seed (issue 36: `--seed 42`
 * gave the same run id twice, so a second run's project names collided with
 * the first's); `--run-id` forces one for a replay.
 */
import { describe, expect, it } from 'vitest'
import { main, runConformance } from '../../conformance/index.js'
import { createEmulator } from '../../src/index.js'

async function projectNames(options: { seed: number; runId?: string }): Promise<{ runId: string; names: string[] }> {
  const emulator = createEmulator({ clock: 'manual' })
  const report = await runConformance({
    fetch: emulator.fetch,
    baseUrl: 'http://127.0.0.1:4010/v1',
    controlUrl: 'http://127.0.0.1:4010/_emulator',
    allowWrites: true,
    emulatorChecks: false,
    grep: '^projects\\.create$',
    ...options,
  })
  const state = (await emulator.control.getState()) as { projects: Array<{ name: string }> }
  await emulator.close()
  return { runId: report.runId, names: state.projects.map((p) => p.name).filter((n) => n.startsWith('conformance-')) }
}

describe('run ids', () => {
  it('two runs with the same seed create projects with different names', async () => {
    const first = await projectNames({ seed: 42 })
    const second = await projectNames({ seed: 42 })
    expect(first.names.length).toBeGreaterThan(0)
    expect(first.runId).not.toBe(second.runId)
    for (const name of first.names) expect(name.startsWith(`conformance-${first.runId}`)).toBe(true)
    expect(first.names.filter((name) => second.names.includes(name))).toEqual([])
  })

  it('--run-id forces one, and the CLI prints it at the start', async () => {
    expect((await projectNames({ seed: 1, runId: 'replay7' })).names.every((n) => n.startsWith('conformance-replay7 '))).toBe(true)
    let out = ''
    const code = await main(['node', 'pc', '--grep', '^teams\\.', '--seed', '42', '--run-id', 'abc123'], {
      out: (t) => void (out += t),
      err: () => undefined,
    })
    expect(code).toBe(0)
    expect(out.split('\n')[0]).toMatch(/· seed 42 · run abc123 ·/)
    let err = ''
    expect(await main(['node', 'pc', '--run-id', 'Not Valid'], { out: () => undefined, err: (t) => void (err += t) })).toBe(2)
    expect(err).toContain('--run-id')
  })
})
