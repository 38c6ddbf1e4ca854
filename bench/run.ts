/**
 * `npm run bench`: every performance figure of the emulator, side by side
 * in one run, each as the median of at least three runs, with servers and
 * code paths alternating and every ratio computed within this run (absolute
 * numbers on a shared machine are noise; ratios travel).
 *
 * Writes the table to stdout and to `bench/results/latest.md` (with the
 * machine, the Node version and the date).
 *
 * Usage: npm run bench [-- --quick] [-- --only=http,fetch,msw,scale,memory,startup,browser,render,package]
 */
import { writeFileSync } from 'node:fs'
import { cpus, loadavg, totalmem } from 'node:os'
import { join } from 'node:path'
import { browserRows } from './browser.js'
import { httpRows } from './http.js'
import { fetchRows, mswRows, scaleRows } from './inprocess.js'
import { ROOT } from './lib/process.js'
import type { Row } from './lib/row.js'
import { memoryRows } from './memory.js'
import { packageRows } from './package-weight.js'
import { renderRows } from './render.js'
import { startupRows } from './startup.js'

const quick = process.argv.includes('--quick')
const only = process.argv
  .find((arg) => arg.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',')
const rounds = quick ? 3 : 5
const big = 100_000

const groups: Array<[string, () => Promise<Row[]>]> = [
  ['http', () => httpRows({ rounds, seconds: quick ? 2 : 4 })],
  ['fetch', () => fetchRows({ rounds, count: quick ? 5_000 : 20_000 })],
  ['msw', () => mswRows({ rounds, count: quick ? 5_000 : 20_000 })],
  ['startup', () => startupRows({ rounds })],
  ['scale', () => scaleRows({ rounds: 3, big, writes: quick ? 1_000 : 4_000 })],
  ['memory', () => memoryRows({ rounds: 3, big })],
  ['browser', () => browserRows({ rounds })],
  ['render', () => renderRows({ rounds })],
  ['package', () => packageRows()],
]

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
  '| measure | emulator | anchor | ratio | target | |',
  '|---|---|---|---|---|---|',
  ...rows.map(
    (row) =>
      `| ${cell(row.measure)} | ${cell(row.emulator)} | ${cell(row.baseline)} | ${row.ratio} | ${cell(row.target)} | ${verdict(row)}${row.note ? ` ${cell(row.note)}` : ''} |`,
  ),
].join('\n')

const cpu = cpus()
const header = [
  '# Benchmark results',
  '',
  `- date: ${new Date().toISOString()}`,
  `- machine: ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${(totalmem() / 1024 ** 3).toFixed(0)} GiB, ${process.platform} ${process.arch}`,
  `- Node ${process.version}`,
  `- load average (1 min) at the start and the end: ${loadBefore.toFixed(1)} and ${loadavg()[0]!.toFixed(1)} (other work on the machine shares its cores; the ratios are measured side by side, the absolute figures are not)`,
  `- command: \`npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}\`; medians of ${rounds} runs (writes, loads and memory: 3; navigation: 7), measures alternating, ratios within this run`,
  '',
].join('\n')

console.log(table)
if (only === undefined) writeFileSync(join(ROOT, 'bench', 'results', 'latest.md'), `${header}\n${table}\n`)
