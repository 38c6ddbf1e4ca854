import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { chmod, cp, lstat, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT } from '../support/cli.js'

/**
 * Issue 37: the container image (Dockerfile), built and run with podman as
 * a user builds and runs it: the README's own `docker build` and
 * `docker run` lines, with `podman` for `docker`, the Node base as a build
 * argument (no image registry is reachable here: test/container/stand-in-base.sh
 * makes a stand-in from this machine's Node 20) and `--format docker`
 * (podman's OCI format drops HEALTHCHECK). Then what the issue lists: the
 * API from the host, the pages, state on a volume across a restart, SIGTERM,
 * the user, the health check with and without an admin token, the kit from
 * the image against the container, and nothing of the build machine's
 * npm settings, CA bundle or proxy in the image.
 *
 * The container tier (`npm run test:container`, vitest.container.config.ts):
 * it needs podman (rootful, as CI runs) and runc. Without podman it is
 * skipped, except under CI=true, where it fails. Podman reads
 * CONTAINERS_CONF, else .ci/containers.conf (runc; no default ulimits).
 * `PRESENTATION_EMULATOR_TEST_NODE_IMAGE` names a real Node 20 image to build
 * on instead of the stand-in. Time limits only stop a hang; the one time the
 * issue sets (SIGTERM ends it within 2 s) is podman's own `stop --time 2`,
 * after which it would kill the container (exit 137).
 */

const PODMAN = process.env.PODMAN ?? 'podman'
const ENV: NodeJS.ProcessEnv = { ...process.env, CONTAINERS_CONF: process.env.CONTAINERS_CONF ?? join(ROOT, '.ci', 'containers.conf') }
const AVAILABLE = spawnSync(PODMAN, ['--version'], { env: ENV, stdio: 'ignore' }).status === 0
const IN_CI = process.env.CI === 'true'
const PATIENCE_MS = 120_000
const KEY = 'pres_test_alice'
const TOKEN = 'container-test-token'
/** Unique per run, so that a run never meets a container or volume another left behind. */
const RUN = `pe-test-${process.pid}`

interface Result {
  code: number
  stdout: string
  stderr: string
}

function podman(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Result> {
  return new Promise((resolve) => {
    execFile(PODMAN, args, { cwd: options.cwd ?? ROOT, env: options.env ?? ENV, maxBuffer: 256 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr }),
    )
  })
}

async function ok(args: string[], options?: { cwd?: string; env?: NodeJS.ProcessEnv }): Promise<string> {
  const result = await podman(args, options)
  if (result.code !== 0) throw new Error(`podman ${args.join(' ')} exited with ${result.code}:\n${result.stdout}\n${result.stderr}`)
  return result.stdout
}

function run(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Result> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd: options.cwd ?? ROOT, env: options.env ?? ENV, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr }),
    )
  })
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Polls `check` until it gives a value (rejects after PATIENCE_MS: a hang). */
async function waitFor<T>(what: string, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + PATIENCE_MS
  for (;;) {
    const value = await check().catch(() => undefined)
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`${what}: not in ${PATIENCE_MS / 1000} s`)
    await sleep(200)
  }
}

