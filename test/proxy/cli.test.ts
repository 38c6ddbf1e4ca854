/**
 * `presentation-conformance proxy` as a person runs it: the built bin in a
 * real process, stopped by a signal; and its flags checked before it listens.
 */
import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { proxyMain } from '../../conformance/proxy/cli.js'
import { Har } from '../../src/schemas/index.js'
import { createEmulator } from '../../src/index.js'
import { brokenEmulator, DEFECTS } from '../conformance/variants.js'
import { call } from './traffic.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const ALICE = 'pres_test_alice_acme'

const cleanups: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'proxy-cli-'))
  cleanups.push(() => rm(dir, { recursive: true, force: true }))
  return dir
}

/** The bin running `proxy` with `args`: its URL (the first line it prints), its output, its exit. */
async function runProxy(args: string[]) {
  const child = spawn(process.execPath, ['bin/presentation-conformance.js', 'proxy', ...args], {
    cwd: ROOT,
    env: { ...process.env, CONFORMANCE_BASE_URL: '' },
  })
  let stdout = ''
  let stderr = ''
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString()
  })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  cleanups.push(async () => {
    if (child.exitCode === null) child.kill('SIGKILL')
    await exited
  })
  // The URL is a line of its own: on stdout, or on stderr when the report owns stdout.
  const url = await new Promise<string>((resolve, reject) => {
    for (const stream of [child.stdout, child.stderr])
      createInterface({ input: stream }).on('line', (line) => {
        if (/^http:\/\/\S+\/v1$/.test(line)) resolve(line)
      })
    child.once('exit', () => reject(new Error(`the proxy exited before printing its URL: ${stderr}`)))
  })
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString()
  })
  return { url, exited, child, output: () => ({ stdout, stderr }) }
}

describe('presentation-conformance proxy (the bin)', () => {
  it('prints its URL, a line with a curl per finding, and on SIGTERM writes the report and exits 1 for a MUST', async () => {
    const server = brokenEmulator(DEFECTS.find((d) => d.name === 'errors without X-Service-Error-Code')!)
    const { origin } = await server.listen({ port: 0 })
    cleanups.push(() => server.close())
    const dir = await tempDir()
    const har = join(dir, 'session.har')
    const report = join(dir, 'report.json')
    const proxy = await runProxy([
      '--base-url',
      `${origin}/v1`,
      '--port',
      '0',
      '--record',
      har,
      '--reporter',
      'json',
      '--output',
      report,
      '--api-key',
      ALICE,
    ])
    expect(proxy.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/)
    expect((await call(proxy.url, 'GET', '/teams', { key: ALICE })).status).toBe(200)
    const missing = await call(proxy.url, 'GET', '/projects/not-there', { key: ALICE })
    expect(missing.status).toBe(404)
    // The finding's line comes as it happens, before the signal.
    await expect
      .poll(() => proxy.output().stdout, { timeout: 20_000 })
      .toMatch(/MUST\s+Errors\s+GET \/projects\/\{slug\} \(getProject\): error\.code/)
    expect(proxy.output().stdout).toContain(
      `curl -i -X GET '${origin}/v1/projects/not-there' -H "Authorization: Bearer $PRESENTATION_API_KEY"`,
    )
    expect(proxy.output().stdout).not.toContain(ALICE)
    proxy.child.kill('SIGTERM')
    expect(await proxy.exited).toBe(1)
    const written = JSON.parse(await readFile(report, 'utf8'))
    expect(written.format).toBe('presentation-conformance/report@1')
    expect(written.scenarios.find((s: { id: string }) => s.id === 'error.code').outcome).toBe('fail')
    expect(Har.safeParse(JSON.parse(await readFile(har, 'utf8'))).success).toBe(true)
    expect((await stat(har)).mode & 0o777).toBe(0o600)
  })

  it('exits 0 on SIGINT when no MUST failed', async () => {
    const server = createEmulator({ clock: 'manual', rateLimit: 0, onError: () => undefined })
    const { origin } = await server.listen({ port: 0 })
    cleanups.push(() => server.close())
    const proxy = await runProxy(['--base-url', `${origin}/v1`, '--reporter', 'junit'])
    await call(proxy.url, 'GET', '/projects/not-there', { key: ALICE })
    proxy.child.kill('SIGINT')
    expect(await proxy.exited).toBe(0)
    expect(proxy.output().stdout).toContain('<testsuites name="presentation-conformance"')
    expect(proxy.output().stderr).toMatch(/1 exchanges judged · \d+ facts applied: \d+ held, 0 with a MUST failing/)
  })
})

describe('presentation-conformance proxy flags', () => {
  const run = async (...args: string[]) => {
    const out: string[] = []
    const err: string[] = []
    const code = await proxyMain(
      ['node', 'presentation-conformance', ...args],
      { out: (t) => out.push(t), err: (t) => err.push(t) },
      Promise.resolve(),
    )
    return { code, out: out.join(''), err: err.join('') }
  }

  it('exits 2 with a clear message on bad flags, before listening', async () => {
    const saved = process.env.CONFORMANCE_BASE_URL
    delete process.env.CONFORMANCE_BASE_URL
    try {
      expect((await run()).err).toMatch(/--base-url <url>' not specified/)
      expect((await run()).code).toBe(2)
    } finally {
      if (saved !== undefined) process.env.CONFORMANCE_BASE_URL = saved
    }
    expect(await run('--base-url', 'http://127.0.0.1:1/api')).toMatchObject({ code: 2, err: expect.stringMatching(/ending in \/v1/) })
    expect(await run('--base-url', 'ftp://x/v1')).toMatchObject({ code: 2 })
    expect(await run('--base-url', 'http://127.0.0.1:1/v1', '--port', '70000')).toMatchObject({ code: 2 })
    expect(await run('--base-url', 'http://127.0.0.1:1/v1', '--reporter', 'xml')).toMatchObject({ code: 2 })
    expect(await run('--base-url', 'http://127.0.0.1:1/v1', '--output', 'r.json')).toMatchObject({
      code: 2,
      err: expect.stringMatching(/--output needs --reporter/),
    })
    expect(await run('--base-url', 'http://127.0.0.1:1/v1', '--record', '/no/such/dir/x.har')).toMatchObject({
      code: 2,
      err: expect.stringMatching(/--record: the directory \/no\/such\/dir does not exist/),
    })
  })
})
