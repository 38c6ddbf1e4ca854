import { execFile } from 'node:child_process'
import { createReadStream } from 'node:fs'
import { mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join, normalize } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, ROOT, tempDir } from '../support/cli.js'
import { launchChromium } from './support/browser.js'

/**
 * The browser recipe (docs/guides/browsers.md), copied from that page into a fresh Vite app:
 * `msw init`, `src/mocks/emulator.ts` and `src/main.ts` exactly as written
 * there, plus a tiny app. Built by Vite (the real bundler), served, and
 * loaded in headless Chromium: the app answers from the emulator, keeps its
 * state across a reload, and a production build leaves the emulator out.
 */

let app: { path: string; remove: () => Promise<void> }
let browser: Browser
let server: Server
let origin: string

/** The fenced code block of the recipe page whose first line is `// <file>`, without its list indentation. */
function readmeBlock(readme: string, file: string): string {
  const blocks = [...readme.matchAll(/^( *)```ts\n([\s\S]*?)^\1```$/gm)]
  const found = blocks.find(([, indent, body]) => body!.split('\n')[0]!.slice(indent!.length) === `// ${file}`)
  if (found === undefined) throw new Error(`docs/guides/browsers.md has no \`\`\`ts block starting with // ${file}`)
  const [, indent, body] = found
  return body!
    .split('\n')
    .map((line) => line.slice(indent!.length))
    .join('\n')
}

/** The app itself: lists Alice's projects (same origin) and teams (another origin), and creates a project on click. */
const APP = `
const headers = { authorization: 'Bearer pres_test_alice', 'content-type': 'application/json' }
const root = document.querySelector('#app')!
async function render() {
  const projects = await (await fetch('/api/v1/projects?limit=100', { headers })).json()
  const teams = await (await fetch('https://api.presentation.example/v1/teams', { headers })).json()
  root.textContent = JSON.stringify({ names: projects.projects.map((p: { name: string }) => p.name), teams: teams.teams.length })
  root.setAttribute('data-ready', String(Date.now()))
}
document.querySelector('#create')!.addEventListener('click', async () => {
  await fetch('/api/v1/projects', { method: 'POST', headers, body: JSON.stringify({ name: 'Made in the browser' }) })
  await render()
})
await render()
`

const INDEX_HTML = `<!doctype html><html><body><button id="create">Create</button><pre id="app"></pre><script type="module" src="/src/main.ts"></script></body></html>`

function run(args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { cwd: app.path, env: { ...process.env, ...env } }, (error, stdout, stderr) =>
      error === null ? resolve(`${stdout}${stderr}`) : reject(new Error(`${args.join(' ')} failed:\n${stdout}${stderr}`)),
    )
  })
}

async function jsBytes(dir: string): Promise<number> {
  let total = 0
  for (const name of await readdir(dir, { recursive: true })) {
    if (name.endsWith('.js')) total += (await stat(join(dir, name))).size
  }
  return total
}

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' }

