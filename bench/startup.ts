/**
 * Start figures, each in fresh processes: spawn of the CLI to its first
 * authorised 200, `import` of the package, and the first `ready()`.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { cliOf, freePort, get, ROOT, runNode, stop } from './lib/process.js'
import { ratio, type Row } from './lib/row.js'
import { alternate, fmt, median, pairedRatio } from './lib/stats.js'

/** Milliseconds from spawning `args` in `cwd` to the first 200 on `path` (polled every millisecond or so). */
async function firstAnswer(
  args: (port: number) => string[],
  path: string,
  headers: Record<string, string>,
  cwd: string = ROOT,
): Promise<number> {
  const port = await freePort()
  const started = performance.now()
  const child: ChildProcess = spawn(process.execPath, args(port), { cwd, stdio: 'ignore' })
  try {
    for (;;) {
      if ((await get(`http://127.0.0.1:${port}${path}`, headers)) === 200) return performance.now() - started
      if (child.exitCode !== null) throw new Error(`${args(port).join(' ')} exited ${child.exitCode}`)
      if (performance.now() - started > 30_000) throw new Error('no answer within 30 s')
      await new Promise((resolve) => setTimeout(resolve, 1))
    }
  } finally {
    await stop(child)
  }
}

const BARE = (port: number) => [
  '-e',
  `require('node:http').createServer((q, s) => { s.writeHead(200, { 'content-type': 'application/json' }); s.end('{}') }).listen(${port}, '127.0.0.1')`,
]
const AUTH = { authorization: 'Bearer pres_test_alice' }

/**
 * Milliseconds from spawning the CLI of the checkout at `root` (this one by
 * default; `node <root>/bin/presentation-emulator.js --port N --quiet`, in
 * `root`) to its first authorised 200 on `GET /v1/teams`.
 */
export function cliFirstAnswer(root: string = ROOT): Promise<number> {
  return firstAnswer((port) => [cliOf(root), '--port', String(port), '--quiet'], '/v1/teams', AUTH, root)
}

/** Milliseconds the snippet reports, in a fresh `node` (ES module) process. */
async function timed(snippet: string): Promise<number> {
  return Number(await runNode(['--input-type=module', '-e', snippet]))
}

const IMPORT = (specifier: string) =>
  `const t = performance.now(); await import('${specifier}'); process.stdout.write(String(performance.now() - t))`
const READY =
  "const { createEmulator } = await import('presentation-emulator'); const t = performance.now(); const e = createEmulator(); await e.ready(); process.stdout.write(String(performance.now() - t)); await e.close()"

export async function startupRows(options: { rounds: number }): Promise<Row[]> {
  const rounds = Math.max(5, options.rounds)
  await cliFirstAnswer() // warm the file cache
  // A spawn takes a few hundred ms and its time varies by a quarter from run to run on a shared machine:
  // three times the rounds, and the ratio taken pair by pair.
  const spawnRuns = await alternate(rounds * 3, {
    cli: () => cliFirstAnswer(),
    bare: () => firstAnswer(BARE, '/', {}),
  })
  const importRuns = await alternate(rounds, {
    emulator: () => timed(IMPORT('presentation-emulator')),
    msw: () => timed(IMPORT('msw/node')),
  })
  const readyRuns: number[] = []
  for (let i = 0; i < rounds; i++) readyRuns.push(await timed(READY))
  const cli = median(spawnRuns.cli)
  const bare = median(spawnRuns.bare)
  const spawnRatio = pairedRatio(spawnRuns.cli, spawnRuns.bare)
  const imported = median(importRuns.emulator)
  const msw = median(importRuns.msw)
  const ready = median(readyRuns)
  return [
    {
      measure: 'spawn of the CLI to the first authorised 200 on `GET /v1/teams`, ms (medians; the ratio is the median of the runs’ pairs)',
      emulator: fmt(cli),
      baseline: `bare \`node -e\` http server to its first 200: ${fmt(bare)}`,
      ratio: ratio(spawnRatio),
      target: '≤ 2x',
      met: spawnRatio <= 2,
    },
    {
      measure: "`await import('presentation-emulator')` in a fresh process, ms",
      emulator: fmt(imported),
      baseline: `\`await import('msw/node')\`: ${fmt(msw)}`,
      ratio: ratio(imported / msw),
      target: '≤ 1.5x',
      met: imported / msw <= 1.5,
    },
    {
      measure: 'first `createEmulator().ready()` in a fresh process, ms',
      emulator: fmt(ready, 1),
      baseline: '',
      ratio: '',
      target: '≤ 30 ms',
      met: ready <= 30,
    },
  ]
}
