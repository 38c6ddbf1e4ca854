/** The `presentation-conformance` bin, as installed: the built bundle in a real process. */
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../..', import.meta.url))
const run = promisify(execFile)

async function bin(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['bin/presentation-conformance.js', ...args], { cwd: root, timeout: 60_000 })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string }
    return { code: e.code, stdout: e.stdout, stderr: e.stderr }
  }
}

describe('the presentation-conformance bin', () => {
  it('runs the whole suite against an in-process emulator and exits 0', async () => {
    const { code, stdout } = await bin('--seed', '5')
    expect(stdout).toMatch(/\b53 passed, 0 failed, 0 not applicable/)
    expect(code).toBe(0)
  })

  it('walks an emulator it starts over HTTP and exits 0', async () => {
    const { code, stdout } = await bin('walk', '--target', 'http', '--runs', '5', '--steps', '10', '--seed', '2')
    expect(stdout).toContain('No divergence')
    expect(code).toBe(0)
  })

  it('exits 2 on a bad flag, with the message on stderr', async () => {
    const { code, stderr } = await bin('--reporter', 'xml')
    expect(code).toBe(2)
    expect(stderr).toContain("argument 'xml' is invalid")
  })
})
