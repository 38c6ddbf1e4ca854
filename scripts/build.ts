/**
 * Builds the package (`npm run build`):
 *
 * 1. type declarations (`tsc`, declarations only) in `dist/src/`;
 * 2. the default world (built-in fixtures, seed 1), built here once,
 *    checked against the state schema and its integrity rules, and packed;
 * 3. the Node bundles (`dist/node/`: the package entry, `./schemas`,
 *    `./client`, `./vitest` and its global setup, and the conformance kit
 *    with its CLI; `dist/cli/`: the emulator's CLI, zod included) and the
 *    browser bundles (`dist/browser/`: the `browser` entry, `./schemas` and
 *    `./client`), each split so that faker, the slide parsers, the pages,
 *    the dashboard and the control plane's HTTP side are chunks loaded on
 *    first use, and what the start loads is one chunk (see
 *    `lazyModulesShareOneChunk`). The package's own imports are zod (the
 *    schemas' public types) and msw (a peer); the rest is bundled, with only the parts of faker's English locale the content uses
 *    and the default world in place of `src/fixtures/default-world.data.ts`.
 *
 * No source maps: the bundles keep their names and stay readable, and a
 * map of bundled dependencies would be most of the package's weight.
 */
import { execFileSync } from 'node:child_process'
import { rmSync, writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { build, type Plugin } from 'esbuild'
import { faker as englishFaker } from '@faker-js/faker/locale/en'
import { FAKER_MODULES, pickDefinitions } from '../src/content/faker-en.js'
import { buildWorld } from '../src/fixtures/build.js'
import { BUILT_IN_FIXTURES, parseFixtures } from '../src/fixtures/load.js'
import { packWorld, unpackWorld } from '../src/fixtures/packed-world.js'
import { DEFAULT_SEED } from '../src/fixtures/seeded-world.js'
import { describeIssues } from '../src/core/validation.js'
import { TSX_PARSER_PLUGINS } from '../src/model/slide-validation.js'
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

const defaultWorld: Plugin = {
  name: 'default-world',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]fixtures[\\/]default-world\.data\.ts$/ }, () => ({
      contents: `export const PACKED_DEFAULT_WORLD = ${JSON.stringify(packedWorld)}`,
      loader: 'js',
    }))
  },
}

// Only the modules of faker's English definitions that the content draws from.
const definitions = pickDefinitions(englishFaker.rawDefinitions as Record<string, unknown>)
const fakerSubset: Plugin = {
  name: 'faker-english-subset',
  setup(b) {
    b.onResolve({ filter: /^@faker-js\/faker\/locale\/en$/ }, () => ({ path: 'faker-english-subset', namespace: 'faker-subset' }))
    b.onLoad({ filter: /.*/, namespace: 'faker-subset' }, () => ({
      contents: [
        "import { Faker } from '@faker-js/faker'",
        `export const faker = new Faker({ locale: [JSON.parse(${JSON.stringify(JSON.stringify(definitions))})] })`,
      ].join('\n'),
      loader: 'js',
      resolveDir: root,
    }))
  },
}

// Babel's parser mixes a syntax plugin into its parser class only when a
// parse asks for it, from one table of all of them (ESTree, JSX, Flow,
// TypeScript, V8 intrinsics, placeholders). `slide.tsx` is parsed with
// TypeScript and JSX only: the table keeps just those, so the bundles leave
// out the others' code (Flow's is the largest: about 60 KB minified, 14 KB
// gzipped in all). The parser is otherwise Babel's own, messages included.
// The build fails if the table is not found, rather than bundle it whole.
const babelParser = /[\\/]node_modules[\\/]@babel[\\/]parser[\\/]lib[\\/]index\.js$/
const tsxSyntaxOnly: Plugin = {
  name: 'babel-parser-tsx-syntax-only',
  setup(b) {
    b.onLoad({ filter: babelParser }, async (args) => {
      const source = await readFile(args.path, 'utf8')
      const table = /\nconst mixinPlugins = \{\n((?: {2}\w+,?\n)+)\};\n/
      const found = table.exec(source)
      const names = found?.[1]?.split(/[\s,]+/).filter(Boolean) ?? []
      const missing = TSX_PARSER_PLUGINS.filter((name) => !names.includes(name))
      if (found === null || missing.length > 0)
        throw new Error(
          `@babel/parser: its table of syntax plugins (mixinPlugins) was not found${missing.length > 0 ? ` with ${missing.join(', ')}` : ''}; update scripts/build.ts`,
        )
      const kept = names.filter((name) => (TSX_PARSER_PLUGINS as readonly string[]).includes(name))
      return { contents: source.replace(table, `\nconst mixinPlugins = { ${kept.join(', ')} };\n`), loader: 'js' }
    })
  },
}

