/**
 * `npm run bench -- --against=DIR`: this checkout (new) against another
 * checkout of the project, installed and built (old), on what a refactor
 * must leave as it was: the cold start of the CLI, the browser bundle before
 * the first answer, HTTP and `emulator.fetch` throughput, and the render
 * rows (the editor's current slide and thumbnails in Chromium, each build's
 * CLI serving its own pages; transpiling a slide).
 *
 * Each measure runs for new, old and old again (old′: a second server,
 * process or build of the old checkout), in turn, each round starting with
 * another (`alternate`: new old old′, old old′ new, old′ new old, …; a
 * multiple of three rounds, so each runs as often first, second and third,
 * and none ever runs twice in a row). A row gives the median of
 * the pairs' new/old ratios (target ≤ 1.10x) and, beside it, the old build
 * against itself (old′/old, pair by pair in the same rounds): the noise the
 * ratio is read against.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, realpathSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Emulator } from '../src/emulator.js'
import { WEB_MOUNTS } from '../web/mounts.js'
import { browserBundleOf, buildApp } from './browser.js'
import { load, startEmulator } from './http.js'
import { CHROMIUM, launchChromium } from './lib/chromium.js'
import { cliOf, ROOT, startServer, stop } from './lib/process.js'
import { ratio, skipped, type Row } from './lib/row.js'
import { alternate, fmt, median, pairedRatio, pairedRatios } from './lib/stats.js'
import { SLIDES, seededSlideTexts, thirtySlideDeck, visit } from './render.js'
import { cliFirstAnswer } from './startup.js'

/** The three sides of each round: this checkout, the other one, and the other one again. */
type Side = 'new' | 'old' | 'again'
const SIDES: readonly Side[] = ['new', 'old', 'again']
const rootOf = (side: Side, old: string) => (side === 'new' ? ROOT : old)

/** The largest median new/old ratio that passes: at most a tenth worse. */
export const TARGET = 1.1

/**
 * Pairs per measure, and the size of a run: at least seven pairs, and a
 * multiple of the three sides, so each side runs in each place as often.
 * A spawn or a run of fetch calls is short and, with other work on the
 * machine, moves by half from one to the next (ratios of 0.5x to 2x between
 * runs of one build): more pairs, so that their median moves less than the
 * target's tenth; so do a visit in Chromium and a transpile run, a few
 * hundred calls. `--quick` shortens the HTTP runs and takes fewer of those.
 */
function plan(quick: boolean) {
  return {
    startup: { pairs: quick ? 18 : 45 },
    browser: { pairs: 9 },
    http: { pairs: 9, seconds: quick ? 2 : 4 },
    fetch: { pairs: quick ? 9 : 27, count: 20_000 },
    render: { pairs: quick ? 9 : 21 },
    transpile: { pairs: quick ? 9 : 27, passes: quick ? 10 : 25 },
  }
}

/**
 * The checkout at `dir` for the results' header: its commit (short), with
 * `(uncommitted changes)` when tracked files but the results differ from
 * it, and its path;
 * only its path when `dir` is not a git checkout of the project (its
 * `package.json` not tracked there, as in an archive unpacked inside another
 * repository's work tree).
 */
export function checkoutLabel(dir: string): string {
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
  try {
    git('ls-files', '--error-unmatch', 'package.json')
    const changed = git('status', '--porcelain', '--untracked-files=no', '--', '.', ':!bench/results') !== ''
    return `${git('rev-parse', '--short', 'HEAD')}${changed ? ' (uncommitted changes)' : ''} (${realpathSync(dir)})`
  } catch {
    return `${realpathSync(dir)} (not a git checkout)`
  }
}

interface Compared {
  /** What is measured, with its unit. */
  measure: string
  runs: Record<Side, number[]>
  /** A run's value as a cost (more is worse): the value, or its inverse for a rate. */
  cost: (value: number) => number
  show: (value: number) => string
}

const range = (ratios: number[]) => `${ratio(Math.min(...ratios))}–${ratio(Math.max(...ratios))}`

/** The row of a measure: new against old, and beside it old against itself. */
function compared({ measure, runs, cost, show }: Compared): Row {
  const costs = (side: Side) => runs[side].map(cost)
  const ratios = pairedRatios(costs('new'), costs('old'))
  const noise = pairedRatios(costs('again'), costs('old'))
  const r = pairedRatio(costs('new'), costs('old'))
  const n = pairedRatio(costs('again'), costs('old'))
  return {
    measure: `${measure}; ${ratios.length} pairs`,
    emulator: show(median(runs.new)),
    baseline: `${show(median(runs.old))}; old against itself: ${ratio(n)} (${range(noise)})`,
    ratio: `${ratio(r)} (${range(ratios)})`,
    target: `≤ ${ratio(TARGET)}`,
    met: r <= TARGET,
    ...(n > TARGET || n < 1 / TARGET ? { note: '(but old against itself is past the target: too noisy to tell)' } : {}),
  }
}

