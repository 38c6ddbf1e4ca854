/**
 * Clients that code generators nobody here wrote make from the OpenAPI
 * document work against the emulator: openapi-typescript + openapi-fetch,
 * @hey-api/openapi-ts (its fetch client) and orval (its fetch client). Each
 * is generated once, the consumers in `clients/` are compiled with them in
 * one TypeScript program under `strict`, then each consumer runs: a
 * palette-only tokens update, a failed job's `error` read as a string, a
 * body over 1 MiB answered with the document's 413.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createClient as heyApi } from '@hey-api/openapi-ts'
import openapiTS, { astToString } from 'openapi-typescript'
import { generate as orval } from 'orval'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEmulator, type PresentationEmulator } from '../../src/index.js'
import type { Observed, Target } from './clients/consumer.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
const documentPath = `${root}reference/openapi.json`

/** The compiler options of an app that uses these generators: strict, bundler resolution (orval writes extensionless imports). */
const COMPILER_OPTIONS = {
  strict: true,
  target: 'ES2022',
  module: 'ESNext',
  moduleResolution: 'Bundler',
  lib: ['ES2023', 'DOM', 'DOM.Iterable'],
  types: [],
  skipLibCheck: true,
  noEmit: true,
}

const CONSUMERS = ['openapi-fetch', 'hey-api', 'orval'] as const

let dir: string
let emulator: PresentationEmulator
let diagnostics: string[]

beforeAll(async () => {
  // Under the repository (ignored by git), so the consumers resolve openapi-fetch from its node_modules.
  mkdirSync(`${root}test-output`, { recursive: true })
  dir = mkdtempSync(join(root, 'test-output', 'openapi-clients-'))
  cpSync(fileURLToPath(new URL('./clients', import.meta.url)), dir, { recursive: true })
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: COMPILER_OPTIONS, include: ['*.ts'] }, null, 2))
  const generated = join(dir, 'generated')

  await Promise.all([
    (async () => {
      const ast = await openapiTS(new URL(`file://${documentPath}`))
      mkdirSync(join(generated, 'openapi-typescript'), { recursive: true })
      writeFileSync(join(generated, 'openapi-typescript', 'schema.ts'), astToString(ast))
    })(),
    heyApi({
      input: documentPath,
      output: join(generated, 'hey-api'),
      plugins: ['@hey-api/client-fetch'],
      logs: { level: 'silent', file: false },
    }),
    orval(
      {
        input: { target: documentPath },
        output: {
          target: join(generated, 'orval', 'client.ts'),
          client: 'fetch',
          mode: 'single',
          override: { mutator: { path: join(dir, 'orval-fetch.ts'), name: 'emulatorFetch' } },
        },
      },
      dir,
    ),
  ])

  // One program: the three consumers and the clients they import.
  const config = ts.parseJsonConfigFileContent({ compilerOptions: COMPILER_OPTIONS, include: ['*.ts'] }, ts.sys, dir)
  const program = ts.createProgram(config.fileNames, config.options)
  diagnostics = ts
    .getPreEmitDiagnostics(program)
    .map((d) => ts.formatDiagnostic(d, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => dir, getNewLine: () => '\n' }))

  // Time scale 0: a job ends at once, so a consumer's first poll sees it failed.
  emulator = createEmulator({ timeScale: 0 })
}, 120_000)

afterAll(async () => {
  await emulator?.close()
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
})

/** A fresh account per consumer: its own key, credits and rate-limit bucket. */
async function targetFor(name: string, fetch: typeof globalThis.fetch, baseUrl = 'http://127.0.0.1:4010/v1'): Promise<Target> {
  const account = await emulator.control.createAccount({ name, credits: 2 })
  return { baseUrl, apiKey: account.apiKey, fetch }
}

describe('clients generated from the OpenAPI document', () => {
  it('compile under strict with their consumers', () => {
    expect(diagnostics).toEqual([])
  })

  it.each(CONSUMERS)('%s: a palette-only tokens update, a failed job’s error as a string, a typed 413', async (name) => {
    const { run } = (await import(join(dir, `${name}.ts`))) as { run(target: Target): Promise<Observed> }
    let target: Target
    let server: Awaited<ReturnType<PresentationEmulator['listen']>> | undefined
    if (name === 'orval') {
      // orval's functions call the global fetch: this one goes over a socket.
      server = await emulator.listen({ port: 0 })
      target = await targetFor(name, globalThis.fetch, `${server.origin}/v1`)
    } else {
      target = await targetFor(name, emulator.fetch as typeof globalThis.fetch)
    }
    try {
      const observed = await run(target)
      expect(observed).toEqual({
        tokensStatus: 200,
        palette: [{ name: '--brand', value: '#1d4ed8' }],
        // Left out of the request, filled in by the emulator.
        fonts: [],
        jobStatus: 'failed',
        jobError: expect.stringMatching(/\S/),
        tooLargeStatus: 413,
        tooLargeError: 'Request body too large',
      })
    } finally {
      await server?.close()
    }
  })
})
