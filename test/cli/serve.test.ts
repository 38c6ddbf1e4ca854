import { execFileSync } from 'node:child_process'
import { constants, openSync, writeSync, closeSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect } from 'vitest'
import { CliLauncher, ensureBuilt, it, killAll, PATIENCE_MS, tempDir, type CliProcess, type CliServer } from '../support/cli.js'

/**
 * The serve command run as a real process: `node bin/presentation-emulator.js …`.
 * Tests that only start their own processes run concurrently (each test's
 * processes are killed when it ends); the shutdown tests, which measure time,
 * run one at a time.
 */

const FLAGS = [
  '--port',
  '--host',
  '--seed',
  '--fixtures',
  '--time-scale',
  '--clock',
  '--rate-limit',
  '--state',
  '--public-url',
  '--admin-token',
  '--quiet',
  '--allow-remote-images',
  '--check-slides-on-save',
  '--log-format',
]
const FIXTURE_KEYS = ['pres_test_alice', 'pres_test_alice_acme', 'pres_test_bob', 'pres_test_revoked']

/** Every line printed on stdout so far. */
const lines = (cli: CliProcess) => cli.stdout.split('\n').filter((line) => line !== '')
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A small valid fixtures document: one user, her team, one key and one project. */
const CUSTOM_FIXTURES = {
  format: 'presentation-emulator/fixtures@1',
  users: [{ id: 'usr_carol', name: 'Carol Custom' }],
  teams: [{ id: 'team_carol', slug: 'carol', name: 'Carol Studio', personalOf: 'usr_carol', credits: 3, members: ['usr_carol'] }],
  apiKeys: [{ id: 'key_carol', key: 'pres_custom_carol', userId: 'usr_carol' }],
  projects: [{ teamId: 'team_carol', slug: 'carols-deck', name: 'Carol deck' }],
}

let dir: Awaited<ReturnType<typeof tempDir>>

beforeAll(async () => {
  await ensureBuilt()
  dir = await tempDir('presentation-emulator-cli-')
})

afterAll(async () => {
  await killAll()
  await dir?.remove()
})

