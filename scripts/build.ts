/**
 * Builds the package (`npm run build`):
 *
 * 1. type declarations (`tsc`, declarations only) in `dist/src/`;
 * 2. the default world (built-in fixtures, seed 1), built here once,
 *    checked against the state schema and its integrity rules, and packed;
 * 3. the bundles listed in `BUNDLES`: the Node bundles (`dist/node/`: the
 *    package entry, `./schemas`, `./client`, `./vitest` and its global
 *    setup, and the conformance kit with its CLI), the emulator's CLI
 *    (`dist/cli/`, zod included) and the browser bundles (`dist/browser/`:
 *    the `browser` entry, `./schemas` and `./client`). Each is split so that
 *    the modules in `LAZY_MODULES` (faker, the slide parsers, the pages, the
 *    dashboard, the control plane's HTTP side) are chunks loaded on first
 *    use, and what the start loads is one chunk (see `loadedAfter`). The
 *    package's own imports are zod (the schemas' public types) and msw (a
 *    peer); the rest is bundled as published (no dependency's code is
 *    changed), with the default world in place of
 *    `src/fixtures/default-world.data.ts`.
 *
 * To add an entry, add it to a bundle's `entryPoints`; to add a part loaded
 * on first use, import it dynamically where it is used and add its module
 * to `LAZY_MODULES`.
 *
 * No source maps: the bundles keep their names and stay readable, and a
 * map of bundled dependencies would be most of the package's weight.
 */
import { execFileSync } from 'node:child_process'
import { rmSync, writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { dirname } from 'node:path'
import { type BuildOptions, build, type Plugin } from 'esbuild'
import { buildWorld } from '../src/fixtures/build.js'
import { BUILT_IN_FIXTURES, parseFixtures } from '../src/fixtures/load.js'
import { packWorld, unpackWorld } from '../src/fixtures/packed-world.js'
import { DEFAULT_SEED } from '../src/fixtures/seeded-world.js'
import { describeIssues } from '../src/core/validation.js'
import { integrityProblems } from '../src/store/integrity.js'
import { StateDocument } from '../src/store/world.js'
import { isDeepStrictEqual } from 'node:util'

const root = fileURLToPath(new URL('..', import.meta.url))
const require = createRequire(import.meta.url)

rmSync(`${root}dist`, { recursive: true, force: true })

// 1. Declarations.
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' })

// 2. The default world, validated as a state document would be on import.
const world = await buildWorld(parseFixtures(BUILT_IN_FIXTURES), DEFAULT_SEED)
const doc: unknown = JSON.parse(JSON.stringify(world.toState()))
const parsed = StateDocument.safeParse(doc)
if (!parsed.success) throw new Error(`the default world is not a valid state document: ${describeIssues(parsed.error.issues)}`)
const problems = integrityProblems(parsed.data)
if (problems.length > 0) throw new Error(`the default world is not consistent: ${problems.slice(0, 5).join('; ')}`)
const packedWorld = packWorld(parsed.data)
if (!isDeepStrictEqual(unpackWorld(packedWorld), doc)) throw new Error('the packed default world does not unpack to itself')

/**
 * JSON text with every character past ASCII written as a `\uXXXX` escape: the
 * same value, read as Latin-1 into a one-byte string (no UTF-8 decoding).
 */
const asciiJson = (json: string) => json.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
if (!isDeepStrictEqual(unpackWorld(asciiJson(packedWorld)), doc))
  throw new Error('the ASCII packed default world does not unpack to itself')

/** The file beside a Node bundle's chunk that holds the packed default world. */
const PACKED_WORLD_FILE = 'default-world.packed'

/**
 * Puts the packed default world in place of `default-world.data.ts`. A
 * browser bundle carries it as a string (one download). A Node bundle reads
 * it from `PACKED_WORLD_FILE` beside the chunk that holds the module (the
 * build writes it there): a 218 KB string in the chunk cost every start
 * about 10 ms of scanning and compiling, reading the file a fraction of a
 * millisecond. Where the file cannot be read (the package re-bundled by an
 * app's bundler) the world is built from the fixtures, as in the sources.
 */
const defaultWorld = (platform: BuildOptions['platform']): Plugin => ({
  name: 'default-world',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]fixtures[\\/]default-world\.data\.ts$/ }, () => ({
      contents:
        platform === 'node'
          ? [
              "import { readFileSync } from 'node:fs'",
              'let packed',
              `try { packed = readFileSync(new URL(${JSON.stringify(`./${PACKED_WORLD_FILE}`)}, import.meta.url), 'latin1') } catch {}`,
              'export const PACKED_DEFAULT_WORLD = packed',
            ].join('\n')
          : `export const PACKED_DEFAULT_WORLD = ${JSON.stringify(packedWorld)}`,
      loader: 'js',
    }))
  },
})

/**
 * The modules loaded on first use (each imported dynamically where it is
 * used): the pages, the slide renderer's documents and transpiler, the
 * control plane's HTTP side, the slide parsers, faker.
 * Each becomes its own chunk with what only it imports.
 */
const LAZY_MODULES = [
  'web/pages/page-server.ts',
  'web/dashboard-mount.ts',
  'web/check/index.ts',
  'web/pages/assets.ts',
  'web/pages/dashboard.ts',
  'web/pages/security.ts',
  'web/pages/viewer.ts',
  'web/render/documents.ts',
  'web/render/transpile.ts',
  'src/control/dispatch.ts',
  'src/model/slide-validation.ts',
  'src/content/faker-en.ts',
]

