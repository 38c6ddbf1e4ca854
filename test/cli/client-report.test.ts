import { afterAll, beforeAll, describe, expect } from 'vitest'
import { ensureBuilt, it, killAll, ROOT } from '../support/cli.js'
import { join } from 'node:path'

/**
 * `presentation-emulator exec --client-report[=strict]`: the client report of
 * the command's calls, printed after it; under `strict` an error in it fails
 * the run with exit code 1 (the kit's table, src/cli/exit-codes.ts). The
 * commands are the reference client and misbehaving clients of
 * test/support/client-report-clients.ts, calling a real emulator over HTTP.
 */

beforeAll(() => ensureBuilt())
afterAll(() => killAll())

const SCRIPT = join(ROOT, 'test', 'support', 'client-report-exec.ts')
const run = (which: string, flags: string[]) => [
  'exec',
  '--clock',
  'manual',
  '--rate-limit',
  '0',
  '--quiet',
  ...flags,
  '--',
  process.execPath,
  '--import',
  'tsx',
  SCRIPT,
  which,
]

describe('exec --client-report', () => {
  it('prints a clean report for the reference client, faults and all, and keeps the exit code 0 under strict', async ({ cli }) => {
    const result = await cli.run(run('reference', ['--client-report=strict']))
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toContain('ran reference')
    expect(result.stderr).toMatch(/client report: \d+ calls of 1 key \(req_1 to req_\d+\): 0 errors, 0 warnings/)
  })

  it('fails the run with 1 under strict when the report has an error, naming the rule and its calls', async ({ cli }) => {
    const result = await cli.run(run('generate.duplicate', ['--client-report=strict']))
    expect(result.code, result.stderr).toBe(1)
    expect(result.stderr).toMatch(/client report: 2 calls of 1 key .*: 1 error, 0 warnings/)
    expect(result.stderr).toMatch(
      / {2}error generate\.duplicate \[key_[0-9a-z]+\]: .* \(req_1, req_2; reference\/api\.md#endpoints-projects-post-projects-generate-generateproject\)/,
    )
  })

  it('prints without failing when not strict, and a warning never fails a strict run', async ({ cli }) => {
    const printed = await cli.run(run('generate.duplicate', ['--client-report']))
    expect(printed.code, printed.stderr).toBe(0)
    expect(printed.stderr).toContain('error generate.duplicate')
    const warning = await cli.run(run('poll.after-done', ['--client-report=strict']))
    expect(warning.code, warning.stderr).toBe(0)
    expect(warning.stderr).toContain('warning poll.after-done')
  })

  it('prints the report as one JSON line with --log-format json', async ({ cli }) => {
    const result = await cli.run(run('pagination.limit-out-of-range', ['--client-report', '--log-format', 'json']))
    expect(result.code, result.stderr).toBe(0)
    const line = result.stderr.split('\n').find((l) => l.includes('"clientReport"'))!
    const { clientReport } = JSON.parse(line.slice(line.indexOf('{'))) as {
      clientReport: { errors: number; findings: Array<{ rule: string }> }
    }
    expect(clientReport.errors).toBe(1)
    expect(clientReport.findings.map((finding) => finding.rule)).toEqual(['pagination.limit-out-of-range'])
  })

  it('refuses another value with exit code 2', async ({ cli }) => {
    const result = await cli.run(['exec', '--client-report=loud', '--', 'true'])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('--client-report takes no value or "strict", not "loud"')
  })
})
