/**
 * The emulator in a browser app: a Vite app using the handlers with msw's
 * `setupWorker`, against the same app with one trivial msw handler.
 *
 * - bundle weight: what the emulator adds, minified and gzipped, in the
 *   chunks loaded before the first answer (the entry, its static imports and
 *   the emulator it awaits through a dynamic import, as the browser recipe of docs/guides/browsers.md does)
 *   and, for information, in all chunks (lazy ones included);
 * - navigation start to the first answered API call in headless Chromium.
 */
import { createReadStream, existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { extname, join, normalize } from 'node:path'
import { gzipSync } from 'node:zlib'
import { ROOT } from './lib/process.js'
import { ratio, skipped, type Row } from './lib/row.js'
import { alternate, fmt, median } from './lib/stats.js'
import { CHROMIUM, launchChromium } from './lib/chromium.js'

const APPS = ['emulator-app', 'trivial-app'] as const
/** One of the two apps of `bench/browser/`. */
export type App = (typeof APPS)[number]

/** Bytes of a build's JS chunks, minified and gzipped (level 9). */
export interface Weight {
  /** The chunks loaded before the first answer. */
  initial: number
  /** All chunks, lazy ones included. */
  all: number
}

/** The browser bundle of the checkout at `root` (this one by default), which the apps import as `presentation-emulator`. */
export function browserBundleOf(root: string = ROOT): string {
  return join(root, 'dist', 'browser', 'browser.js')
}

/**
 * Builds `app` (from this checkout's `bench/browser/`) into `outDir` with
 * Vite, `presentation-emulator` being the browser bundle of the checkout at
 * `root` (this one by default), and weighs it.
 */
export async function buildApp(app: App, outDir: string, root: string = ROOT): Promise<Weight> {
  const { build } = await import('vite')
  await build({
    root: join(ROOT, 'bench', 'browser', app),
    logLevel: 'error',
    configFile: false,
    resolve: {
      alias: { 'presentation-emulator': browserBundleOf(root) },
      // msw is a peer (the app's own): the bundle of another checkout imports the app's msw, not a second
      // copy from that checkout's node_modules, which would add msw's core again (about 125 KB).
      dedupe: ['msw'],
    },
    build: { outDir, emptyOutDir: true, manifest: true, target: 'es2022', modulePreload: { polyfill: false } },
  })
  const manifest = JSON.parse(readFileSync(join(outDir, '.vite', 'manifest.json'), 'utf8')) as Record<
    string,
    { file: string; isEntry?: boolean; imports?: string[]; dynamicImports?: string[] }
  >
  const gz = (file: string) => gzipSync(readFileSync(join(outDir, file)), { level: 9 }).length
  const initial = new Set<string>()
  const visit = (key: string) => {
    const chunk = manifest[key]!
    if (initial.has(chunk.file)) return
    initial.add(chunk.file)
    for (const imported of chunk.imports ?? []) visit(imported)
  }
  // The entry, its static imports, and the modules it imports dynamically: the
  // emulator app awaits its one dynamic import (the emulator, loaded as the
  // browser recipe does) before its first call. The emulator's own lazy
  // chunks are dynamic imports of that chunk, not of the entry.
  for (const [key, chunk] of Object.entries(manifest)) {
    if (!chunk.isEntry) continue
    visit(key)
    for (const imported of chunk.dynamicImports ?? []) visit(imported)
  }
  const all = new Set(
    Object.values(manifest)
      .map((chunk) => chunk.file)
      .filter((file) => file.endsWith('.js')),
  )
  const sum = (files: Set<string>) => [...files].filter((file) => file.endsWith('.js')).reduce((total, file) => total + gz(file), 0)
  // msw's worker script, served beside the app.
  const { copyFileSync } = await import('node:fs')
  copyFileSync(join(ROOT, 'node_modules', 'msw', 'lib', 'mockServiceWorker.js'), join(outDir, 'mockServiceWorker.js'))
  return { initial: sum(initial), all: sum(all) }
}

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.json': 'application/json' }

function serve(dir: string): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '')
    const file = join(dir, path.endsWith('/') ? `${path}index.html` : path)
    if (!file.startsWith(dir) || !existsSync(file)) {
      res.writeHead(404).end()
      return
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' })
    createReadStream(file).pipe(res)
  })
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, origin: `http://127.0.0.1:${(server.address() as { port: number }).port}` })),
  )
}

export async function browserRows(options: { rounds: number }): Promise<Row[]> {
  const dirs = Object.fromEntries(APPS.map((app) => [app, mkdtempSync(join(tmpdir(), `pe-${app}-`))])) as Record<App, string>
  const weights = {} as Record<App, Weight>
  for (const app of APPS) weights[app] = await buildApp(app, dirs[app])
  const initial = weights['emulator-app'].initial - weights['trivial-app'].initial
  const all = weights['emulator-app'].all - weights['trivial-app'].all
  const rows: Row[] = [
    {
      measure: 'bundle added to a Vite app using the handlers with `setupWorker`, minified + gzip, loaded before the first answer',
      emulator: `${fmt(initial / 1024, 1)} KB`,
      baseline: `the app with one trivial msw handler: ${fmt(weights['trivial-app'].initial / 1024, 1)} KB`,
      ratio: '',
      target: '≤ 120 KB',
      met: initial <= 120 * 1024,
    },
    {
      measure: 'the same, all chunks (lazy ones included)',
      emulator: `${fmt(all / 1024, 1)} KB`,
      baseline: `${fmt(weights['trivial-app'].all / 1024, 1)} KB`,
      ratio: '',
      // Lazy chunks load only when a page, a generation or a slide check needs them (docs/decisions/0001-dependencies-as-published.md).
      target: '(for information)',
      met: undefined,
    },
  ]
  const navigation = 'navigation start to the first answered API call, headless Chromium, ms'
  if (!existsSync(CHROMIUM)) {
    rows.push(skipped(navigation, '≤ 1.3x', `skipped: no ${CHROMIUM} (apt-get install chromium)`))
    return rows
  }
  const browser = await launchChromium()
  const servers = await Promise.all(APPS.map((app) => serve(dirs[app])))
  try {
    const visit = (index: number) => async () => {
      const context = await browser.newContext()
      try {
        const page = await context.newPage()
        await page.goto(`${servers[index]!.origin}/`)
        await page.waitForFunction(() => (window as { __firstAnswer?: number }).__firstAnswer !== undefined, undefined, { timeout: 30_000 })
        const [at, status] = await page.evaluate(() => [
          (window as { __firstAnswer?: number }).__firstAnswer!,
          (window as { __status?: number }).__status!,
        ])
        if (status !== 200) throw new Error(`${APPS[index]} answered ${status}`)
        return at
      } finally {
        await context.close()
      }
    }
    await visit(0)()
    await visit(1)()
    const runs = await alternate(Math.max(7, options.rounds), { emulator: visit(0), trivial: visit(1) })
    const e = median(runs.emulator)
    const t = median(runs.trivial)
    rows.push({
      measure: navigation,
      emulator: fmt(e),
      baseline: `the trivial-handler app: ${fmt(t)}`,
      ratio: ratio(e / t),
      target: '≤ 1.3x',
      met: e / t <= 1.3,
    })
  } finally {
    await browser.close()
    for (const { server } of servers) server.close()
  }
  return rows
}
