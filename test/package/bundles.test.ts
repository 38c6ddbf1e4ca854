import { execFileSync } from 'node:child_process'
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import { createEmulator } from '../../src/index.js'
import { ensureBuilt, ROOT } from '../support/cli.js'

/** Every file a bundle loads before its code runs: its static imports, followed transitively. */
function staticGraph(entry: string): string[] {
  const seen = new Set<string>()
  const visit = (file: string) => {
    if (seen.has(file)) return
    seen.add(file)
    const code = readFileSync(file, 'utf8')
    for (const match of code.matchAll(/(?:^|[;\n}])\s*(?:import|export)\s*(?:[\w*{}\s,$]+from\s*)?["']([^"']+)["']/g)) {
      const specifier = match[1]!
      if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier))
      else seen.add(specifier)
    }
  }
  visit(entry)
  return [...seen]
}

/**
 * Code that no API answer needs, each found by a name or text only it has
 * (the bundles keep their names). Chunk file names are hashes, so a module
 * pulled into a shared chunk by one stray static import shows only here.
 */
const LAZY_CODE: Record<string, RegExp> = {
  "Babel's parser": /\bExpressionParser\d*=class\b/,
  'jsonc-parser': /\bfunction printParseErrorCode\d*\(/,
  faker: /\bFakerLocaleProxy\b/,
  'the pages (editor, sites, viewer)': /\bfunction (?:handlePage|editorPage|sitePage)\d*\(/,
  'the dashboard': /\bfunction dashboardPage\d*\(/,
  'the control plane over HTTP': /\bControlDispatcher\d*=class\b/,
  "the pages' stylesheet and scripts": /\bPAGES_CSS\d*=|\bDASHBOARD_JS\d*=/,
  'colord (its names plugin)': /\baliceblue\b/,
}

/** The names of `LAZY_CODE` whose marker occurs in `files`. */
function lazyCodeIn(files: string[]): string[] {
  const text = files
    .filter((file) => file.startsWith('/'))
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n')
  return Object.entries(LAZY_CODE)
    .filter(([, marker]) => marker.test(text))
    .map(([name]) => name)
}

/** Every `.js` file of a bundle folder, its chunks included. */
function bundleFiles(dir: string): string[] {
  const files = (folder: string) =>
    readdirSync(folder)
      .filter((name) => name.endsWith('.js'))
      .map((name) => join(folder, name))
  return [...files(dir), ...files(join(dir, 'chunks'))]
}

describe('the built package', () => {
  beforeAll(ensureBuilt)

  it('loads the parsers, faker, the pages, the dashboard and their assets only on first use, in Node, in a browser and in the CLI', () => {
    // Each marker is real: the code it names is in every bundle folder, in a lazy chunk.
    for (const dir of ['dist/node', 'dist/browser', 'dist/cli']) {
      expect(lazyCodeIn(bundleFiles(join(ROOT, dir))).sort(), dir).toEqual(Object.keys(LAZY_CODE).sort())
    }
    // None of it is in what an entry loads before its code runs, nor in what the CLI loads to serve.
    const cliServe = readdirSync(join(ROOT, 'dist/cli/chunks')).filter((name) => /^serve-modules-\w+\.js$/.test(name))
    expect(cliServe).toHaveLength(1)
    for (const entry of ['dist/node/index.js', 'dist/browser/browser.js', 'dist/cli/cli.js', `dist/cli/chunks/${cliServe[0]}`]) {
      expect(lazyCodeIn(staticGraph(join(ROOT, entry))), entry).toEqual([])
    }
  })

  it('loads neither faker nor the slide parsers before they are needed, in Node or in a browser', () => {
    for (const entry of ['dist/node/index.js', 'dist/browser/browser.js']) {
      const graph = staticGraph(join(ROOT, entry))
      expect(
        graph.some((file) => /faker|slide-validation/.test(file)),
        entry,
      ).toBe(false)
      expect(graph.filter((file) => !file.startsWith('/')).sort(), entry).toEqual(
        entry.includes('browser') ? ['msw', 'zod'] : ['node:fs', 'node:module', 'zod'],
      )
    }
    const all = readFileSync(join(ROOT, 'dist/node/index.js'), 'utf8')
    expect(all).not.toMatch(/from ["']@faker-js|from ["']@babel/)
  })

  it('a browser loads its entry and one chunk of its own before its first answer, besides the chunks ./schemas and ./client share', () => {
    // Each file is a request: ten small chunks (modules the lazy parts share with the start, split by
    // which lazy parts share them) cost Chromium 50 to 100 ms more than two files. The build makes the
    // lazy parts import the start, so all of it is one chunk.
    const local = (entry: string) => staticGraph(join(ROOT, entry)).filter((file) => file.startsWith('/'))
    const shared = new Set([...local('dist/browser/schemas.js'), ...local('dist/browser/client.js')])
    const own = local('dist/browser/browser.js').filter((file) => !shared.has(file))
    expect(own.map((file) => file.slice(ROOT.length))).toEqual([
      'dist/browser/browser.js',
      expect.stringMatching(/^dist\/browser\/chunks\/chunk-\w+\.js$/),
    ])
    expect(local('dist/browser/browser.js').length).toBeLessThanOrEqual(6)
  })

  it("imports and starts without loading Node's fetch implementation, which only emulator.fetch needs", () => {
    const loaded = (snippet: string) =>
      JSON.parse(
        execFileSync(
          process.execPath,
          [
            '--input-type=module',
            '-e',
            `${snippet}; console.log(JSON.stringify(process.moduleLoadList.filter((name) => /undici/.test(name))))`,
          ],
          { cwd: ROOT },
        ).toString(),
      ) as string[]
    expect(loaded("const { createEmulator } = await import('presentation-emulator'); await createEmulator().ready()")).toEqual([])
    expect(
      loaded("const { createEmulator } = await import('presentation-emulator'); await createEmulator().fetch('http://localhost/v1/teams')"),
    ).not.toEqual([])
  })

  it('starts the precomputed default world, identical to the one built from the fixtures', async () => {
    const bundled = (await import(pathToFileURL(join(ROOT, 'dist/node/index.js')).href)) as typeof import('../../src/index.js')
    const fromBundle = bundled.createEmulator({ clock: 'manual' })
    const fromSources = createEmulator({ clock: 'manual' })
    expect(JSON.stringify(await fromBundle.control.getState())).toBe(JSON.stringify(await fromSources.control.getState()))
    // And it behaves the same from there on: a generation job completes with the same content.
    const generate = async (emulator: typeof fromSources) => {
      const headers = { authorization: 'Bearer pres_test_alice_acme' }
      const res = await emulator.fetch('http://127.0.0.1:4010/v1/projects/generate', { method: 'POST', headers, body: '{"prompt":"Same"}' })
      await emulator.control.advanceClock({ ms: 600_000 })
      const { projectSlug } = (await res.json()) as { projectSlug: string }
      return (await emulator.fetch(`http://127.0.0.1:4010/v1/projects/${projectSlug}/slides`, { headers })).text()
    }
    expect(await generate(fromBundle)).toEqual(await generate(fromSources))
    await Promise.all([fromBundle.close(), fromSources.close()])
  })

  it('the Node bundles read the packed default world from the file beside the chunk that reads it, and without it build the same world', async () => {
    const fromSources = createEmulator({ clock: 'manual' })
    const expected = JSON.stringify(await fromSources.control.getState())
    await fromSources.close()
    for (const dir of ['dist/node', 'dist/cli']) {
      const readers = bundleFiles(join(ROOT, dir)).filter((file) => readFileSync(file, 'utf8').includes('default-world.packed'))
      expect(readers, dir).toHaveLength(1)
      const packed = join(dirname(readers[0]!), 'default-world.packed')
      // ASCII only, so it is read as Latin-1 without decoding, and not also inside a chunk.
      expect(readFileSync(packed).every((byte) => byte < 0x80)).toBe(true)
      const text = readFileSync(packed, 'latin1')
      expect(bundleFiles(join(ROOT, dir)).filter((file) => readFileSync(file, 'utf8').includes(text.slice(0, 200)))).toEqual([])
    }
    // A copy of the package without the file (re-bundled by an app's bundler, say) builds the world from the fixtures.
    const copy = mkdtempSync(join(tmpdir(), 'pe-no-world-'))
    try {
      cpSync(join(ROOT, 'dist/node'), join(copy, 'dist/node'), { recursive: true })
      rmSync(join(copy, 'dist/node/chunks/default-world.packed'))
      symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir')
      writeFileSync(join(copy, 'package.json'), '{"type":"module"}')
      const bundled = (await import(pathToFileURL(join(copy, 'dist/node/index.js')).href)) as typeof import('../../src/index.js')
      const emulator = bundled.createEmulator({ clock: 'manual' })
      expect(JSON.stringify(await emulator.control.getState())).toBe(expected)
      await emulator.close()
    } finally {
      rmSync(copy, { recursive: true, force: true })
    }
  })
})
