import { execFile } from 'node:child_process'
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, ROOT, tempDir } from '../support/cli.js'

/**
 * The install the docs give a server implementer outside this repository
 * (docs/install.md): `npm pack` in a clone, then the tarball and msw as the
 * app's own dev dependencies. Fully offline: the app's lockfile is cut from
 * ours (same versions and integrity), so `npm install --offline` needs only
 * the tarballs `npm ci` put in the cache, never a registry's metadata.
 * Timeouts are patience, not a measurement.
 */

interface LockEntry {
  version?: string
  integrity?: string
  dependencies?: Record<string, string>
  optionalDependencies?: Record<string, string>
  peerDependencies?: Record<string, string>
  peerDependenciesMeta?: Record<string, { optional?: boolean }>
  [key: string]: unknown
}

/** The environment of a shell outside this repository: no variables npm set for this test run. */
function outsideEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) =>
        !/^npm_(package|lifecycle|config_local_prefix|config_global_prefix|config_prefix|command|execpath|node_execpath)/i.test(name) &&
        name !== 'INIT_CWD' &&
        !name.startsWith('PRESENTATION_EMULATOR_'),
    ),
  )
}

function run(command: string, args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env: outsideEnv(), maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr }),
    )
  })
}

async function ok(command: string, args: string[], cwd: string): Promise<string> {
  const result = await run(command, args, cwd)
  if (result.code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.code}:\n${result.stdout}\n${result.stderr}`)
  return result.stdout
}

/**
 * The entries of our lockfile an app with `roots` as dependencies needs, at
 * the same paths: each dependency is found as Node finds it (the nearest
 * `node_modules` up from its dependent), peers included unless optional.
 */
function lockClosure(packages: Record<string, LockEntry>, roots: Record<string, LockEntry>): Record<string, LockEntry> {
  const out: Record<string, LockEntry> = {}
  const find = (from: string, name: string): string | undefined => {
    let base = from
    for (;;) {
      const candidate = `${base === '' ? '' : `${base}/`}node_modules/${name}`
      if (packages[candidate] !== undefined) return candidate
      if (base === '') return undefined
      const cut = base.lastIndexOf('/node_modules/')
      base = cut === -1 ? '' : base.slice(0, cut)
    }
  }
  const visit = (path: string, entry: LockEntry) => {
    const optionalPeers = new Set(Object.entries(entry.peerDependenciesMeta ?? {}).flatMap(([name, meta]) => (meta.optional ? [name] : [])))
    const names = [
      ...Object.keys(entry.dependencies ?? {}),
      ...Object.keys(entry.optionalDependencies ?? {}),
      ...Object.keys(entry.peerDependencies ?? {}).filter((name) => !optionalPeers.has(name)),
    ]
    for (const name of names) {
      const found = find(path, name)
      if (found === undefined) {
        if (entry.optionalDependencies?.[name] !== undefined) continue
        throw new Error(`our lockfile has no ${name} for ${path}`)
      }
      if (out[found] !== undefined) continue
      const { dev: _dev, devOptional: _devOptional, peer: _peer, ...copy } = packages[found]!
      out[found] = { ...copy, dev: true }
      visit(found, packages[found]!)
    }
  }
  for (const [path, entry] of Object.entries(roots)) {
    out[path] = entry
    visit(path, entry)
  }
  return out
}

let work: { path: string; remove: () => Promise<void> }
let app: string
let tarball: string

beforeAll(async () => {
  await ensureBuilt()
  work = await tempDir('presentation-emulator-install-')
  const own = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as {
    version: string
    dependencies: Record<string, string>
    peerDependencies: Record<string, string>
    peerDependenciesMeta: Record<string, { optional?: boolean }>
    bin: Record<string, string>
    engines: Record<string, string>
  }
  const [packed] = JSON.parse(await ok('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work.path], ROOT)) as Array<{
    filename: string
    integrity: string
  }>
  tarball = packed!.filename
  expect(tarball).toBe(`presentation-emulator-${own.version}.tgz`)
  app = join(work.path, 'app')
  await mkdir(app)
  const lock = JSON.parse(await readFile(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> }
  const msw = lock.packages['node_modules/msw']!.version!
  const devDependencies = { msw, 'presentation-emulator': `file:../${tarball}` }
  const manifest = { name: 'an-app', version: '1.0.0', private: true, type: 'module', devDependencies }
  const packages = lockClosure(lock.packages, {
    'node_modules/presentation-emulator': {
      version: own.version,
      resolved: `file:../${tarball}`,
      integrity: packed!.integrity,
      dev: true,
      license: 'MIT',
      dependencies: own.dependencies,
      bin: own.bin,
      engines: own.engines,
      peerDependencies: own.peerDependencies,
      peerDependenciesMeta: own.peerDependenciesMeta,
    },
    'node_modules/msw': (({ dev: _dev, ...entry }) => ({ ...entry, dev: true }))(lock.packages['node_modules/msw']!),
  })
  await writeFile(join(app, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`)
  await writeFile(
    join(app, 'package-lock.json'),
    `${JSON.stringify({ name: 'an-app', version: '1.0.0', lockfileVersion: 3, requires: true, packages: { '': { name: 'an-app', version: '1.0.0', devDependencies }, ...packages } }, null, 2)}\n`,
  )
  // As the docs say, from the app's folder: `npm i -D ./presentation-emulator-<version>.tgz msw` (here both already in the manifest).
  const installed = await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], app)
  if (installed.code !== 0) throw new Error(`npm install --offline failed:\n${installed.stdout}\n${installed.stderr}`)
  expect(`${installed.stdout}${installed.stderr}`).not.toMatch(/EBADENGINE/)
}, 600_000)

