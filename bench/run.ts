/**
 * `npm run bench`: every performance figure of the emulator, side by side
 * in one run, each as the median of at least three runs, with servers and
 * code paths alternating and every ratio computed within this run (absolute
 * numbers on a shared machine are noise; ratios travel).
 *
 * Writes the table to stdout and to `bench/results/latest.md` (with the
 * machine, the Node version and the date).
 *
 * With `--against=DIR` (another checkout of the project, installed and
 * built), measures this checkout against that one instead (bench/against.ts)
 * and writes `bench/results/against.md`.
 *
 * Usage: npm run bench [-- --quick] [-- --only=http,fetch,msw,scale,memory,startup,browser,render,pictures,package,proxy,report]
 *        npm run bench -- --against=DIR [--quick] [--only=startup,browser,http,fetch,render]
 */
import { writeFileSync } from 'node:fs'
import { cpus, loadavg, totalmem } from 'node:os'
import { join } from 'node:path'
import { againstGroups, againstHeader } from './against.js'
import { browserRows } from './browser.js'
import { httpRows } from './http.js'
import { fetchRows, mswRows, scaleRows } from './inprocess.js'
import { clientReportRows } from './client-report.js'
import { type BenchArgs, notBuilt, parseArgs, UsageError } from './lib/args.js'
import { ROOT } from './lib/process.js'
import type { Row } from './lib/row.js'
import { memoryRows } from './memory.js'
import { packageRows } from './package-weight.js'
import { pictureRows, renderRows } from './render.js'
import { proxyRows } from './proxy.js'
import { startupRows } from './startup.js'

let args: BenchArgs
try {
  args = parseArgs(process.argv.slice(2), process.env.INIT_CWD ?? process.cwd())
} catch (error) {
  if (!(error instanceof UsageError)) throw error
  console.error(error.message)
  process.exit(2)
}
const { quick, only, against } = args
const missing = against === undefined ? undefined : notBuilt(against)
if (missing !== undefined) {
  console.error(missing)
  process.exit(2)
}
const rounds = quick ? 3 : 5
const big = 100_000

const usual: Array<[string, () => Promise<Row[]>]> = [
  ['http', () => httpRows({ rounds, seconds: quick ? 2 : 4 })],
  ['fetch', () => fetchRows({ rounds, count: quick ? 5_000 : 20_000 })],
  ['msw', () => mswRows({ rounds, count: quick ? 5_000 : 20_000 })],
  ['startup', () => startupRows({ rounds })],
  ['scale', () => scaleRows({ rounds: 3, big, writes: quick ? 1_000 : 4_000 })],
  ['memory', () => memoryRows({ rounds: 3, big })],
  ['browser', () => browserRows({ rounds })],
  ['render', () => renderRows({ rounds })],
  ['pictures', () => pictureRows({ rounds })],
  ['package', () => packageRows()],
  ['proxy', () => proxyRows({ rounds, count: quick ? 200 : 1000 })],
  ['report', () => clientReportRows({ rounds })],
]
const groups = against === undefined ? usual : againstGroups(against, { quick })

const loadBefore = loadavg()[0]!
const rows: Row[] = []
for (const [name, run] of groups) {
  if (only !== undefined && !only.includes(name)) continue
  process.stderr.write(`bench: ${name}…\n`)
  const started = performance.now()
  rows.push(...(await run()))
  process.stderr.write(`bench: ${name} done in ${((performance.now() - started) / 1000).toFixed(1)} s\n`)
}

const cell = (text: string) => text.replace(/\|/g, '\\|')
const verdict = (row: Row) => (row.met === undefined ? '' : row.met ? 'met' : '**not met**')
const table = [
  against === undefined
    ? '| measure | emulator | anchor | ratio | target | |'
    : '| measure | new (this checkout) | old (the build before) | new/old: median of the pairs (min–max) | target | |',
  '|---|---|---|---|---|---|',
  ...rows.map(
    (row) =>
      `| ${cell(row.measure)} | ${cell(row.emulator)} | ${cell(row.baseline)} | ${row.ratio} | ${cell(row.target)} | ${verdict(row)}${row.note ? ` ${cell(row.note)}` : ''} |`,
  ),
].join('\n')

const cpu = cpus()
const command = `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`
const header = [
  against === undefined ? '# Benchmark results' : '# Benchmark results: this checkout against the build before',
  '',
  `- date: ${new Date().toISOString()}`,
  `- machine: ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${(totalmem() / 1024 ** 3).toFixed(0)} GiB, ${process.platform} ${process.arch}`,
  `- Node ${process.version}`,
  `- load average (1 min) at the start and the end: ${loadBefore.toFixed(1)} and ${loadavg()[0]!.toFixed(1)} (other work on the machine shares its cores; the ratios are measured side by side, the absolute figures are not)`,
  ...(against === undefined
    ? [
        `- command: \`${command}\`; medians of ${rounds} runs (writes, loads and memory: 3; navigation: 7), measures alternating, ratios within this run`,
      ]
    : [`- command: \`${command}\``, ...againstHeader(against)]),
  '',
].join('\n')

console.log(table)
// A partial usual run leaves the full one's file as it is; a run against another checkout has its own file.
if (against !== undefined) writeFileSync(join(ROOT, 'bench', 'results', 'against.md'), `${header}\n${table}\n`)
else if (only === undefined) writeFileSync(join(ROOT, 'bench', 'results', 'latest.md'), `${header}\n${table}\n`)