/**
 * What the entries load at start: every lazy module runs after these. The
 * web room's mount rows are the composition roots' (`index.ts`, `browser.ts`),
 * not `create-emulator.ts`'s, so they are named here too.
 */
const START_MODULES = ['src/create-emulator.ts', 'src/shared-exports.ts', 'web/mounts.ts']

/**
 * Modules that, when loaded, always find others already loaded: every lazy
 * module finds the start; so do the Node server (loaded on `listen`) and the
 * state file (loaded by an emulator with `stateFile`), both loaded through
 * the emulator's composition root once the emulator exists.
 */
const LOADED_AFTER: Array<{ modules: string[]; after: string[] }> = [
  { modules: LAZY_MODULES, after: START_MODULES },
  { modules: ['src/node/http-server.ts', 'src/node/state-file.ts'], after: START_MODULES },
]

// esbuild puts a module in a chunk by the set of entries that reach it:
// without this, each combination of lazy modules sharing a few modules with
// the start made its own small chunk, and a browser fetched ten files before
// its first answer (each a request, and 50 to 100 ms more in Chromium than
// two files). Each module of `LOADED_AFTER` also imports the modules it is
// loaded after, so what the start loads is one chunk, beside those the other
// entries (./schemas, ./client) share. The imports run nothing new: those
// modules are evaluated by then.
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
const loadedAfter: Plugin = {
  name: 'loaded-after',
  setup(b) {
    for (const { modules, after } of LOADED_AFTER) {
      const filter = new RegExp(`^${escapeRegExp(root)}(?:${modules.map(escapeRegExp).join('|')})$`)
      const imports = after.map((path) => `import ${JSON.stringify(`${root}${path}`)}`).join('\n')
      b.onLoad({ filter }, async (args) => ({ contents: `${await readFile(args.path, 'utf8')}\n${imports}\n`, loader: 'ts' }))
    }
  },
}

const common: BuildOptions = {
  absWorkingDir: root,
  bundle: true,
  splitting: true,
  format: 'esm',
  target: 'es2022',
  // jsonc-parser's `main` is a UMD build with dynamic requires; its ES module build bundles cleanly.
  mainFields: ['module', 'main'],
  external: ['zod', 'msw', 'msw/*', 'vitest'],
  chunkNames: 'chunks/[name]-[hash]',
  legalComments: 'none',
  logLevel: 'warning',
  // Whitespace and syntax only: names stay, so stack traces stay readable.
  minifyWhitespace: true,
  minifySyntax: true,
}

/** Every bundle the package ships, each one esbuild build on top of `common`. */
const BUNDLES: BuildOptions[] = [
  {
    entryPoints: {
      index: 'src/index.ts',
      schemas: 'src/schemas/index.ts',
      client: 'src/client/index.ts',
      vitest: 'src/vitest/index.ts',
      'vitest-global-setup': 'src/vitest/global-setup.ts',
      // The kit shares its chunks with the package entry it starts emulators through.
      conformance: 'conformance/index.ts',
      'conformance-cli': 'conformance/cli.ts',
    },
    outdir: 'dist/node',
    platform: 'node',
    target: 'node20',
    // The kit's CLI bundles commander, a CommonJS package that requires Node built-ins, and the proxy's
    // recorder write-file-atomic, which reads `__filename` (import.meta.filename: Node >= 20.11, no import).
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url); const __filename = import.meta.filename; const __dirname = import.meta.dirname;",
    },
  },
  // The CLI on its own, with all it imports inside (zod, commander,
  // write-file-atomic): its schemas never meet an app's zod, and a few files
  // instead of zod's ~80 modules and two CommonJS packages are a good part of
  // its start. CommonJS code bundled into an ES module needs `require` and
  // `__filename` (write-file-atomic reads it).
  {
    entryPoints: { cli: 'src/cli/main.ts' },
    outdir: 'dist/cli',
    platform: 'node',
    target: 'node20',
    external: [],
    banner: {
      js: [
        "import { createRequire as __createRequire } from 'node:module';",
        "import { fileURLToPath as __fileURLToPath } from 'node:url';",
        'const require = __createRequire(import.meta.url);',
        'const __filename = __fileURLToPath(import.meta.url);',
        "const __dirname = __fileURLToPath(new URL('.', import.meta.url));",
      ].join(' '),
    },
  },
  {
    entryPoints: { browser: 'src/browser.ts', schemas: 'src/schemas/index.ts', client: 'src/client/index.ts' },
    outdir: 'dist/browser',
    platform: 'browser',
  },
]

for (const bundle of BUNDLES) {
  const { metafile } = await build({ ...common, ...bundle, plugins: [defaultWorld(bundle.platform), loadedAfter], metafile: true })
  if (bundle.platform !== 'node') continue
  // The packed world beside each output that holds its module (one chunk, shared by the entries).
  const holders = Object.entries(metafile.outputs).filter(([, output]) =>
    Object.keys(output.inputs).some((input) => input.endsWith('src/fixtures/default-world.data.ts')),
  )
  if (holders.length === 0) throw new Error(`${bundle.outdir}: no output holds the default world`)
  for (const [output] of holders) writeFileSync(`${root}${dirname(output)}/${PACKED_WORLD_FILE}`, asciiJson(packedWorld))
}

// The stamp tests look at to know the build is complete and newer than the sources.
writeFileSync(`${root}dist/.built`, `${new Date().toISOString()}\n`)
