/**
 * Redocly CLI's recommended rules, with the project's `redocly.yaml`, find
 * nothing in the OpenAPI document: 0 errors, 0 warnings. The linter runs
 * offline (telemetry and the update check off).
 */
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../..', import.meta.url))
const cliPackage = createRequire(import.meta.url).resolve('@redocly/cli/package.json')
const cli = join(dirname(cliPackage), (JSON.parse(readFileSync(cliPackage, 'utf8')) as { bin: { redocly: string } }).bin.redocly)

describe('Redocly lint of the OpenAPI document', () => {
  it('turns off only no-ambiguous-paths (the spec’s own paths), and telemetry', () => {
    const config = readFileSync(`${root}redocly.yaml`, 'utf8')
    const settings = config.split('\n').filter((line) => /^\s*[a-z-]+:\s*(off|warn|error|on)\s*$/.test(line))
    expect(settings.map((line) => line.trim())).toEqual(['no-ambiguous-paths: off', 'telemetry: off'])
    expect(config).toMatch(/extends:\s*\n\s*- recommended/)
  })

  it('finds 0 errors and 0 warnings with the recommended rules', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [cli, 'lint', 'reference/openapi.json', '--format=json'], {
      cwd: root,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
    })
    const result = JSON.parse(stdout) as { totals: { errors: number; warnings: number; ignored: number }; problems: unknown[] }
    expect(result.problems).toEqual([])
    expect(result.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 })
  })
})
