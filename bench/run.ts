/**
 * Performance figures of the emulator, each as a ratio measured in one run
 * on this machine (absolute numbers on a shared machine are noise):
 *
 * 1. HTTP throughput of GET /v1/projects against a bare node:http server
 *    serving the same bytes (target ≥ 0.4x).
 * 2. Cold start: spawn to "listening" of the CLI (target ≤ 0.4 s), beside a
 *    bare node:http server's.
 * 3. List latency in-process at 100k projects vs 100 (target within 2x).
 *
 * Usage: npm run bench [-- --quick] [-- --json]
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import { createEmulator } from '../src/index.js'

const root = fileURLToPath(new URL('..', import.meta.url))
const quick = process.argv.includes('--quick')
const asJson = process.argv.includes('--json')
const DURATION_S = quick ? 3 : 8
const ROUNDS = quick ? 1 : 2
const BIG = quick ? 20_000 : 100_000

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

function start(args: string[]): Promise<{ child: ChildProcess; origin: string; ms: number }> {
  const started = performance.now()
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] })
  return new Promise((resolve, reject) => {
    let out = ''
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const match = /listening on (http:\/\/[^\s]+)/.exec(out)
      if (match) resolve({ child, origin: match[1]!, ms: performance.now() - started })
    })
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code} before listening`)))
  })
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
  })
}

async function load(url: string): Promise<{ rps: number; p50: number; p99: number }> {
  const result = await autocannon({
    url,
    connections: 16,
    duration: DURATION_S,
    headers: { authorization: 'Bearer pres_test_alice_acme' },
  })
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`)
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 }
}

const EMULATOR = ['bin/presentation-emulator.js', '--port', '0', '--rate-limit', '0', '--quiet']

async function throughput() {
  const emulator = await start(EMULATOR)
  const body = await (await fetch(`${emulator.origin}/v1/projects`, { headers: { authorization: 'Bearer pres_test_alice_acme' } })).text()
  const file = join(mkdtempSync(join(tmpdir(), 'pe-bench-')), 'body.json')
  writeFileSync(file, body)
  const bare = await start(['bench/bare-server.mjs', file])
  const runs = { bare: [] as number[], emulator: [] as number[], emulatorP99: [] as number[], bareP99: [] as number[] }
  await load(`${bare.origin}/v1/projects`) // warm-up both
  await load(`${emulator.origin}/v1/projects`)
  for (let round = 0; round < ROUNDS; round++) {
    const b = await load(`${bare.origin}/v1/projects`)
    const e = await load(`${emulator.origin}/v1/projects`)
    runs.bare.push(b.rps)
    runs.emulator.push(e.rps)
    runs.bareP99.push(b.p99)
    runs.emulatorP99.push(e.p99)
  }
  await Promise.all([stop(emulator.child), stop(bare.child)])
  const bareRps = median(runs.bare)
  const emulatorRps = median(runs.emulator)
  return { bodyBytes: body.length, bareRps, emulatorRps, ratio: emulatorRps / bareRps, bareP99: median(runs.bareP99), emulatorP99: median(runs.emulatorP99) }
}

async function coldStart() {
  const emulatorMs: number[] = []
  const bareMs: number[] = []
  for (let i = 0; i < 5; i++) {
    const e = await start(EMULATOR)
    emulatorMs.push(e.ms)
    await stop(e.child)
    const b = await start(['bench/bare-server.mjs'])
    bareMs.push(b.ms)
    await stop(b.child)
  }
  return { emulatorMs: median(emulatorMs), bareMs: median(bareMs) }
}

async function listLatency(projects: number) {
  const built = performance.now()
  const emulator = createEmulator({
    clock: 'manual',
    rateLimit: 0,
    fixtures: {
      format: 'presentation-emulator/fixtures@1',
      users: [{ id: 'u', name: 'Bench' }],
      teams: [{ id: 't', slug: 't', name: 'Bench', personalOf: 'u', members: ['u'] }],
      apiKeys: [{ key: 'pres_bench', userId: 'u' }],
      projects: [{ teamId: 't', count: projects, slideCount: 0, versions: 1 }],
    },
  })
  await emulator.ready()
  const buildMs = performance.now() - built
  const request = (query: string) => ({ method: 'GET', path: '/v1/projects', query, headers: { authorization: 'Bearer pres_bench' }, body: null })
  const middle = JSON.parse((await emulator.handle(request(`limit=100`))).body!).nextCursor as string
  const time = async (query: string) => {
    for (let i = 0; i < 300; i++) await emulator.handle(request(query))
    const samples: number[] = []
    for (let i = 0; i < 3000; i++) {
      const t = performance.now()
      await emulator.handle(request(query))
      samples.push(performance.now() - t)
    }
    return median(samples) * 1000
  }
  const first = await time('')
  const next = await time(`cursor=${middle}&published=false`)
  await emulator.close()
  return { projects, buildMs, firstPageUs: first, cursorPageUs: next }
}

const results = {
  throughput: await throughput(),
  coldStart: await coldStart(),
  small: await listLatency(100),
  large: await listLatency(BIG),
}

if (asJson) {
  console.log(JSON.stringify(results, null, 2))
} else {
  const t = results.throughput
  const f = (n: number, d = 0) => n.toFixed(d)
  console.log(`
| measure | emulator | baseline | ratio | target |
|---|---|---|---|---|
| HTTP GET /v1/projects (req/s, ${t.bodyBytes} B body, 16 conns) | ${f(t.emulatorRps)} | ${f(t.bareRps)} bare node:http | ${f(t.ratio, 2)}x | ≥ 0.4x |
| p99 latency under that load (ms) | ${f(t.emulatorP99)} | ${f(t.bareP99)} | | |
| cold start, spawn → listening (ms) | ${f(results.coldStart.emulatorMs)} | ${f(results.coldStart.bareMs)} bare node:http | ${f(results.coldStart.emulatorMs / results.coldStart.bareMs, 2)}x | ≤ 400 ms |
| list, first page, in-process (µs) | ${f(results.large.firstPageUs)} at ${results.large.projects} projects | ${f(results.small.firstPageUs)} at ${results.small.projects} | ${f(results.large.firstPageUs / results.small.firstPageUs, 2)}x | ≤ 2x |
| list, page after a cursor, filtered (µs) | ${f(results.large.cursorPageUs)} | ${f(results.small.cursorPageUs)} | ${f(results.large.cursorPageUs / results.small.cursorPageUs, 2)}x | ≤ 2x |
| world build (ms) | ${f(results.large.buildMs)} for ${results.large.projects} | ${f(results.small.buildMs)} for ${results.small.projects} | | |
`)
}