afterAll(async () => {
  await work?.remove()
  // npx keeps what `-p ./<tarball>` installed under the npm cache's _npx, one folder per tarball path: drop ours.
  const npxCache = join(process.env.npm_config_cache ?? join(homedir(), '.npm'), '_npx')
  for (const name of await readdir(npxCache).catch(() => [] as string[])) {
    const manifest = await readFile(join(npxCache, name, 'package.json'), 'utf8').catch(() => '')
    if (work !== undefined && manifest.includes(work.path)) await rm(join(npxCache, name), { recursive: true, force: true })
  }
})

describe('the packed package, installed offline in an empty app', () => {
  it('runs both bins from the app: --help through node_modules/.bin and npx --no-install', async () => {
    const emulator = await ok('npx', ['--no-install', 'presentation-emulator', '--help'], app)
    expect(emulator).toMatch(/presentation-emulator/)
    expect(emulator).toMatch(/--port/)
    const kit = await ok(join(app, 'node_modules', '.bin', 'presentation-conformance'), ['--help'], app)
    expect(kit).toMatch(/--base-url/)
    expect(await ok('npx', ['--no-install', 'presentation-conformance', '--help'], app)).toBe(kit)
  }, 120_000)

  it('starts the MCP server from the documented host entry (node, the installed bin, mcp) in another folder', async () => {
    // docs/guides/mcp.md: hosts start servers from their own working directory, so the entry names the bin by its path.
    const { Client } = await import('@modelcontextprotocol/client')
    const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio')
    const entry = { command: 'node', args: [join(app, 'node_modules', 'presentation-emulator', 'bin', 'presentation-emulator.js'), 'mcp'] }
    const transport = new StdioClientTransport({ ...entry, cwd: work.path, env: { PATH: process.env.PATH ?? '' }, stderr: 'ignore' })
    const client = new Client({ name: 'a-host', version: '1.0.0' })
    await client.connect(transport)
    try {
      const { tools } = await client.listTools()
      expect(tools.map((tool) => tool.name)).toContain('listProjects')
      const projects = await client.callTool({ name: 'listProjects', arguments: { limit: '1' } })
      expect(projects.isError).toBeUndefined()
      expect(projects.structuredContent).toMatchObject({ projects: [expect.objectContaining({ slug: expect.any(String) })] })
    } finally {
      await client.close()
    }
  }, 120_000)

  it('runs npx -p ./<tarball> presentation-conformance from the folder that holds the tarball', async () => {
    // npx builds its own tree without a lockfile, so it needs zod's registry metadata, which `npm ci` does
    // not cache: read from the cache when there, else from the registry (msw is an optional peer: not fetched).
    const kit = await ok('npx', ['--prefer-offline', '--yes', '-p', `./${tarball}`, 'presentation-conformance', '--help'], work.path)
    expect(kit).toMatch(/--base-url/)
  }, 300_000)

  it('answers the API in-process, serves msw handlers with the app’s own msw, and runs the kit, all from the installed copy', async () => {
    const script = `
      import { createRequire } from 'node:module'
      import { createEmulator } from 'presentation-emulator'
      import { runConformance } from 'presentation-emulator/conformance'
      import { setupServer } from 'msw/node'
      const require = createRequire(import.meta.url)
      const emulator = createEmulator({ baseUrl: 'https://api.presentation.example/v1', clock: 'manual' })
      const res = await emulator.fetch('https://api.presentation.example/v1/teams', { headers: { authorization: 'Bearer pres_test_alice_acme' } })
      const teams = (await res.json()).teams.map((team) => team.slug)
      const server = setupServer(...emulator.handlers)
      server.listen({ onUnhandledRequest: 'error' })
      const viaMsw = await (await fetch('https://api.presentation.example/v1/teams', { headers: { authorization: 'Bearer pres_test_alice_acme' } })).json()
      server.close()
      await emulator.close()
      const report = await runConformance({ grep: /^(teams|auth)\\./ })
      console.log(JSON.stringify({
        status: res.status,
        teams,
        viaMsw: viaMsw.teams.length,
        emulator: require.resolve('presentation-emulator'),
        msw: import.meta.resolve('msw'),
        summary: report.summary,
        failures: report.scenarios.flatMap((s) => s.failures.map((f) => s.id + ': ' + f.message)),
      }))
    `
    await writeFile(join(app, 'check.mjs'), script)
    const out = JSON.parse(await ok(process.execPath, ['check.mjs'], app)) as {
      status: number
      teams: string[]
      viaMsw: number
      emulator: string
      msw: string
      summary: { passed: number; failed: number; total: number }
      failures: string[]
    }
    expect(out.status).toBe(200)
    expect(out.teams.length).toBeGreaterThan(0)
    expect(out.viaMsw).toBe(out.teams.length)
    // Both come from the app's node_modules, not from this repository.
    expect(out.emulator.startsWith(join(app, 'node_modules', 'presentation-emulator'))).toBe(true)
    expect(out.msw).toContain(`${app}/node_modules/msw/`)
    expect(out.failures).toEqual([])
    expect(out.summary.failed).toBe(0)
    expect(out.summary.passed).toBeGreaterThan(0)
  }, 300_000)
})