beforeAll(async () => {
  await ensureBuilt()
  const readme = await readFile(join(ROOT, 'docs', 'guides', 'browsers.md'), 'utf8')
  app = await tempDir('presentation-emulator-vite-')
  const path = app.path
  await writeFile(join(path, 'package.json'), JSON.stringify({ name: 'a-vite-app', private: true, type: 'module' }))
  await mkdir(join(path, 'node_modules'))
  for (const name of ['msw', 'vite']) await symlink(join(ROOT, 'node_modules', name), join(path, 'node_modules', name), 'dir')
  await symlink(ROOT, join(path, 'node_modules', 'presentation-emulator'), 'dir')
  await mkdir(join(path, 'src', 'mocks'), { recursive: true })
  await writeFile(join(path, 'index.html'), INDEX_HTML)
  await writeFile(join(path, 'src', 'mocks', 'emulator.ts'), readmeBlock(readme, 'src/mocks/emulator.ts'))
  // The cross-origin choice of the recipe: the same world under the real service's URL.
  const main = readmeBlock(readme, 'src/main.ts').replace(
    'await startEmulator()',
    "const { emulator, worker } = await startEmulator()\n  worker.use(...emulator.handlersFor('https://api.presentation.example/v1'))",
  )
  await writeFile(join(path, 'src', 'main.ts'), `${main}\n${APP}`)
  // Without the emulator at all, to measure what the dev-only import adds to a production build.
  await writeFile(join(path, 'src', 'plain.ts'), APP)
  await writeFile(join(path, 'plain.html'), INDEX_HTML.replace('/src/main.ts', '/src/plain.ts'))

  const vite = join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js')
  // `--save` (as the recipe says) would ask a question here; the test only needs the file.
  await run([join(ROOT, 'node_modules', 'msw', 'cli', 'index.js'), 'init', 'public/', '--no-save'], {})
  await run([vite, 'build', '--mode', 'development', '--outDir', 'dist-dev'], { NODE_ENV: 'development' })
  await run([vite, 'build', '--outDir', 'dist-prod'], { NODE_ENV: 'production' })
  await run([vite, 'build', '--outDir', 'dist-plain', '--emptyOutDir'], { NODE_ENV: 'production' })

  // A static server for the development build.
  const root = join(path, 'dist-dev')
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x')
    const file = normalize(join(root, url.pathname === '/' ? 'index.html' : url.pathname))
    if (!file.startsWith(root)) return void res.writeHead(403).end()
    stat(file).then(
      () => {
        res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' })
        createReadStream(file).pipe(res)
      },
      () => res.writeHead(404).end('not found'),
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  browser = await launchChromium()
}, 180_000)

afterAll(async () => {
  await browser?.close()
  await new Promise((resolve) => server?.close(resolve))
  await app?.remove()
})

describe('the browser recipe of docs/guides/browsers.md in a Vite app', () => {
  it('answers from the emulator in Chromium, on its own origin and another, and keeps its state across a reload', async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(String(error)))
    await page.goto(origin)
    await page.waitForSelector('#app[data-ready]')
    const first = JSON.parse((await page.textContent('#app'))!)
    expect(first.names).toContain('Welcome deck')
    expect(first.names).not.toContain('Made in the browser')
    expect(first.teams).toBe(2)

    const before = await page.getAttribute('#app', 'data-ready')
    await page.click('#create')
    await page.waitForFunction((stamp) => document.querySelector('#app')!.getAttribute('data-ready') !== stamp, before)
    expect(JSON.parse((await page.textContent('#app'))!).names).toContain('Made in the browser')

    await page.reload()
    await page.waitForSelector('#app[data-ready]')
    expect(JSON.parse((await page.textContent('#app'))!).names).toContain('Made in the browser')
    // A new tab has its own sessionStorage: the seeded world again.
    const other = await context.newPage()
    await other.goto(origin)
    await other.waitForSelector('#app[data-ready]')
    expect(JSON.parse((await other.textContent('#app'))!).names).not.toContain('Made in the browser')
    expect(errors).toEqual([])
    await context.close()
  })

  it('leaves the emulator out of a production build: no chunk, under 1 kB more than the app alone', async () => {
    const prod = join(app.path, 'dist-prod')
    const files = await readdir(join(prod, 'assets'))
    expect(files.filter((name) => name.endsWith('.js'))).toHaveLength(1)
    const code = await readFile(join(prod, 'assets', files.find((name) => name.endsWith('.js'))!), 'utf8')
    expect(code).not.toContain('setupWorker')
    expect(code).not.toContain('presentation-emulator')
    const added = (await jsBytes(prod)) - (await jsBytes(join(app.path, 'dist-plain')))
    expect(added).toBeLessThan(1024)
  })

  it('is what the README warns of: `vite preview` of a plain build answers an /api/v1 GET with 200 and index.html', async () => {
    const { preview } = await import('vite')
    const previewed = await preview({
      root: app.path,
      logLevel: 'silent',
      build: { outDir: 'dist-prod' },
      preview: { host: '127.0.0.1', port: 0, strictPort: false },
    })
    try {
      const base = previewed.resolvedUrls!.local[0]!
      const res = await fetch(new URL('api/v1/projects', base), { headers: { authorization: 'Bearer pres_test_alice' } })
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toMatch(/^text\/html/)
      expect(await res.text()).toContain('<pre id="app">')
    } finally {
      await previewed.close()
    }
  })
})
