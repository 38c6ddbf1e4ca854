import { execFile } from 'node:child_process'
import { mkdtempSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { build } from 'esbuild'
import { describe, expect, it } from 'vitest'
import { HEAVY_MS } from '../support/cli.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
const run = promisify(execFile)

describe('presentation-emulator/client as a package', () => {
  it('has no runtime dependency: a bundle of it holds only its own files, the route table and the version, no zod', async () => {
    const result = await build({
      entryPoints: [join(root, 'src/client/index.ts')],
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'neutral',
      minify: true,
      metafile: true,
      logLevel: 'silent',
    })
    const inputs = Object.keys(result.metafile.inputs)
    expect(inputs.filter((file) => file.includes('node_modules'))).toEqual([])
    expect(
      inputs.filter((file) => !file.startsWith('src/client/') && file !== 'src/schemas/operation-routes.ts' && file !== 'src/version.ts'),
    ).toEqual([])
    // Small: a few kilobytes minified.
    expect(result.outputFiles[0]!.contents.byteLength).toBeLessThan(16 * 1024)
  })

  // A consumer project that depends on presentation-emulator only (not on zod), compiled under
  // `strict` with `skipLibCheck: false`, for each module resolution people use.
  it.each([
    ['bundler', 'ESNext'],
    ['node16', 'node16'],
    ['nodenext', 'nodenext'],
  ])(
    'type-checks in a consumer project with moduleResolution %s',
    async (moduleResolution, module) => {
      const dir = mkdtempSync(join(tmpdir(), 'pe-consumer-'))
      mkdirSync(join(dir, 'node_modules'))
      symlinkSync(root, join(dir, 'node_modules', 'presentation-emulator'), 'dir')
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', type: 'module', private: true }))
      writeFileSync(
        join(dir, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            strict: true,
            skipLibCheck: false,
            noEmit: true,
            target: 'ES2022',
            lib: ['ES2022', 'DOM'],
            module,
            moduleResolution,
            types: [],
          },
          files: ['app.ts'],
        }),
      )
      writeFileSync(
        join(dir, 'app.ts'),
        `import { createClient, paginate, ServiceApiError, type OperationId, type ProjectConfigInput, type ProjectDetail } from 'presentation-emulator/client'
const client = createClient({ baseUrl: 'http://127.0.0.1:4010/v1', apiKey: 'pres_test_alice' })
const config: ProjectConfigInput = { tokens: { palette: [{ name: '--brand', value: '#123' }] } }
const id: OperationId = 'listProjects'
export async function main(): Promise<ProjectDetail> {
  await client.updateProjectConfig('x', { config })
  for await (const page of paginate(client.listProjects, { limit: 10 })) console.log(page.projects.length, id)
  try { await client.listTeams() } catch (e) { if (e instanceof ServiceApiError) console.log(e.status, e.code) }
  return client.getProject('welcome-deck')
}
// @ts-expect-error a typo in a body is caught
export const bad = () => client.renameProject('x', { nam: 'y' })
`,
      )
      const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc')
      const result = await run(process.execPath, [tsc, '-p', dir]).then(
        () => ({ ok: true, output: '' }),
        (error: { stdout: string }) => ({ ok: false, output: error.stdout }),
      )
      expect(result.output).toBe('')
      expect(result.ok).toBe(true)
    },
    HEAVY_MS,
  )
})