describe('serving with the default flags', () => {
  const launcher = new CliLauncher()
  let server: CliServer

  beforeAll(async () => {
    server = await launcher.start()
  })
  afterAll(() => launcher.killAll())

  it('listens on a free port with --port 0 and prints the port it chose', () => {
    expect(server.port).toBeGreaterThan(0)
    expect(server.port).not.toBe(4010)
    expect(server.stdout).toContain(`listening on http://127.0.0.1:${server.port}`)
  })

  it('answers GET /v1/projects for a fixture key with 200', async () => {
    const reply = await server.request('GET', '/v1/projects', { key: 'pres_test_alice' })
    expect(reply.status).toBe(200)
    expect(reply.body.projects.length).toBeGreaterThan(0)
    expect(reply.headers.get('x-ratelimit-limit')).toBe('50')
  })

  it('prints a banner with the base URL, the control-plane URL, the editor URL and the four fixture keys', () => {
    const origin = server.origin
    expect(server.stdout).toContain(`API base URL   ${origin}/v1`)
    expect(server.stdout).toContain(`Control plane  ${origin}/_emulator/state (JSON; every control route is under /_emulator/)\n`)
    expect(server.stdout).toContain(`Dashboard      ${origin}/_emulator\n`)
    // A real editor URL, ready to open.
    expect(server.stdout).toContain(`Editor         ${origin}/editor/welcome-deck\n`)
    expect(server.stdout).toContain('Seed 1 · clock real · time scale 0.02 · rate limit 50/min')
    for (const key of FIXTURE_KEYS) expect(server.stdout).toMatch(new RegExp(`^\\s+${key}\\s`, 'm'))
    expect(server.stdout).toMatch(/pres_test_revoked .*\(revoked\)/)
    expect(server.stdout).toMatch(/pres_test_bob .*\(0 credits\)/)
    // A personal team named after its user is said to be one, not named again; other teams are named.
    expect(server.stdout).toMatch(/pres_test_alice {2,}Alice Anderson → personal team \(/)
    expect(server.stdout).toMatch(/pres_test_alice_acme {2,}Alice Anderson → Acme \(/)
    expect(server.stdout).not.toMatch(/(\b[A-Z]\w+ [A-Z]\w+) → \1\b/)
  })

  it('logs one line per API request, with method, path, status and operation', async () => {
    await server.request('GET', '/v1/teams')
    await server.waitForStdout(/GET \/v1\/teams 200 [0-9.]+ms listTeams key=key_alice/)
  })

  it('exits 1 with a clear message when the port is taken', async ({ cli }) => {
    const result = await cli.run(['--port', String(server.port)])
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(new RegExp(`cannot listen on 127\\.0\\.0\\.1:${server.port}: .*EADDRINUSE`))
    expect(result.stdout).toBe('')
  })
})

describe.concurrent('the command line', () => {
  it('prints every flag with its environment variable on --help and exits 0', async ({ cli }) => {
    const result = await cli.run(['--help'])
    expect(result.code).toBe(0)
    const help = result.stdout.replace(/\s+/g, ' ')
    for (const flag of FLAGS) {
      expect(help).toContain(flag)
      expect(help).toContain(`PRESENTATION_EMULATOR_${flag.slice(2).toUpperCase().replace(/-/g, '_')}`)
    }
  })

  it('prints the version on --version and exits 0', async ({ cli }) => {
    const result = await cli.run(['--version'])
    expect(result.code).toBe(0)
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/)
  })

  it.for([
    [['--port', 'abc'], /'--port <n>' argument 'abc' is invalid\. must be a whole number from 0 to 65535/],
    [['--port', '70000'], /'--port <n>' argument '70000' is invalid/],
    [['--port', '-1'], /'--port <n>' argument '-1' is invalid/],
    [['--seed', '1.5'], /'--seed <n>' argument '1\.5' is invalid/],
    [['--time-scale', '-1'], /'--time-scale <x>' argument '-1' is invalid\. must be a number ≥ 0/],
    [['--time-scale', 'fast'], /'--time-scale <x>' argument 'fast' is invalid/],
    [['--clock', 'weird'], /'--clock <mode>' argument 'weird' is invalid\. Allowed choices are real, manual/],
    [['--rate-limit', '-5'], /'--rate-limit <n>' argument '-5' is invalid/],
    [['--rate-limit', '2.5'], /'--rate-limit <n>' argument '2\.5' is invalid/],
    [['--public-url', 'not-a-url'], /'--public-url <url>' argument 'not-a-url' is invalid\. must be an absolute http\(s\) URL/],
    [['--public-url', 'ftp://example.com'], /'--public-url <url>' argument 'ftp:\/\/example\.com' is invalid/],
    [['--log-format', 'xml'], /'--log-format <format>' argument 'xml' is invalid/],
    [['--admin-token', ''], /'--admin-token <token>' argument '' is invalid\. must not be empty/],
    [['--port'], /option '--port <n>' argument missing/],
    [['--bogus'], /unknown option '--bogus'/],
    [['serve-please'], /too many arguments/],
  ] as const)('exits 2 naming the flag for %j', async ([args, message], { cli }) => {
    const result = await cli.run([...args])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(message)
    expect(result.stderr).toContain('--help')
    expect(result.stdout).toBe('')
  })

  it.for([
    ['PORT', 'abc', /'--port <n>' value 'abc' from env 'PRESENTATION_EMULATOR_PORT' is invalid/],
    ['CLOCK', 'weird', /'--clock <mode>' value 'weird' from env 'PRESENTATION_EMULATOR_CLOCK' is invalid/],
    ['RATE_LIMIT', '-5', /'--rate-limit <n>' value '-5' from env 'PRESENTATION_EMULATOR_RATE_LIMIT' is invalid/],
    ['QUIET', 'maybe', /'--quiet' value 'maybe' from env 'PRESENTATION_EMULATOR_QUIET' is invalid/],
  ] as const)('exits 2 naming the environment variable when PRESENTATION_EMULATOR_%s=%s', async ([name, value, message], { cli }) => {
    const result = await cli.run([], { env: { [`PRESENTATION_EMULATOR_${name}`]: value } })
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(message)
  })
})

describe.concurrent('environment variables', () => {
  it('configure the server when no flag is given, and PRESENTATION_EMULATOR_QUIET=false keeps it talkative', async ({ cli }) => {
    const server = await cli.start([], {
      env: {
        PRESENTATION_EMULATOR_PORT: '0',
        PRESENTATION_EMULATOR_SEED: '7',
        PRESENTATION_EMULATOR_CLOCK: 'manual',
        PRESENTATION_EMULATOR_TIME_SCALE: '0.5',
        PRESENTATION_EMULATOR_RATE_LIMIT: '9',
        PRESENTATION_EMULATOR_PUBLIC_URL: 'http://from-env.example:8080',
        PRESENTATION_EMULATOR_ADMIN_TOKEN: 'env-token',
        PRESENTATION_EMULATOR_LOG_FORMAT: 'text',
        PRESENTATION_EMULATOR_QUIET: 'false',
      },
    })
    expect(server.port).toBeGreaterThan(0)
    expect(server.stdout).toContain('Seed 7 · clock manual · time scale 0.5 · rate limit 9/min')
    const admin = { key: 'env-token' }
    expect((await server.request('GET', '/_emulator/state', admin)).body.seed).toBe(7)
    expect((await server.request('GET', '/_emulator/clock', admin)).body).toMatchObject({ mode: 'manual', timeScale: 0.5 })
    expect((await server.request('GET', '/_emulator/clock', { key: null })).status).toBe(401)
    const projects = await server.request('GET', '/v1/projects')
    expect(projects.headers.get('x-ratelimit-limit')).toBe('9')
    expect(projects.body.projects[0].editorUrl).toMatch(/^http:\/\/from-env\.example:8080\/editor\//)
    await server.waitForStdout(/GET \/v1\/projects 200/)
  })

  it('lose to the matching flag, and count as unset when empty', async ({ cli }) => {
    const server = await cli.start(['--seed', '9', '--clock', 'real', '--rate-limit', '4', '--log-format', 'json'], {
      env: {
        PRESENTATION_EMULATOR_SEED: '7',
        PRESENTATION_EMULATOR_CLOCK: 'manual',
        PRESENTATION_EMULATOR_RATE_LIMIT: '9',
        PRESENTATION_EMULATOR_LOG_FORMAT: 'text',
        // Empty counts as unset.
        PRESENTATION_EMULATOR_HOST: '',
        PRESENTATION_EMULATOR_TIME_SCALE: ' ',
      },
    })
    expect(lines(server)[0]).toMatch(/^\{"type":"listening"/)
    expect((await server.request('GET', '/_emulator/state')).body.seed).toBe(9)
    expect((await server.request('GET', '/_emulator/clock')).body).toMatchObject({ mode: 'real', timeScale: 0.02 })
    expect(server.origin).toBe(`http://127.0.0.1:${server.port}`)
    expect((await server.request('GET', '/v1/teams')).headers.get('x-ratelimit-limit')).toBe('4')
  })

  it('make the server quiet with PRESENTATION_EMULATOR_QUIET=1', async ({ cli }) => {
    const server = await cli.start([], { env: { PRESENTATION_EMULATOR_QUIET: '1' } })
    expect((await server.request('GET', '/v1/teams')).status).toBe(200)
    expect(await server.stop('SIGTERM')).toEqual({ code: 0, signal: null })
    expect(lines(server)).toEqual([`presentation-emulator listening on ${server.origin}`])
  })
})

describe.concurrent('--allow-remote-images', () => {
  const imgSrc = async (server: CliServer) =>
    /img-src ([^;]*)/.exec((await server.request('GET', '/editor/welcome-deck')).headers.get('content-security-policy') ?? '')?.[1]

  it('keeps the pages offline by default: images only from the emulator and data: URLs', async ({ cli }) => {
    const server = await cli.start([])
    expect(await imgSrc(server)).toBe("'self' data:")
  })

  it('lets the pages load remote images with the flag or PRESENTATION_EMULATOR_ALLOW_REMOTE_IMAGES, and says so', async ({ cli }) => {
    const flagged = await cli.start(['--allow-remote-images'])
    expect(await imgSrc(flagged)).toBe("'self' data: https: http:")
    expect(flagged.stdout).toContain('remote images allowed')
    const fromEnv = await cli.start([], { env: { PRESENTATION_EMULATOR_ALLOW_REMOTE_IMAGES: 'true' } })
    expect(await imgSrc(fromEnv)).toBe("'self' data: https: http:")
    const off = await cli.start([], { env: { PRESENTATION_EMULATOR_ALLOW_REMOTE_IMAGES: 'off' } })
    expect(await imgSrc(off)).toBe("'self' data:")
  })

  it('exits 2 on a variable that is not a boolean', async ({ cli }) => {
    const result = await cli.run(['--port', '0'], { env: { PRESENTATION_EMULATOR_ALLOW_REMOTE_IMAGES: 'maybe' } })
    expect(result.code).toBe(2)
    expect(result.stderr).toContain(
      "option '--allow-remote-images' value 'maybe' from env 'PRESENTATION_EMULATOR_ALLOW_REMOTE_IMAGES' is invalid",
    )
  })
})

describe.concurrent('--fixtures', () => {
  it('serves the world of a valid custom file instead of the built-in one', async ({ cli }) => {
    const file = join(dir.path, 'custom.json')
    await writeFile(file, JSON.stringify(CUSTOM_FIXTURES))
    const server = await cli.start(['--fixtures', file])
    expect(server.stdout).toMatch(/pres_custom_carol\s+Carol Custom → Carol Studio \(3 credits\)/)
    expect(server.stdout).not.toContain('pres_test_alice')
    const projects = await server.request('GET', '/v1/projects', { key: 'pres_custom_carol' })
    expect(projects.status).toBe(200)
    expect(projects.body.projects.map((p: { slug: string; name: string }) => [p.slug, p.name])).toEqual([['carols-deck', 'Carol deck']])
    expect((await server.request('GET', '/v1/projects', { key: 'pres_test_alice' })).status).toBe(401)
  })

  it('exits 1 naming the bad field of an invalid file', async ({ cli }) => {
    const file = join(dir.path, 'bad-key.json')
    await writeFile(file, JSON.stringify({ ...CUSTOM_FIXTURES, apiKeys: [{ key: 'test_carol', userId: 'usr_carol' }] }))
    const result = await cli.run(['--port', '0', '--fixtures', file])
    expect(result.code).toBe(1)
    expect(result.stderr).toContain(`${file} is not a valid fixtures document`)
    expect(result.stderr).toMatch(/apiKeys\[0\]\.key: must be "pres_" followed by/)
    expect(result.stdout).toBe('')
  })

  it('exits 1 naming a reference to a missing record', async ({ cli }) => {
    const file = join(dir.path, 'bad-ref.json')
    await writeFile(file, JSON.stringify({ ...CUSTOM_FIXTURES, projects: [{ teamId: 'team_nobody' }] }))
    const result = await cli.run(['--port', '0', '--fixtures', file])
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/projects\[0\]\.teamId: no team "team_nobody"/)
  })

  it('exits 1 naming the file when it does not exist', async ({ cli }) => {
    const file = join(dir.path, 'missing.json')
    const result = await cli.run(['--port', '0', '--fixtures', file])
    expect(result.code).toBe(1)
    expect(result.stderr).toContain(`cannot load fixtures ${file}`)
    expect(result.stderr).toContain('ENOENT')
  })

  it('exits 1 when the file is not JSON', async ({ cli }) => {
    const file = join(dir.path, 'not-json.json')
    await writeFile(file, '{ "format": ')
    const result = await cli.run(['--port', '0', '--fixtures', file])
    expect(result.code).toBe(1)
    expect(result.stderr).toContain(`cannot load fixtures ${file}`)
    expect(result.stderr).toMatch(/JSON/)
  })
})

describe.concurrent('--seed', () => {
  it('makes generated content a pure function of the seed', async ({ cli }) => {
    const flags = (seed: string) => ['--seed', seed, '--public-url', 'http://emulator.test', '--quiet']
    const servers = await Promise.all([cli.start(flags('5')), cli.start(flags('5')), cli.start(flags('6'))])
    const [a, b, c] = await Promise.all(
      servers.map(async (server) => (await server.request('GET', '/v1/projects?limit=50', { key: 'pres_test_alice_acme' })).text),
    )
    expect(JSON.parse(a!).projects.length).toBeGreaterThan(20)
    expect(b).toBe(a)
    expect(c).not.toBe(a)
  })
})

describe.concurrent('with --clock manual --time-scale 0', () => {
  const launcher = new CliLauncher()
  let server: CliServer

  beforeAll(async () => {
    server = await launcher.start(['--clock', 'manual', '--time-scale', '0', '--quiet'])
  })
  afterAll(() => launcher.killAll())

  it('completes a generated job at the next read, though the clock stands still', async () => {
    const generated = await server.request('POST', '/v1/projects/generate', { json: { prompt: 'A deck about otters' } })
    expect(generated.status).toBe(200)
    const status = await server.request('GET', `/v1/projects/jobs/${generated.body.jobId}`)
    expect(status.status).toBe(200)
    expect(status.body.status).toBe('completed')
  })

  it('reports mode manual and keeps emulator time still until the control plane moves it', async () => {
    const first = await server.request('GET', '/_emulator/clock')
    expect(first.body).toMatchObject({ mode: 'manual', timeScale: 0 })
    await sleep(30)
    expect((await server.request('GET', '/_emulator/clock')).body.now).toBe(first.body.now)
    const advanced = await server.request('POST', '/_emulator/clock/advance', { json: { ms: 60_000 } })
    expect(Date.parse(advanced.body.now) - Date.parse(first.body.now)).toBe(60_000)
  })
})

describe.concurrent('with --rate-limit 2 --public-url URL --admin-token T', () => {
  const launcher = new CliLauncher()
  let server: CliServer
  const admin = { key: 's3cret' }

  beforeAll(async () => {
    server = await launcher.start([
      '--rate-limit',
      '2',
      '--public-url',
      'https://decks.example.test/ignored/path',
      '--admin-token',
      's3cret',
    ])
  })
  afterAll(() => launcher.killAll())

  /** A user of its own (its own rate-limit bucket), made through the control plane. */
  const account = async () => (await server.request('POST', '/_emulator/accounts', { ...admin, json: {} })).body.apiKey as string

  it('answers the third request of a minute with 429', async () => {
    const key = await account()
    const statuses = []
    for (let i = 0; i < 3; i++) statuses.push((await server.request('GET', '/v1/teams', { key })).status)
    expect(statuses).toEqual([200, 200, 429])
    const limited = await server.request('GET', '/v1/teams', { key })
    expect(limited.headers.get('x-ratelimit-limit')).toBe('2')
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0')
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
  })

  it('uses the public URL’s origin in editorUrl and in the banner', async () => {
    expect(server.stdout).toContain('Editor         https://decks.example.test/editor/welcome-deck')
    const created = await server.request('POST', '/v1/projects', { key: await account(), json: { name: 'Public' } })
    expect(created.status).toBe(200)
    expect(created.body.editorUrl).toBe(`https://decks.example.test/editor/${created.body.projectSlug}`)
  })

  it('requires the admin token on /_emulator but not on /v1', async () => {
    expect(server.stdout).toContain('/_emulator/state (JSON; every control route is under /_emulator/) (admin token required)')
    expect((await server.request('GET', '/_emulator/health', { key: null })).status).toBe(401)
    expect((await server.request('GET', '/_emulator/health', { key: 'wrong' })).status).toBe(401)
    expect((await server.request('GET', '/_emulator/health', admin)).status).toBe(200)
    expect((await server.request('GET', '/v1/teams', { key: await account() })).status).toBe(200)
  })
})

describe.concurrent('output', () => {
  it('--quiet prints only the listening line, even after requests and on shutdown', async ({ cli }) => {
    // Idle connections would be kept for an hour: one that delayed the exit would hold it past the test.
    const server = await cli.start(['--quiet', '--keep-alive-timeout', '3600'])
    expect((await server.request('GET', '/v1/teams')).status).toBe(200)
    expect((await server.request('GET', '/v1/nope')).status).toBe(404)
    // The keep-alive connection of those requests is still open: it must not hold the exit.
    expect(await server.stop('SIGTERM')).toEqual({ code: 0, signal: null })
    expect(lines(server)).toEqual([`presentation-emulator listening on ${server.origin}`])
    expect(server.stderr).toBe('')
  })

  it('--log-format json prints a JSON listening line and one JSON request line per request', async ({ cli }) => {
    const server = await cli.start(['--log-format', 'json'])
    await server.request('GET', '/v1/teams')
    await server.request('GET', '/v1/projects', { key: 'pres_test_revoked' })
    await server.waitForStdout(/"status":401/)
    expect(await server.stop('SIGTERM')).toEqual({ code: 0, signal: null })
    const records = lines(server).map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(records[0]).toMatchObject({
      type: 'listening',
      origin: server.origin,
      port: server.port,
      baseUrl: `${server.origin}/v1`,
      controlPlaneUrl: `${server.origin}/_emulator`,
    })
    expect(records.slice(1)).toEqual([
      expect.objectContaining({
        type: 'request',
        method: 'GET',
        path: '/v1/teams',
        status: 200,
        operationId: 'listTeams',
        keyId: 'key_alice',
      }),
      expect.objectContaining({ type: 'request', method: 'GET', path: '/v1/projects', status: 401, keyId: null }),
    ])
  })
})

describe('shutdown', () => {
  it.for(['SIGTERM', 'SIGINT'] as const)('on %s finishes the request in flight, then exits 0', async (signal, { cli }) => {
    // Idle connections would be kept for an hour: the answered request's, if it held the exit, would hold it past the test.
    const server = await cli.start(['--keep-alive-timeout', '3600'])
    // Held 10 s: still running while the server stops taking new requests, even on a busy machine.
    const fault = await server.request('POST', '/_emulator/faults', { json: { operationId: 'listProjects', delayMs: 10_000 } })
    expect(fault.status).toBe(201)
    let answered = false
    const slow = server.request('GET', '/v1/projects').finally(() => {
      answered = true
    })
    // In flight once it has taken the fault.
    while ((await server.request('GET', '/_emulator/faults')).body.faults.some((f: { hits: number }) => f.hits === 0)) await sleep(10)
    server.kill(signal)
    await server.waitForStdout(new RegExp(`received ${signal}: finishing in-flight requests`))
    // Soon no new request is accepted, while the slow one is still running.
    const refused = () =>
      fetch(`${server.origin}/_emulator/health`).then(
        () => false,
        () => true,
      )
    await expect.poll(refused, { timeout: PATIENCE_MS, interval: 20 }).toBe(true)
    expect(answered).toBe(false)
    const reply = await slow
    expect(reply.status).toBe(200)
    expect(reply.body.projects.length).toBeGreaterThan(0)
    // The kept-alive connection of the answered request does not hold the process open.
    expect(await server.waitForExit()).toEqual({ code: 0, signal: null })
  })

  it('cuts the requests in flight on a second SIGINT, and still exits 0', async ({ cli }) => {
    const server = await cli.start()
    // Held two minutes (the most a fault holds): only the cut ends it within the test.
    await server.request('POST', '/_emulator/faults', { json: { operationId: 'listProjects', delayMs: 120_000 } })
    const slow = server.request('GET', '/v1/projects').then(
      () => 'answered',
      () => 'cut off',
    )
    while ((await server.request('GET', '/_emulator/faults')).body.faults.some((f: { hits: number }) => f.hits === 0)) await sleep(10)
    server.kill('SIGINT')
    await server.waitForStdout(/received SIGINT: finishing in-flight requests/)
    server.kill('SIGINT')
    expect(await slow).toBe('cut off')
    expect(await server.waitForExit()).toEqual({ code: 0, signal: null })
    expect(server.stdout).toContain('received SIGINT again: closing every connection now')
  })

  it.skipIf(process.platform === 'win32')(
    'exits 0 without ever listening on a SIGTERM that arrives while it is still starting',
    async ({ cli }) => {
      // The fixtures file is a FIFO: the CLI is surely starting (its signal handlers set) while it waits to read it.
      const fifo = join(dir.path, 'slow-fixtures.fifo')
      execFileSync('mkfifo', [fifo])
      const server = cli.spawn(['--port', '0', '--fixtures', fifo])
      let writer: number | undefined
      while (writer === undefined) {
        try {
          writer = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK)
        } catch {
          // ENXIO: nobody reads the FIFO yet.
          expect(server.hasExited).toBe(false)
          await sleep(10)
        }
      }
      server.kill('SIGTERM')
      await sleep(50)
      writeSync(writer, JSON.stringify(CUSTOM_FIXTURES))
      closeSync(writer)
      expect(await server.waitForExit()).toEqual({ code: 0, signal: null })
      expect(server.stdout).not.toContain('listening')
    },
  )
})
