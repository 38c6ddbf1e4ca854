import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import { createEmulator } from '../src/index.js'
import { ensureBuilt, ROOT } from './support/cli.js'

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

describe('the built package', () => {
  beforeAll(ensureBuilt, 180_000)

  it('loads neither faker nor the slide parsers before they are needed, in Node or in a browser', () => {
    for (const entry of ['dist/node/index.js', 'dist/browser/browser.js']) {
      const graph = staticGraph(join(ROOT, entry))
      expect(graph.some((file) => /faker|slide-validation/.test(file)), entry).toBe(false)
      expect(graph.filter((file) => !file.startsWith('/')).sort(), entry).toEqual(
        entry.includes('browser') ? ['msw', 'zod'] : ['node:module', 'zod'],
      )
    }
    const all = readFileSync(join(ROOT, 'dist/node/index.js'), 'utf8')
    expect(all).not.toMatch(/from ["']@faker-js|from ["']@babel/)
  })

  it('starts the precomputed default world, identical to the one built from the fixtures', async () => {
    const bundled = (await import(pathToFileURL(join(ROOT, 'dist/node/index.js')).href)) as typeof import('../src/index.js')
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
})
