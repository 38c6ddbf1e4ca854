/**
 * HTTP throughput of `GET /v1/projects` (20 items): the CLI against a bare
 * node:http server sending the same bytes, and Stoplight Prism mocking the
 * same list from the OpenAPI document when both are installed.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawn, type ChildProcess } from 'node:child_process'
import autocannon from 'autocannon'
import { cliOf, freePort, get, ROOT, startServer, stop } from './lib/process.js'
import { ratio, skipped, type Row } from './lib/row.js'
import { alternate, fmt, median } from './lib/stats.js'

const AUTH = { authorization: 'Bearer pres_test_alice_acme' }
export const CONNECTIONS = 50

/**
 * Requests per second autocannon sustains on `url` (authorised as Alice in
 * Acme) for `seconds`, with {@link CONNECTIONS} connections; throws on any
 * answer other than 2xx and on any error.
 */
export async function load(url: string, seconds: number): Promise<number> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds, headers: AUTH })
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`)
  return result.requests.average
}

const PRISM_DIR = join(ROOT, 'bench', 'prism')
const PRISM_BIN = join(PRISM_DIR, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js')
const OPENAPI = join(ROOT, 'reference', 'openapi.json')

/** Starts Prism mocking the OpenAPI document; resolves once it answers the list. */
async function startPrism(): Promise<{ child: ChildProcess; origin: string }> {
  const port = await freePort()
  const child = spawn(process.execPath, [PRISM_BIN, 'mock', '--host', '127.0.0.1', '--port', String(port), '--errors', 'false', OPENAPI], {
    cwd: PRISM_DIR,
    stdio: 'ignore',
  })
  const origin = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 60_000
  // The document's servers end in /v1 or not: find the list where Prism serves it.
  for (;;) {
    for (const base of ['/v1', '']) {
      if ((await get(`${origin}${base}/projects`, AUTH)) === 200) return { child, origin: `${origin}${base}` }
    }
    if (child.exitCode !== null) throw new Error(`prism exited ${child.exitCode}`)
    if (Date.now() > deadline) throw new Error('prism did not answer the list within 60 s')
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

/** The CLI of the checkout at `root` (this one by default) serving on a free port, without rate limit, in `root`. */
export function startEmulator(root: string = ROOT): Promise<{ child: ChildProcess; origin: string }> {
  return startServer([cliOf(root), '--port', '0', '--rate-limit', '0', '--quiet'], { cwd: root })
}

export async function httpRows(options: { rounds: number; seconds: number }): Promise<Row[]> {
  const emulator = await startEmulator()
  const body = await (await fetch(`${emulator.origin}/v1/projects`, { headers: AUTH })).text()
  const file = join(mkdtempSync(join(tmpdir(), 'pe-bench-')), 'body.json')
  writeFileSync(file, body)
  const bare = await startServer(['bench/bare-server.mjs', file])
  const prismWhy = !existsSync(OPENAPI)
    ? 'no OpenAPI document yet (reference/openapi.json, written by `npm run openapi`)'
    : !existsSync(PRISM_BIN)
      ? 'Prism is not installed (`npm --prefix bench/prism install`)'
      : undefined
  let prism: { child: ChildProcess; origin: string } | undefined
  const rows: Row[] = []
  try {
    if (prismWhy === undefined) prism = await startPrism()
    const targets: Record<string, string> = {
      emulator: `${emulator.origin}/v1/projects`,
      bare: `${bare.origin}/v1/projects`,
      ...(prism ? { prism: `${prism.origin}/projects` } : {}),
    }
    for (const url of Object.values(targets)) await load(url, 1) // warm-up
    const runs = await alternate(
      options.rounds,
      Object.fromEntries(Object.entries(targets).map(([name, url]) => [name, () => load(url, options.seconds)])),
    )
    const e = median(runs.emulator!)
    const b = median(runs.bare!)
    rows.push({
      measure: `HTTP \`GET /v1/projects\` (20 items, ${fmt(body.length)} B), req/s, ${CONNECTIONS} connections`,
      emulator: fmt(e),
      baseline: `bare node:http server, same bytes: ${fmt(b)}`,
      ratio: ratio(e / b),
      target: '≥ 0.5x',
      met: e / b >= 0.5,
    })
    if (prism) {
      const p = median(runs.prism!)
      rows.push({
        measure: `HTTP \`GET /v1/projects\`, req/s, ${CONNECTIONS} connections, vs Stoplight Prism mocking the same list`,
        emulator: fmt(e),
        baseline: `Prism 5.14 mock: ${fmt(p)}`,
        ratio: ratio(e / p),
        target: '(for information)',
        met: undefined,
      })
    }
  } finally {
    await Promise.all([stop(emulator.child), stop(bare.child), prism ? stop(prism.child) : undefined])
  }
  if (prismWhy !== undefined) {
    rows.push(skipped('HTTP `GET /v1/projects` vs Stoplight Prism mocking the same list', '(for information)', `skipped: ${prismWhy}`))
  }
  return rows
}
