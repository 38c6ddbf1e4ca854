/**
 * Keys, never leaked, always usable (issue 36): no format of a run holds a
 * key the run used or the admin token; the curls read `$PRESENTATION_API_KEY`
 * and name the key they need; `--write-keys` exports the keys the kit made;
 * with `--control-url` and `--api-key`, the user's key is the main key.
 */
import { mkdtempSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main, runConformance, type Report } from '../../conformance/index.js'
import type { RunKey } from '../../conformance/context.js'
import { scrubSecrets } from '../../conformance/curl.js'
import { humanReport } from '../../conformance/report/human.js'
import { junitXml } from '../../conformance/report/junit.js'
import { markdownReport } from '../../conformance/report/markdown.js'
import { sarifReport } from '../../conformance/report/sarif.js'
import { createHookedEmulator } from '../support/hooked-emulator.js'
import { fiveDefectHooks } from './five-defects.js'

const ADMIN = 'admin-token-s3cr3t-4f9a'
const MAIN = 'pres_test_alice_acme'

/** Every format the suite writes, for one report. */
async function everyFormat(report: Report): Promise<Record<string, string>> {
  return {
    sarif: await sarifReport(report),
    sarifLinked: await sarifReport(report, { referenceUrl: 'https://example.com/reference/' }),
    human: humanReport(report),
    verbose: humanReport(report, { verbose: true }),
    json: JSON.stringify(report, null, 2),
    junit: junitXml(report),
    markdown: markdownReport(report),
  }
}

describe('keys never leak', () => {
  const server = createHookedEmulator({ clock: 'manual', rateLimit: 50, adminToken: ADMIN, onError: () => undefined }, fiveDefectHooks)
  let report: Report
  let made: RunKey[] = []

  beforeAll(async () => {
    report = await runConformance({
      fetch: server.fetch,
      baseUrl: 'http://127.0.0.1:4010/v1',
      controlUrl: 'http://127.0.0.1:4010/_emulator',
      adminToken: ADMIN,
      apiKey: MAIN,
      allowWrites: true,
      allowGeneration: true,
      seed: 3,
      onKeys: (keys) => {
        made = keys
      },
    })
  }, 120_000)

  it('the user’s --api-key is the main key beside a control plane; the kit makes only the others', () => {
    expect(made.length).toBeGreaterThan(3)
    expect(made.map((k) => k.key)).not.toContain(MAIN)
    const mainFindings = report.scenarios.flatMap((s) => s.failures).filter((f) => f.curl?.includes('$PRESENTATION_API_KEY'))
    expect(mainFindings.length).toBeGreaterThan(0)
    // The curl names the key it needs by its first characters; it is the user's, not one the kit made.
    for (const f of mainFindings) expect(f.exchange?.request.key).toMatch(/^main key \(--api-key\): .*\(pres_\w{0,3}…\)$/)
  })

  it('no format holds a key the run used, a value made from one, or the admin token', async () => {
    const secrets = [MAIN, ADMIN, ...made.map((k) => k.key)]
    const formats = await everyFormat(report)
    expect(Object.keys(formats)).toEqual(['sarif', 'sarifLinked', 'human', 'verbose', 'json', 'junit', 'markdown'])
    for (const [format, text] of Object.entries(formats)) {
      for (const secret of secrets) expect(text.includes(secret), `${format} holds ${secret.slice(0, 6)}…`).toBe(false)
      expect(text, format).not.toMatch(/Bearer (?!<redacted>|\$|\\\$)/)
    }
  })

  it('a key a server echoes in a body is redacted, and so is one with its last character changed', () => {
    const scrubbed = scrubSecrets({ a: [`{"error":"bad key ${MAIN}"}`, `x ${MAIN.slice(0, -1)}Q y`] }, [MAIN])
    expect(scrubbed).toEqual({ a: ['{"error":"bad key <redacted>"}', 'x <redacted> y'] })
  })

  it('the kit’s own keys are named by id and first characters, so --write-keys makes the curls run', () => {
    const madeFindings = report.scenarios.flatMap((s) => s.failures).filter((f) => f.exchange?.request.key?.includes('made by the kit'))
    for (const f of madeFindings) expect(f.exchange!.request.key).toMatch(/: key_\w+ \(\w+…\)$/)
  })
})

describe('--write-keys and the CLI', () => {
  let origin: string
  let close: () => Promise<void>

  beforeAll(async () => {
    const server = await createHookedEmulator({ clock: 'manual', rateLimit: 50, adminToken: ADMIN }, fiveDefectHooks).listen({ port: 0 })
    origin = server.origin
    close = () => server.close()
  })
  afterAll(() => close())

  it('writes the keys the kit made, mode 0600, as export lines; stdout holds none of them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pe-keys-'))
    const file = join(dir, 'keys.sh')
    let out = ''
    let err = ''
    const code = await main(
      [
        'node',
        'presentation-conformance',
        '--base-url',
        `${origin}/v1`,
        '--control-url',
        `${origin}/_emulator`,
        '--admin-token',
        ADMIN,
        '--no-emulator-checks',
        '--allow-writes',
        '--grep',
        '^(isolation|projects\\.not-found)',
        '--write-keys',
        file,
        '--verbose',
      ],
      { out: (t) => void (out += t), err: (t) => void (err += t) },
    )
    expect(code).toBe(1)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    const text = readFileSync(file, 'utf8')
    const exported = [...text.matchAll(/^export (PRESENTATION_KEY_\w+)='([^']+)'$/gm)].map((m) => m[2]!)
    expect(exported.length).toBeGreaterThan(0)
    for (const key of [...exported, ADMIN]) expect(out + err).not.toContain(key)
    // The file names each key as the reports do: the keys behind the printed curls are found by that name.
    const hints = [...text.matchAll(/^# .*: (key_\w+ \(\w+…\)); its curls read \$PRESENTATION_\w+$/gm)].map((m) => m[1]!)
    expect(hints.length).toBe(exported.length)
    const named = [...out.matchAll(/key: {6}.*: (key_\w+ \(\w+…\))$/gm)].map((m) => m[1]!)
    expect(named.length).toBeGreaterThan(0)
    for (const hint of named) expect(hints).toContain(hint)
    expect(out).toContain(`written to ${file} (mode 0600)`)
  })
})