// faker's Faker class builds every one of its modules (airline, animal,
// book, …) when it is created. The content uses a few (`FAKER_MODULES`);
// the others are left unset in the bundles, so their code is left out
// (about 30 KB minified, 7 KB gzipped). What each kept module draws is
// unchanged: the same code on the same random stream (test/package.test.ts
// compares the bundle's worlds and generated content with the sources'). The
// build fails if the class is not found, or if a kept module is not built.
const fakerDist = /[\\/]node_modules[\\/]@faker-js[\\/]faker[\\/]dist[\\/][^\\/]+\.js$/
const fakerUsedModules: Plugin = {
  name: 'faker-used-modules',
  setup(b) {
    let loaded = false
    let trimmedOnce = false
    b.onEnd(() => ({
      errors:
        loaded && !trimmedOnce
          ? [{ text: '@faker-js/faker: the class that builds its modules was not found; update scripts/build.ts' }]
          : [],
    }))
    b.onLoad({ filter: fakerDist }, async (args) => {
      loaded = true
      const source = await readFile(args.path, 'utf8')
      // The class that builds the locale modules, as class fields: `airline=new X(this);animal=new Y(this);…`.
      const fields = /\bairline=new [\w$]+\(this\);(?:[a-z]+=new [\w$]+\(this\);)+/.exec(source)
      if (fields === null) return undefined
      const moduleField = /\b([a-z]+)=new [\w$]+\(this\);/g
      // Some (number, string, datatype) are built by its base class, SimpleFaker.
      const built = new Set([...source.matchAll(moduleField)].map((match) => match[1]!))
      const missing = FAKER_MODULES.filter((name) => !built.has(name))
      if (missing.length > 0) throw new Error(`@faker-js/faker: no ${missing.join(', ')} module is built; update scripts/build.ts`)
      const kept = new Set<string>(FAKER_MODULES)
      let left = 0
      const trimmed = fields[0].replace(moduleField, (field, name: string) => {
        if (kept.has(name)) return field
        left++
        return `${name}=void 0;`
      })
      if (left < 10) throw new Error(`@faker-js/faker: only ${left} modules were left out; update scripts/build.ts`)
      trimmedOnce = true
      return { contents: source.slice(0, fields.index) + trimmed + source.slice(fields.index + fields[0].length), loader: 'js' }
    })
  },
}

// Every module loaded on first use (the pages, the slide renderer's assets
// and transpiler, the control plane's HTTP side, the slide parsers, faker; in
// Node the server) also imports what the
// entries load at start (the Node server: the emulator's composition root),
// which is always loaded before them. esbuild puts a module in a chunk by the
// set of entries that reach it: without this, each combination of lazy
// modules sharing a few modules with the start made its own small chunk, and
// a browser fetched ten files before its first answer (each a request, and
// 50 to 100 ms more in Chromium than two files). With it, what the start
// loads is one chunk, beside those the other entries (./schemas, ./client)
// share. The imports run nothing new: those modules are evaluated by then.
const lazyModules =
  /[\\/]src[\\/](?:pages[\\/](?:routes|assets|dashboard|security|viewer)|render[\\/](?:documents|transpile)|control[\\/]dispatch|model[\\/]slide-validation|content[\\/]faker-en)\.ts$/
const nodeServer = /[\\/]src[\\/]node[\\/]http-server\.ts$/
const startModules = ['src/presentation-emulator.ts', 'src/exports.ts'].map((path) => `${root}${path}`)
const lazyModulesShareOneChunk: Plugin = {
  name: 'lazy-modules-share-one-chunk',
  setup(b) {
    const appending = (paths: string[]) => async (args: { path: string }) => ({
      contents: `${await readFile(args.path, 'utf8')}\n${paths.map((path) => `import ${JSON.stringify(path)}`).join('\n')}\n`,
      loader: 'ts' as const,
    })
    b.onLoad({ filter: lazyModules }, appending(startModules))
    b.onLoad({ filter: nodeServer }, appending([`${root}src/emulator.ts`]))
  },
}

const common = {
  absWorkingDir: root,
  bundle: true,
  splitting: true,
  format: 'esm',
  target: 'es2022',
  // jsonc-parser's `main` is a UMD build with dynamic requires; its ES module build bundles cleanly.
  mainFields: ['module', 'main'],
  external: ['zod', 'msw', 'msw/*', 'vitest'],
  chunkNames: 'chunks/[name]-[hash]',
  plugins: [defaultWorld, fakerSubset, fakerUsedModules, tsxSyntaxOnly, lazyModulesShareOneChunk],
  legalComments: 'none',
  logLevel: 'warning',
} as const

await build({
  ...common,
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
  // Whitespace and syntax only: names stay, so stack traces stay readable.
  minifyWhitespace: true,
  minifySyntax: true,
  // The kit's CLI bundles commander, a CommonJS package that requires Node built-ins.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
})

// The CLI on its own, with all it imports inside (zod, commander,
// write-file-atomic): its schemas never meet an app's zod, and a few files
// instead of zod's ~80 modules and two CommonJS packages are a good part of
// its start. CommonJS code bundled into an ES module needs `require` and
// `__filename` (write-file-atomic reads it).
await build({
  ...common,
  entryPoints: { cli: 'src/cli/main.ts' },
  outdir: 'dist/cli',
  platform: 'node',
  target: 'node20',
  external: [],
  minifyWhitespace: true,
  minifySyntax: true,
  banner: {
    js: [
      "import { createRequire as __createRequire } from 'node:module';",
      "import { fileURLToPath as __fileURLToPath } from 'node:url';",
      'const require = __createRequire(import.meta.url);',
      'const __filename = __fileURLToPath(import.meta.url);',
      "const __dirname = __fileURLToPath(new URL('.', import.meta.url));",
    ].join(' '),
  },
})

await build({
  ...common,
  entryPoints: { browser: 'src/browser.ts', schemas: 'src/schemas/index.ts', client: 'src/client/index.ts' },
  outdir: 'dist/browser',
  platform: 'browser',
  minifyWhitespace: true,
  minifySyntax: true,
})

// The stamp tests look at to know the build is complete and newer than the sources.
writeFileSync(`${root}dist/.built`, `${new Date().toISOString()}\n`)