/** The words of the README's line that starts with `start` (outside comments), with no shell quoting to undo. */
function readmeLine(readme: string, start: string): string[] {
  const line = readme
    .split('\n')
    .map((text) => text.replace(/\s+#.*$/, '').trim())
    .find((text) => text.startsWith(start))
  if (line === undefined) throw new Error(`the README has no line starting with ${start}`)
  if (/["'`$\\|;&<>]/.test(line)) throw new Error(`the README's line "${line}" needs a shell: the test runs it as plain words`)
  return line.split(/\s+/)
}

const inspect = async (format: string, name: string) => (await ok(['inspect', '--format', format, name])).trim()

const api = (origin: string, path: string, init: RequestInit = {}) =>
  fetch(`${origin}${path}`, { ...init, headers: { authorization: `Bearer ${KEY}`, ...(init.headers as Record<string, string>) } })

/** The host origin podman published the container's port 4010 on (`-p 127.0.0.1::4010`: a port it chose). */
async function publishedOrigin(name: string): Promise<string> {
  const line = (await ok(['port', name, '4010/tcp'])).trim().split('\n')[0]!
  return `http://${line.replace('0.0.0.0', '127.0.0.1')}`
}

/** Waits until the emulator in the container answers the API from the host. */
const answering = (origin: string) =>
  waitFor(`the emulator at ${origin}`, async () => ((await api(origin, '/v1/teams')).status === 200 ? true : undefined))

/** Stops a container as `docker stop` does, allowing 2 s before SIGKILL; its exit code and how long the stop took. */
async function stop(name: string): Promise<{ exitCode: number; seconds: number }> {
  const started = Date.now()
  await ok(['stop', '--time', '2', name])
  const seconds = (Date.now() - started) / 1000
  return { exitCode: Number(await inspect('{{.State.ExitCode}}', name)), seconds }
}

/** `podman healthcheck run`, then the status podman keeps (what `docker ps` shows). */
async function health(name: string): Promise<{ code: number; status: string }> {
  const result = await podman(['healthcheck', 'run', name])
  return { code: result.code, status: await inspect('{{.State.Health.Status}}', name) }
}

/** The container's first process, read from /proc inside it: its name and the uid it runs as. */
async function firstProcess(name: string): Promise<{ name: string | undefined; uid: number }> {
  const status = await ok(['exec', name, 'node', '-p', "require('fs').readFileSync('/proc/1/status', 'utf8')"])
  return { name: /^Name:\s+(\S+)/m.exec(status)?.[1], uid: Number(/^Uid:\s+(\d+)/m.exec(status)?.[1]) }
}

/** Every file under `dir` (symbolic links not followed), with its size. */
async function walk(dir: string, out: Array<{ path: string; size: number }> = []): Promise<Array<{ path: string; size: number }>> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) await walk(path, out)
    else if (entry.isFile()) out.push({ path, size: (await lstat(path)).size })
  }
  return out
}

describe.skipIf(!AVAILABLE && !IN_CI)('the container image (Dockerfile), built and run with podman', () => {
  let image: string
  let baseImage: string
  let readmeRun: ChildProcess | undefined
  let readmeExit: Promise<number | null> | undefined
  let readmeOutput = ''
  let readmeContainer: string
  const origin = 'http://127.0.0.1:4010'
  const containers: string[] = []
  const volumes: string[] = []
  const cleanup: Array<() => Promise<unknown>> = []

  beforeAll(async () => {
    if (!AVAILABLE) throw new Error(`${PODMAN} is not installed: the container tier needs podman and runc (CI=true: .ci/run installs them)`)
    const readme = await readFile(join(ROOT, 'README.md'), 'utf8')
    const build = readmeLine(readme, 'docker build ')
    const runLine = readmeLine(readme, 'docker run ')
    image = build[build.indexOf('-t') + 1]!
    expect(runLine.at(-1), "the README's docker run starts the image its docker build tags").toBe(image)

    // The Node base: a real one when given, else the stand-in (and its build variant with the CA bundle).
    let buildArgs: string[]
    const given = process.env.PRESENTATION_EMULATOR_TEST_NODE_IMAGE
    if (given) {
      baseImage = given
      buildArgs = ['--build-arg', `NODE_IMAGE=${given}`]
    } else {
      baseImage = 'localhost/presentation-emulator-stand-in:node20'
      const buildBase = `${baseImage}-build`
      const started = Date.now()
      const made = await run(join(ROOT, 'test', 'container', 'stand-in-base.sh'), [baseImage, buildBase])
      if (made.code !== 0) throw new Error(`the stand-in base:\n${made.stdout}\n${made.stderr}`)
      console.log(`${made.stdout.trim()}\n(${((Date.now() - started) / 1000).toFixed(1)} s)`)
      buildArgs = ['--build-arg', `NODE_IMAGE=${baseImage}`, '--build-arg', `BUILD_IMAGE=${buildBase}`]
    }

    // The README's build line, word for word, with podman, the base and --format docker added.
    const started = Date.now()
    const built = await podman([...build.slice(1, 2), '--format', 'docker', ...buildArgs, ...build.slice(2)])
    if (built.code !== 0) throw new Error(`the build failed:\n${built.stdout.slice(-4000)}\n${built.stderr.slice(-4000)}`)
    const [imageSize, baseSize] = [Number(await inspect('{{.Size}}', image)), Number(await inspect('{{.Size}}', baseImage))]
    console.log(
      `built ${image} in ${((Date.now() - started) / 1000).toFixed(1)} s: ${(imageSize / 1e6).toFixed(1)} MB, ` +
        `${((imageSize - baseSize) / 1e6).toFixed(1)} MB over its base ${baseImage} (${(baseSize / 1e6).toFixed(1)} MB)`,
    )

    // The README's run line, word for word, with podman: in the foreground, as a user runs it.
    const taken = await fetch(`${origin}/`).then(
      () => true,
      () => false,
    )
    if (taken)
      throw new Error(`${origin} already answers: the README's docker run publishes port 4010 on 127.0.0.1; stop what listens there`)
    readmeRun = spawn(PODMAN, runLine.slice(1), { cwd: ROOT, env: ENV, stdio: ['ignore', 'pipe', 'pipe'] })
    readmeRun.stdout!.on('data', (chunk: Buffer) => {
      readmeOutput += chunk.toString()
    })
    readmeRun.stderr!.on('data', (chunk: Buffer) => {
      readmeOutput += chunk.toString()
    })
    readmeExit = new Promise((resolve) => readmeRun!.on('exit', (code) => resolve(code)))
    await answering(origin)
    readmeContainer = await waitFor('the README container', async () => {
      // Found by its published port (podman's ancestor filter does not match the short name).
      const listed = await ok(['ps', '--no-trunc', '--format', '{{.ID}} {{.Ports}}'])
      return listed
        .split('\n')
        .find((line) => line.includes('127.0.0.1:4010->4010'))
        ?.split(' ')[0]
    })
  })

  afterAll(async () => {
    if (readmeRun !== undefined && readmeRun.exitCode === null) {
      // The foreground podman run passes SIGTERM on to its container (--sig-proxy, the default).
      if (readmeContainer) await podman(['rm', '--force', '--time', '2', readmeContainer])
      else readmeRun.kill('SIGTERM')
      await readmeExit
    }
    // The README's run has no --rm: its stopped container stays until removed.
    if (readmeContainer) await podman(['rm', '--force', readmeContainer])
    for (const name of containers) await podman(['rm', '--force', '--time', '2', name])
    for (const name of volumes) await podman(['volume', 'rm', '--force', name])
    for (const step of cleanup) await step()
  })

  describe("the README's lines", () => {
    it('answers GET /v1/teams with a fixture key from the host', async () => {
      const response = await api(origin, '/v1/teams')
      expect(response.status).toBe(200)
      const { teams } = (await response.json()) as { teams: Array<{ id: string }> }
      expect(teams.map((team) => team.id)).toEqual(expect.arrayContaining(['team_alice', 'team_acme']))
      expect(readmeOutput).toContain('listening on http://0.0.0.0:4010')
    })

    it("serves an editor page and a published site at URLs the host's browser opens (the image's public URL)", async () => {
      const project = (await (await api(origin, '/v1/projects/welcome-deck')).json()) as { editorUrl: string; publishedUrl: string | null }
      for (const url of [project.editorUrl, project.publishedUrl]) {
        expect(url).toMatch(/^http:\/\/localhost:4010\//)
        const page = await fetch(url!.replace('http://localhost:4010', origin), { headers: { host: 'localhost:4010' } })
        expect(page.status, url!).toBe(200)
        expect(page.headers.get('content-type')).toMatch(/^text\/html/)
      }
    })

    it('runs the emulator as a user other than root (uid 1000, the official image’s node), as the first process (SIGTERM reaches it)', async () => {
      expect(await inspect('{{.Config.User}}', image)).toBe('1000:1000')
      expect(await firstProcess(readmeContainer)).toEqual({ name: 'node', uid: 1000 })
    })

    it('turns healthy when its health check runs, with no admin token set', async () => {
      expect(await health(readmeContainer)).toEqual({ code: 0, status: 'healthy' })
    })

    it('passes presentation-conformance, run from the image against the container itself', async () => {
      const result = await podman([
        'run',
        '--rm',
        '--network',
        `container:${readmeContainer}`,
        image,
        'presentation-conformance',
        '--base-url',
        'http://127.0.0.1:4010/v1',
        '--api-key',
        KEY,
        '--control-url',
        'http://127.0.0.1:4010/_emulator',
        '--allow-writes',
        '--allow-generation',
      ])
      const summary = result.stdout.trim().split('\n').at(-1)
      console.log(`presentation-conformance in the image: ${summary}`)
      expect(result.code, `${result.stdout.slice(-3000)}\n${result.stderr.slice(-2000)}`).toBe(0)
      expect(summary).toMatch(/^[1-9]\d* passed, 0 failed/)
    })

    it('stops on SIGTERM (docker stop) with exit code 0, and the foreground docker run ends with it', async () => {
      const { exitCode, seconds } = await stop(readmeContainer)
      console.log(`README container stopped in ${seconds.toFixed(2)} s`)
      expect(exitCode).toBe(0)
      expect(await readmeExit).toBe(0)
    })
  })

  describe('state on a volume, flags, and an admin token', () => {
    const name = `${RUN}-state`
    const volume = `${RUN}-data`
    let at: string

    beforeAll(async () => {
      await ok(['volume', 'create', volume])
      volumes.push(volume)
      containers.push(name)
      // Flags after the image (`--seed 2`): the image's settings (0.0.0.0, the port) hold, as env, not CMD.
      await ok([
        'run',
        '--detach',
        '--name',
        name,
        '-p',
        '127.0.0.1::4010',
        '-v',
        `${volume}:/data`,
        '-e',
        `PRESENTATION_EMULATOR_ADMIN_TOKEN=${TOKEN}`,
        image,
        '--state',
        '/data/state.json',
        '--seed',
        '2',
      ])
      at = await publishedOrigin(name)
      await answering(at)
    })

    it('keeps listening on 0.0.0.0 when flags are given after the image', async () => {
      const logs = await ok(['logs', name])
      expect(logs).toContain('listening on http://0.0.0.0:4010')
      expect(logs).toMatch(/Seed 2 · .* state \/data\/state\.json \(new\)/)
    })

    it('turns healthy with an admin token set (the check sends it; the route refuses a request without it)', async () => {
      expect((await fetch(`${at}/_emulator/health`)).status).toBe(401)
      expect((await fetch(`${at}/_emulator/health`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200)
      expect(await health(name)).toEqual({ code: 0, status: 'healthy' })
    })

    it('ends within 2 s of SIGTERM with its state saved on the volume, and a restart carries on from it', async () => {
      const created = await api(at, '/v1/projects', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Kept on the volume' }),
      })
      expect(created.status).toBe(200)
      const { projectSlug } = (await created.json()) as { projectSlug: string }

      const { exitCode, seconds } = await stop(name)
      console.log(`state container stopped in ${seconds.toFixed(2)} s`)
      expect(exitCode, 'podman stop --time 2 kills (137) what has not ended in 2 s').toBe(0)
      const mountpoint = await ok(['volume', 'inspect', '--format', '{{.Mountpoint}}', volume])
      expect(await readFile(join(mountpoint.trim(), 'state.json'), 'utf8')).toContain(projectSlug)

      await ok(['start', name])
      at = await publishedOrigin(name)
      await answering(at)
      const again = await api(at, `/v1/projects/${projectSlug}`)
      expect(again.status).toBe(200)
      expect(((await again.json()) as { name: string }).name).toBe('Kept on the volume')
      expect(await ok(['logs', name])).toContain('state /data/state.json (loaded)')
    })
  })

  it("stops with the state file's own error and exit code 1 when the mounted /data is not writable, and does not restart", async () => {
    const dir = await mkdtemp(join(tmpdir(), `${RUN}-readonly-`))
    cleanup.push(() => rm(dir, { recursive: true, force: true }))
    await chmod(dir, 0o755) // root's: uid 1000 in the container cannot write it
    const name = `${RUN}-unwritable`
    containers.push(name)
    const result = await podman(['run', '--name', name, '-v', `${dir}:/data`, image, '--state', '/data/state.json'])
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('presentation-emulator: cannot write state file /data/state.json: EACCES')
    expect(result.stderr).not.toContain('listening on')
    expect(await inspect('{{.State.Status}} {{.RestartCount}}', name)).toBe('exited 0')
  })

  it('holds no .npmrc, CA bundle or proxy setting, in its files, its settings or its history', async () => {
    const settings = `${await inspect('{{json .Config.Env}}', image)}\n${await inspect('{{json .Config.Labels}}', image)}`
    const history = await ok(['history', '--no-trunc', '--format', '{{.CreatedBy}} {{.Comment}}', image])
    const machine = /npmrc|proxy|NODE_EXTRA_CA_CERTS|npm_config|ca-certificates|\.crt\b|\.pem\b|BEGIN CERTIFICATE/i
    expect(settings).not.toMatch(machine)
    expect(history).not.toMatch(machine)

    const root = (await ok(['image', 'mount', image])).trim()
    cleanup.push(() => podman(['image', 'unmount', image]))
    const files = await walk(root)
    expect(files.length).toBeGreaterThan(100)
    expect(files.filter(({ path }) => /(^|\/)\.?npmrc$/.test(path)).map(({ path }) => path.slice(root.length))).toEqual([])
    // The layers the Dockerfile adds: no certificate and no proxy at all.
    const added = files.filter(({ path }) => /^\/(opt\/presentation-emulator|data|usr\/local\/bin)\//.test(path.slice(root.length)))
    expect(added.some(({ path }) => path.endsWith('/bin/presentation-emulator.js'))).toBe(true)
    for (const { path, size } of added) {
      if (size > 8 * 1024 * 1024) continue
      expect(await readFile(path, 'utf8'), path.slice(root.length)).not.toMatch(/BEGIN CERTIFICATE|https?_proxy\s*=/i)
    }
    // Anywhere in the image: not the build machine's bundle, not the stand-in build base's copy of it.
    const bundlePath = process.env.NODE_EXTRA_CA_CERTS
    if (bundlePath) {
      const bundle = await readFile(bundlePath)
      for (const { path } of files.filter((file) => file.size === bundle.length)) {
        expect((await readFile(path)).equals(bundle), `${path.slice(root.length)} is the build machine's CA bundle`).toBe(false)
      }
    }
    expect(files.some(({ path }) => path.endsWith('/build-proxy.crt'))).toBe(false)
  })

  it('is labelled with its source, version and licence (OCI), the version and licence those of package.json', async () => {
    const own = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string; license: string }
    const labels = JSON.parse(await inspect('{{json .Config.Labels}}', image)) as Record<string, string>
    expect(labels).toMatchObject({
      'org.opencontainers.image.title': 'presentation-emulator',
      'org.opencontainers.image.version': own.version,
      'org.opencontainers.image.licenses': own.license,
    })
    expect(labels).toHaveProperty(['org.opencontainers.image.source'])
  })

  it("runs the guide's Testcontainers example against the image, through podman's Docker-compatible API", async () => {
    const guide = await readFile(join(ROOT, 'docs', 'guides', 'containers.md'), 'utf8')
    const section = guide.slice(guide.indexOf('## Testcontainers'))
    const example = /```js\n([\s\S]*?)```/.exec(section)?.[1]
    expect(example).toContain("new GenericContainer('presentation-emulator')")

    // The example's app: testcontainers 11, at the versions its own lockfile pins.
    const app = await mkdtemp(join(tmpdir(), `${RUN}-testcontainers-`))
    cleanup.push(() => rm(app, { recursive: true, force: true }))
    for (const file of ['package.json', 'package-lock.json'])
      await cp(join(ROOT, 'test', 'container', 'testcontainers-app', file), join(app, file))
    await writeFile(join(app, 'emulator.test.mjs'), example!)
    const installed = await run('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: app })
    expect(installed.code, installed.stderr).toBe(0)

    // Podman's Docker-compatible API service, on a socket of this test's own.
    const socket = join(app, 'podman.sock')
    const service = spawn(PODMAN, ['system', 'service', '--time', '0', `unix://${socket}`], { env: ENV, stdio: 'ignore' })
    cleanup.push(async () => {
      service.kill('SIGTERM')
    })
    await waitFor('the podman API service', async () => ((await lstat(socket)).isSocket() ? true : undefined))

    const result = await run(process.execPath, ['--test', 'emulator.test.mjs'], {
      cwd: app,
      env: { ...ENV, DOCKER_HOST: `unix://${socket}`, TESTCONTAINERS_RYUK_DISABLED: 'true' },
    })
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0)
    expect(result.stdout).toMatch(/# pass 1\b/)
  })
})