/** Runs `measure` for each side, `rounds` times, in turn (see the top of this file). */
function sides(rounds: number, old: string, measure: (root: string, side: Side) => Promise<number>): Promise<Record<Side, number[]>> {
  return alternate(rounds, {
    new: () => measure(rootOf('new', old), 'new'),
    old: () => measure(rootOf('old', old), 'old'),
    again: () => measure(rootOf('again', old), 'again'),
  })
}

/** Cold start: spawn of each side's CLI to its first authorised 200 on `GET /v1/teams`. */
async function startup(old: string, pairs: number): Promise<Row> {
  await cliFirstAnswer(ROOT) // warm the file cache
  await cliFirstAnswer(old)
  const runs = await sides(pairs, old, (root) => cliFirstAnswer(root))
  return compared({
    measure:
      'cold start: spawn of the CLI (`node <root>/bin/presentation-emulator.js --port N --quiet`) to its first authorised 200 on `GET /v1/teams`, ms',
    runs,
    cost: (ms) => ms,
    show: (ms) => fmt(ms),
  })
}

/** The bundle each side's browser build adds to the Vite app before its first answer (bench/browser.ts), a fresh build each run. */
async function browser(old: string, pairs: number): Promise<Row> {
  const measure = 'browser bundle added to the `setupWorker` app before the first answer, minified + gzip, KB (a fresh Vite build each run)'
  if (!existsSync(browserBundleOf(old))) {
    return skipped(measure, `≤ ${ratio(TARGET)}`, `skipped: no ${browserBundleOf(old)} in the build before`)
  }
  const trivial = await buildApp('trivial-app', mkdtempSync(join(tmpdir(), 'pe-trivial-app-')), ROOT)
  const dirs = { new: '', old: '', again: '' }
  for (const side of Object.keys(dirs) as Side[]) dirs[side] = mkdtempSync(join(tmpdir(), `pe-emulator-app-${side}-`))
  const runs = await sides(pairs, old, async (root, side) => (await buildApp('emulator-app', dirs[side], root)).initial - trivial.initial)
  return compared({ measure, runs, cost: (bytes) => bytes, show: (bytes) => fmt(bytes / 1024, 1) })
}

/** HTTP: the list's requests per second on each side's CLI (bench/http.ts), one server per side. */
async function http(old: string, { pairs, seconds }: { pairs: number; seconds: number }): Promise<Row> {
  const servers: Partial<Record<Side, { child: ChildProcess; origin: string }>> = {}
  try {
    for (const side of SIDES) servers[side] = await startEmulator(rootOf(side, old))
    const url = (side: Side) => `${servers[side]!.origin}/v1/projects`
    for (const side of SIDES) await load(url(side), 1) // warm-up
    const runs = await sides(pairs, old, (_root, side) => load(url(side), seconds))
    return compared({
      measure: `HTTP \`GET /v1/projects\` (20 items), req/s, 50 connections, ${seconds} s a run; the ratio is of the time per request (old/new req/s)`,
      runs,
      cost: (perSecond) => 1 / perSecond,
      show: (perSecond) => fmt(perSecond),
    })
  } finally {
    await Promise.all(Object.values(servers).map((server) => stop(server.child)))
  }
}

/**
 * A child process of `script` (a bench/*.mjs) for the checkout at `root`,
 * spoken to over IPC: started once its first message came; `ask` sends a
 * message and answers the next one the child sends.
 */
async function ipcChild<Answer>(
  script: string,
  root: string,
): Promise<{ ask: (message: object) => Promise<Answer>; close: () => Promise<void> }> {
  const child = spawn(process.execPath, [join(ROOT, 'bench', script), root], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const next = () =>
    new Promise<Answer>((resolve, reject) => {
      const exited = (code: number | null) => reject(new Error(`bench/${script} ${root} exited ${code}`))
      child.once('exit', exited)
      child.once('message', (message: Answer) => {
        child.off('exit', exited)
        resolve(message)
      })
    })
  await next()
  return {
    ask: async (message) => {
      const answer = next()
      child.send(message)
      return answer
    },
    close: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      if (child.connected) child.disconnect()
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))])
      await stop(child)
    },
  }
}

/** A child process measuring `emulator.fetch` on the built package of the checkout at `root` (bench/fetch-child.mjs). */
async function fetchChild(root: string): Promise<{ rate: (count: number) => Promise<number>; close: () => Promise<void> }> {
  const child = await ipcChild<{ rate: number }>('fetch-child.mjs', root)
  return { rate: async (count) => (await child.ask({ count })).rate, close: child.close }
}

/** fetch: `emulator.fetch` list calls per second (bench/inprocess.ts fetchRows), each side's built package in its own process. */
async function fetchThroughput(old: string, { pairs, count }: { pairs: number; count: number }): Promise<Row> {
  const children: Partial<Record<Side, Awaited<ReturnType<typeof fetchChild>>>> = {}
  try {
    for (const side of SIDES) children[side] = await fetchChild(rootOf(side, old))
    const runs = await sides(pairs, old, (_root, side) => children[side]!.rate(count))
    return compared({
      measure: `\`emulator.fetch\` list req/s (body read as text), ${fmt(count)} sequential calls a run, each build's \`dist/node/index.js\` in a process of its own; the ratio is of the time per request`,
      runs,
      cost: (perSecond) => 1 / perSecond,
      show: (perSecond) => fmt(perSecond),
    })
  } finally {
    await Promise.all(Object.values(children).map((child) => child.close()))
  }
}

