import { execFile } from 'node:child_process'
import { mkdir, readdir, stat, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, HEAVY_MS, ROOT, tempDir } from '../support/cli.js'

/**
 * The package as a consumer's TypeScript sees it: one export surface per
 * condition, each typed for itself. A browser consumer (the `browser`
 * condition, or the `presentation-emulator/browser` subpath) gets the
 * browser entry's types, which reach nothing of Node; a Node consumer gets
 * `listen` and its server types. Checked with `skipLibCheck: false` under
 * `moduleResolution` `bundler` and `node16`, and against what the built
 * JavaScript really exports.
 */

let consumer: { path: string; remove: () => Promise<void> }
const DIST = join(ROOT, 'dist', 'src')

beforeAll(async () => {
  await ensureBuilt()
  // tsc's output (dist/src/**/*.d.ts) comes from `npm run build`, which `npm test` runs first; build it when run alone.
  if (!(await declarationsAreFresh())) {
    await new Promise<void>((resolve, reject) =>
      execFile(
        process.execPath,
        [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
        { cwd: ROOT },
        (error, stdout) => (error === null ? resolve() : reject(new Error(stdout))),
      ),
    )
  }
  consumer = await tempDir('presentation-emulator-consumer-')
  await writeFile(join(consumer.path, 'package.json'), JSON.stringify({ name: 'a-consumer', private: true, type: 'module' }))
  await mkdir(join(consumer.path, 'node_modules', '@types'), { recursive: true })
  await symlink(ROOT, join(consumer.path, 'node_modules', 'presentation-emulator'), 'dir')
  await symlink(join(ROOT, 'node_modules', 'msw'), join(consumer.path, 'node_modules', 'msw'), 'dir')
  await symlink(join(ROOT, 'node_modules', 'vitest'), join(consumer.path, 'node_modules', 'vitest'), 'dir')
  await symlink(join(ROOT, 'node_modules', '@types', 'node'), join(consumer.path, 'node_modules', '@types', 'node'), 'dir')
})

afterAll(() => consumer?.remove())

async function newest(path: string): Promise<number> {
  const info = await stat(path)
  if (!info.isDirectory()) return path.endsWith('.test.ts') ? 0 : info.mtimeMs
  let latest = 0
  for (const entry of await readdir(path)) latest = Math.max(latest, await newest(join(path, entry)))
  return latest
}

async function declarationsAreFresh(): Promise<boolean> {
  const built = await stat(join(DIST, 'index.d.ts')).then(
    (info) => info.mtimeMs,
    () => 0,
  )
  return built >= (await newest(join(ROOT, 'src')))
}

/** The names a built entry exports at run time: the bundles the package's exports point at. */
async function runtimeExports(file: 'browser.js' | 'index.js'): Promise<string[]> {
  const bundle = file === 'browser.js' ? join(ROOT, 'dist', 'browser', 'browser.js') : join(ROOT, 'dist', 'node', 'index.js')
  return Object.keys(await import(bundle)).sort()
}

/** The value (non-type) names a declaration file exports, as TypeScript sees them. */
function declaredValueExports(file: string): string[] {
  const program = ts.createProgram([join(DIST, file)], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    noEmit: true,
  })
  const checker = program.getTypeChecker()
  const source = program.getSourceFile(join(DIST, file))!
  const symbol = checker.getSymbolAtLocation(source)!
  return checker
    .getExportsOfModule(symbol)
    .filter((exported) => {
      const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported
      return (target.flags & ts.SymbolFlags.Value) !== 0
    })
    .map((exported) => exported.name)
    .sort()
}

describe('export surfaces', () => {
  it('the browser entry exports at run time exactly what its types declare, and the same names as the Node entry', async () => {
    const browser = await runtimeExports('browser.js')
    expect(declaredValueExports('browser.d.ts')).toEqual(browser)
    expect(declaredValueExports('index.d.ts')).toEqual(await runtimeExports('index.js'))
    expect(browser).toEqual(await runtimeExports('index.js'))
    expect(browser).toEqual(expect.arrayContaining(['createEmulator', 'ControlPlane', 'FixturesDocument', 'StateDocument', 'STATE_FORMAT']))
  })
})

