import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect } from 'vitest'
import { keyVariable } from '../../src/cli/main.js'
import { ensureBuilt, it, killAll, tempDir } from '../support/cli.js'

/**
 * `presentation-emulator exec [flags] -- <command...>`, run as a user runs
 * it: a real CLI process running a real command (a small node script).
 */

beforeAll(() => ensureBuilt())
afterAll(() => killAll())

/** `exec -- node -e <script>` with the given exec flags. */
const execNode = (script: string, flags: string[] = []) => ['exec', ...flags, '--', process.execPath, '-e', script]

/** A command that prints what it was given, calls the API with Bob's key, and exits with code 7. */
const REPORT = `
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('PRESENTATION_EMULATOR_')))
const res = await fetch(process.env.PRESENTATION_EMULATOR_URL + '/teams', { headers: { authorization: 'Bearer ' + process.env.PRESENTATION_EMULATOR_KEY_BOB } })
const health = await fetch(process.env.PRESENTATION_EMULATOR_CONTROL_URL + '/health')
console.log(JSON.stringify({ env, status: res.status, limit: res.headers.get('x-ratelimit-limit'), health: health.status, argv: process.argv.slice(1) }))
process.exit(7)
`

describe('exec', () => {
  it('runs the command against an emulator on a free port, with its URLs and fixture keys, and exits with its code', async ({ cli }) => {
    const result = await cli.run([...execNode(`(async () => {${REPORT}})()`), 'one', '--two'])
    expect(result.code, result.stderr).toBe(7)
    const report = JSON.parse(result.stdout)
    const url = new URL(report.env.PRESENTATION_EMULATOR_URL)
    expect(url.pathname).toBe('/v1')
    expect(url.port).not.toBe('4010')
    expect(report.env).toEqual({
      PRESENTATION_EMULATOR_URL: `${url.origin}/v1`,
      PRESENTATION_EMULATOR_CONTROL_URL: `${url.origin}/_emulator`,
      PRESENTATION_EMULATOR_KEY_ALICE: 'pres_test_alice',
      PRESENTATION_EMULATOR_KEY_ALICE_ACME: 'pres_test_alice_acme',
      PRESENTATION_EMULATOR_KEY_BOB: 'pres_test_bob',
      PRESENTATION_EMULATOR_KEY_REVOKED: 'pres_test_revoked',
    })
    // No rate limit unless asked for: a test suite under exec never meets a 429 it did not ask for.
    expect(report).toMatchObject({ status: 200, health: 200, limit: null, argv: ['one', '--two'] })
    // One line on stderr says where the emulator listened; stdout is the command's alone.
    expect(result.stderr).toContain(`presentation-emulator: emulator listening on ${url.origin}`)
    // Stopped with the command: nothing answers there any more.
    await expect(fetch(`${url.origin}/_emulator/health`)).rejects.toThrow()
  })

  it('passes exit code 0 through, and takes the serve flags (--rate-limit, --clock, --quiet, --admin-token)', async ({ cli }) => {
    const script = `(async () => {
      const headers = { authorization: 'Bearer ' + process.env.PRESENTATION_EMULATOR_ADMIN_TOKEN }
      const clock = await (await fetch(process.env.PRESENTATION_EMULATOR_CONTROL_URL + '/clock', { headers })).json()
      const res = await fetch(process.env.PRESENTATION_EMULATOR_URL + '/teams', { headers: { authorization: 'Bearer ' + process.env.PRESENTATION_EMULATOR_KEY_ALICE } })
      console.log(JSON.stringify({ mode: clock.mode, limit: res.headers.get('x-ratelimit-limit') }))
    })()`
    const result = await cli.run(execNode(script, ['--clock', 'manual', '--rate-limit', '0', '--quiet', '--admin-token', 'sesame']))
    expect(result.code, result.stderr).toBe(0)
    expect(JSON.parse(result.stdout)).toEqual({ mode: 'manual', limit: null })
    expect(result.stderr).toBe('')
  })

  it('limits no rate by default on the manual clock either, and the spec’s 50 per minute when given --rate-limit 50', async ({ cli }) => {
    const script = `(async () => {
      const statuses = []
      for (let i = 0; i < 201; i++) statuses.push((await fetch(process.env.PRESENTATION_EMULATOR_URL + '/teams', { headers: { authorization: 'Bearer ' + process.env.PRESENTATION_EMULATOR_KEY_ALICE } })).status)
      console.log(JSON.stringify(statuses.filter((s) => s !== 200)))
    })()`
    const unlimited = await cli.run(execNode(script, ['--clock', 'manual']))
    expect(unlimited.code, unlimited.stderr).toBe(0)
    expect(JSON.parse(unlimited.stdout)).toEqual([])
    const limited = await cli.run(execNode(script, ['--clock', 'manual', '--rate-limit', '50']))
    expect(limited.code, limited.stderr).toBe(0)
    expect(JSON.parse(limited.stdout)).toEqual(Array(151).fill(429))
  })

  it('forwards SIGTERM and SIGINT to the command and exits with the code it chose', async ({ cli }) => {
    for (const [signal, code] of [
      ['SIGTERM', 42],
      ['SIGINT', 43],
    ] as const) {
      const script = `process.on('${signal}', () => { console.log('got ${signal}'); process.exit(${code}) }); console.log('ready'); setInterval(() => {}, 1000)`
      const exec = cli.spawn(execNode(script, ['--quiet']))
      await exec.waitForStdout(/ready/)
      exec.kill(signal)
      expect(await exec.waitForExit()).toEqual({ code, signal: null })
      expect(exec.stdout).toContain(`got ${signal}`)
    }
  })

  it('exits 128 + n when a signal ends the command', async ({ cli }) => {
    const result = await cli.run(execNode(`process.kill(process.pid, 'SIGKILL')`, ['--quiet']))
    expect(result.code).toBe(137)
  })

  it('exits 127 naming the command when it cannot be found, and stops the emulator', async ({ cli }) => {
    const result = await cli.run(['exec', '--', 'presentation-emulator-no-such-command', '--flag'])
    expect(result.code).toBe(127)
    expect(result.stderr).toMatch(/cannot run presentation-emulator-no-such-command: spawn presentation-emulator-no-such-command ENOENT/)
  })

  it('passes options after the command name through without `--`', async ({ cli }) => {
    const result = await cli.run([
      'exec',
      '--quiet',
      process.execPath,
      '-e',
      'console.log(process.argv.slice(1).join(" "))',
      'a',
      '--port',
      'x',
    ])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout.trim()).toBe('a --port x')
  })

  it('saves the state file when the command ends', async ({ cli }) => {
    const dir = await tempDir()
    try {
      const state = join(dir.path, 'state.json')
      const script = `fetch(process.env.PRESENTATION_EMULATOR_URL + '/projects', { method: 'POST', headers: { authorization: 'Bearer ' + process.env.PRESENTATION_EMULATOR_KEY_ALICE, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Made under exec' }) }).then((r) => console.log(r.status))`
      const result = await cli.run(execNode(script, ['--quiet', '--state', state]))
      expect(result.code, result.stderr).toBe(0)
      const saved = JSON.parse(await readFile(state, 'utf8'))
      expect(saved.projects.map((p: { name: string }) => p.name)).toContain('Made under exec')
    } finally {
      await dir.remove()
    }
  })

  it.for([
    [['exec'], /missing required argument 'command'/],
    [['exec', '--port', 'abc', '--', 'true'], /'--port <n>' argument 'abc' is invalid/],
    [['exec', '--bogus', '--', 'true'], /unknown option '--bogus'/],
  ] as const)('exits 2 for a bad command line %j, running nothing', async ([args, message], { cli }) => {
    const result = await cli.run([...args])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(message)
    expect(result.stderr).toContain('exec --help')
  })

  it('exits 1 without running the command when the emulator cannot start', async ({ cli }) => {
    const result = await cli.run(['exec', '--fixtures', '/nonexistent/fixtures.json', '--', process.execPath, '-e', 'console.log("ran")'])
    expect(result.code).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr).toMatch(/cannot load fixtures \/nonexistent\/fixtures\.json/)
  })
})

describe('keyVariable', () => {
  it.each([
    ['pres_test_alice', 'PRESENTATION_EMULATOR_KEY_ALICE'],
    ['pres_test_alice_acme', 'PRESENTATION_EMULATOR_KEY_ALICE_ACME'],
    ['pres_ci_Key2', 'PRESENTATION_EMULATOR_KEY_CI_KEY2'],
  ])('names %s %s', (key, name) => {
    expect(keyVariable(key)).toBe(name)
  })
})