/**
 * The render rows (bench/render.ts's, each build against the other): each
 * side's CLI (`--clock manual --rate-limit 0`) serving a 30-slide deck
 * generated from a template, and its own editor page, renderer and viewer
 * in one headless Chromium; a visit is bench/render.ts's (a fresh context,
 * one unmeasured load, then the measured one), in the Component view.
 */
async function render(old: string, { pairs }: { pairs: number }): Promise<Row[]> {
  const current =
    'current slide: navigation start to the current slide’s component shown in the editor (30-slide deck from a template, each build’s CLI serving its own pages), headless Chromium, ms'
  const thumbs = `thumbnails: navigation start to all ${SLIDES} thumbnails’ components shown, ms (the same visits)`
  if (!existsSync(CHROMIUM)) {
    return [current, thumbs].map((measure) => skipped(measure, `≤ ${ratio(TARGET)}`, `skipped: no ${CHROMIUM}`))
  }
  const servers: Partial<Record<Side, { child: ChildProcess; origin: string }>> = {}
  const urls = { new: '', old: '', again: '' }
  const browser = await launchChromium()
  try {
    for (const side of SIDES) {
      const root = rootOf(side, old)
      const server = await startServer([cliOf(root), '--port', '0', '--rate-limit', '0', '--clock', 'manual', '--quiet'], { cwd: root })
      servers[side] = server
      urls[side] = `${server.origin}${await thirtySlideDeck(server.origin)}`
    }
    for (const side of SIDES) await visit(browser, urls[side], 'component') // warm-up
    const thumbRuns: Record<Side, number[]> = { new: [], old: [], again: [] }
    const runs = await sides(pairs, old, async (_root, side) => {
      const marks = await visit(browser, urls[side], 'component')
      thumbRuns[side].push(marks.thumbs)
      return marks.current
    })
    const ms = { cost: (value: number) => value, show: (value: number) => fmt(value) }
    return [compared({ measure: current, runs, ...ms }), compared({ measure: thumbs, runs: thumbRuns, ...ms })]
  } finally {
    await browser.close()
    await Promise.all(Object.values(servers).map((server) => stop(server.child)))
  }
}

/**
 * Transpiling on the emulator's side: each side's `transpileSlideTsx` in a
 * process of its own (bench/transpile-child.mjs), warmed up, timed call by
 * call over the same texts (every distinct slide.tsx of this checkout's
 * seeded world); a run's figure is the median call of `passes` passes.
 */
async function transpile(old: string, { pairs, passes }: { pairs: number; passes: number }): Promise<Row> {
  const host = new Emulator({ clock: 'manual', rateLimit: 0 }, { mounts: WEB_MOUNTS })
  await host.ready()
  const texts = seededSlideTexts(host)
  await host.close()
  const children: Partial<Record<Side, Awaited<ReturnType<typeof ipcChild<{ median: number }>>>>> = {}
  try {
    for (const side of SIDES) {
      children[side] = await ipcChild<{ median: number }>('transpile-child.mjs', rootOf(side, old))
      await children[side].ask({ texts })
    }
    const runs = await sides(pairs, old, async (_root, side) => (await children[side]!.ask({ passes })).median)
    return compared({
      measure: `transpile: one slide.tsx on the emulator's side (\`transpileSlideTsx\`: parse, rewrite, sucrase, check), ms, the median call of ${passes} passes over ${texts.length} distinct components (the seeded world's), each side's source in a process of its own after a warm-up`,
      runs,
      cost: (value) => value,
      show: (value) => fmt(value, 3),
    })
  } finally {
    await Promise.all(Object.values(children).map((child) => child.close()))
  }
}

/** The groups of `--against`, by the names `--only` takes (`AGAINST_GROUPS` of bench/lib/args.ts), in the order they run. */
export function againstGroups(old: string, options: { quick: boolean }): Array<[string, () => Promise<Row[]>]> {
  const { startup: s, browser: b, http: h, fetch: f, render: r, transpile: t } = plan(options.quick)
  return [
    ['startup', async () => [await startup(old, s.pairs)]],
    ['browser', async () => [await browser(old, b.pairs)]],
    ['http', async () => [await http(old, h)]],
    ['fetch', async () => [await fetchThroughput(old, f)]],
    ['render', async () => [...(await render(old, r)), await transpile(old, t)]],
  ]
}

/** What the header of `bench/results/against.md` says of the run, beside the machine and the date. */
export function againstHeader(old: string): string[] {
  return [
    `- new: this checkout, ${checkoutLabel(ROOT)}`,
    `- old: the build before, ${checkoutLabel(old)}`,
    '- new, old and old′ (the old build again: another server, process or build of it) in turn, each round starting with another, as many rounds as the row\'s pairs; each ratio is the median of the pairs\' new/old (of the time per request for the rates), min–max beside it; "old against itself" is old′/old in the same rounds',
  ]
}