const BROWSER_SOURCE = (specifier: string) => `
import { ControlPlane, createEmulator, FixturesDocument, STATE_FORMAT, StateDocument, type PresentationEmulator, type JournalEntry } from '${specifier}'
import { setupWorker } from 'msw/browser'

const emulator: PresentationEmulator = createEmulator({ baseUrl: location.origin + '/api/v1', persist: 'sessionStorage' })
export const worker = setupWorker(...emulator.handlers)
export const format: string = STATE_FORMAT
export const plane: ControlPlane = emulator.control
export const schemas = [FixturesDocument, StateDocument]
export async function lastRequest(): Promise<JournalEntry> {
  return emulator.control.waitForRequest({ operationId: 'listProjects' }, { timeoutMs: 100 })
}
// @ts-expect-error listen() is Node's: the browser entry's object has none
emulator.listen
// @ts-expect-error the Node server's types (which need node:http) do not reach a browser consumer
export type Unreachable = import('${specifier}').RunningServer
`

const NODE_SOURCE = `
import { createEmulator, STATE_FORMAT, type RunningServer } from 'presentation-emulator'
import { workerAccount, type EmulatorAccount } from 'presentation-emulator/vitest'
import setup, { emulatorGlobalSetup } from 'presentation-emulator/vitest/global-setup'
import { setupServer } from 'msw/node'
import { expect } from 'vitest'

const emulator = createEmulator({ rateLimit: 50 })
export const server: Promise<RunningServer> = emulator.listen({ port: 0 })
export const http = server.then((running) => running.server.address())
export const mocks = setupServer(...emulator.handlers)
export const account: Promise<EmulatorAccount> = workerAccount()
export const setups = [setup, emulatorGlobalSetup({ clock: 'real' })]
export const format: string = STATE_FORMAT
// The slide-check matcher, typed by importing the helpers.
export const renders: Promise<void> = expect(emulator).toRenderSlides('welcome-deck', { slideIds: ['sld_1'], budgetMs: 30_000 })
export const broken: Promise<void> = expect(emulator).not.toRenderSlides('welcome-deck')
// @ts-expect-error a slug is a string
expect(emulator).toRenderSlides(42)
`

/** Writes a consumer project and type-checks it with tsc; answers tsc's output ('' when clean). */
async function typecheck(name: string, source: string, compilerOptions: Record<string, unknown>): Promise<string> {
  const dir = join(consumer.path, name)
  await mkdir(dir, { recursive: true })
  await writeFile(join(dir, 'main.ts'), source)
  await writeFile(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { target: 'ES2022', strict: true, skipLibCheck: false, noEmit: true, ...compilerOptions },
      files: ['main.ts'],
    }),
  )
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir],
      { cwd: consumer.path },
      (error, stdout) => resolve(error === null ? '' : stdout),
    )
  })
}

const BROWSER_OPTIONS = { lib: ['ES2022', 'DOM', 'DOM.Iterable'], types: [] }
// msw's own declarations need the DOM library in Node too (as msw documents).
const NODE_OPTIONS = { lib: ['ES2022', 'DOM', 'DOM.Iterable'], types: ['node'] }

// Each compile checks every declaration it reaches (zod's, msw's…): about 5 s of CPU, so four, one at a time.
describe('a consumer compile with skipLibCheck: false', () => {
  it.for([
    ['browser-bundler-subpath', 'presentation-emulator/browser', { ...BROWSER_OPTIONS, module: 'ESNext', moduleResolution: 'bundler' }],
    [
      'browser-node16-condition',
      'presentation-emulator',
      { ...BROWSER_OPTIONS, module: 'node16', moduleResolution: 'node16', customConditions: ['browser'] },
    ],
  ] as const)(
    'type-checks a browser app without Node types, and no Node declaration reaches it (%s)',
    { timeout: HEAVY_MS },
    async ([name, specifier, options]) => {
      expect(await typecheck(name, BROWSER_SOURCE(specifier), options)).toBe('')
    },
  )

  it.for([
    ['node-bundler', { ...NODE_OPTIONS, module: 'ESNext', moduleResolution: 'bundler' }],
    ['node-node16', { ...NODE_OPTIONS, module: 'node16', moduleResolution: 'node16' }],
  ] as const)(
    'type-checks a Node consumer with listen, msw/node and the vitest helpers (%s)',
    { timeout: HEAVY_MS },
    async ([name, options]) => {
      expect(await typecheck(name, NODE_SOURCE, options)).toBe('')
    },
  )
})
