/**
 * The reference the package ships (reference/api.md) and the `ref` every
 * finding carries into it: the file is current with its generator, every
 * clause the kit names has a section there, every reporter prints the ref
 * beside the unchanged clause, and a baseline written before refs existed
 * still loads.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { XMLParser } from 'fast-xml-parser'
import { describe, expect, it } from 'vitest'
import { FACTS, main, type Report, SPEC_ITEMS } from '../../conformance/index.js'
import { CONTENTS_ANCHOR, REFERENCE_CLAUSES, REFERENCE_PATH, refOf } from '../../conformance/reference.js'
import { referenceMarkdown } from '../../scripts/reference.js'
import { ROOT } from '../support/cli.js'
import { brokenEmulator, DEFECTS } from './variants.js'

const text = readFileSync(join(ROOT, REFERENCE_PATH), 'utf8')
const anchors = [...text.matchAll(/<a id="([^"]+)"><\/a>/g)].map((m) => m[1]!)

/** The anchor a ref points at, after checking it names the shipped file. */
function anchorOfRef(ref: string): string {
  const [path, anchor] = ref.split('#')
  expect(path).toBe(REFERENCE_PATH)
  return anchor!
}

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = ''
  let err = ''
  const code = await main(['node', 'presentation-conformance', ...args], { out: (t) => void (out += t), err: (t) => void (err += t) })
  return { code, out, err }
}

describe('the shipped reference', () => {
  it('is current with its generator (npm run reference) and shipped in the package', () => {
    expect(text).toBe(referenceMarkdown())
    const files = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] }).files
    expect(files).toContain('reference')
  })

  it('has unique anchors, and every relative link in it resolves', () => {
    expect(new Set(anchors).size).toBe(anchors.length)
    const links = [...text.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]!)
    expect(links.length).toBeGreaterThan(40)
    expect(links.filter((link) => !anchors.includes(link))).toEqual([])
  })

  it('has a section for every clause the kit names, a rule for every checkable item and every fact', () => {
    const sections = new Set(REFERENCE_CLAUSES.map((clause) => anchorOfRef(refOf(clause))))
    for (const anchor of sections) expect(anchors).toContain(anchor)
    // Items and facts are filed under their own heading, never the contents.
    for (const clause of [...SPEC_ITEMS.map((i) => i.section), ...FACTS.flatMap((f) => (f.basis === 'spec' ? [f.clause] : []))])
      expect(anchorOfRef(refOf(clause)), clause).not.toBe(CONTENTS_ANCHOR)
    for (const item of SPEC_ITEMS) expect(text).toContain(`\`${item.id}\`: `)
    for (const fact of FACTS) if (fact.basis === 'spec') expect(text).toContain(`\`${fact.id}\` (${fact.level}`)
    // A rule without a spec heading is an emulator choice, never checked against a deployment.
    expect(text).toMatch(/## <a id="emulator-contract-4-choices-for-not-shown-items"><\/a>.*\n\nAn \*\*emulator choice\*\*/)
  })

  it('points an unknown heading at its nearest known parent, else at the contents', () => {
    expect(refOf('Limits › cursor pagination')).toBe(`${REFERENCE_PATH}#limits-cursor-pagination`)
    expect(refOf('Limits › a row added later')).toBe(`${REFERENCE_PATH}#limits`)
    expect(refOf('Something else')).toBe(`${REFERENCE_PATH}#${CONTENTS_ANCHOR}`)
  })
})

describe('a finding’s ref', () => {
  it('is printed by every reporter beside the clause, and a baseline written before refs existed still loads', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pe-reference-'))
    const broken = await brokenEmulator(DEFECTS.find((d) => d.scenario === 'config.merge')!).listen({ port: 0 })
    const target = [
      '--base-url',
      `${broken.origin}/v1`,
      '--control-url',
      `${broken.origin}/_emulator`,
      '--no-emulator-checks',
      '--allow-writes',
    ]
    try {
      const json = await cli(...target, '--grep', '^config\\.merge$', '--reporter', 'json', '--seed', '1')
      expect(json.code).toBe(1)
      const report = JSON.parse(json.out) as Report
      const findings = report.scenarios.flatMap((s) => s.failures)
      expect(findings.length).toBeGreaterThan(0)
      for (const finding of findings) {
        expect(finding.clause).toBe('Endpoints › Projects › PUT /projects/{slug}/config (updateProjectConfig)')
        expect(finding.ref).toBe(`${REFERENCE_PATH}#endpoints-projects-put-projects-slug-config-updateprojectconfig`)
        expect(anchors).toContain(anchorOfRef(finding.ref))
      }
      const human = await cli(...target, '--grep', '^config\\.merge$', '--seed', '1')
      expect(human.out).toContain(`see:      ${findings[0]!.ref}`)
      const junit = await cli(...target, '--grep', '^config\\.merge$', '--reporter', 'junit', '--seed', '1')
      const xml = new XMLParser({ ignoreAttributes: false }).parse(junit.out)
      // The report opens with its distinct problems as a suite of their own; the scenario's suite holds its test case.
      const suites = [xml.testsuites.testsuite].flat() as Array<{ testcase: { failure?: unknown } | Array<{ failure?: unknown }> }>
      const failure = suites.flatMap((suite) => [suite.testcase].flat()).find((testcase) => testcase.failure !== undefined)!.failure as any
      expect(failure['@_message']).toContain(findings[0]!.ref)
      expect(failure['#text']).toContain(`see:      ${findings[0]!.ref}`)
      // A baseline as the kit wrote it before findings had a ref: clauses only.
      const baseline = join(dir, 'old-baseline.json')
      writeFileSync(
        baseline,
        JSON.stringify({
          format: 'presentation-conformance/baseline@1',
          expectedFailures: { 'config.merge': { clauses: ['Endpoints › Projects › PUT /projects/{slug}/config (updateProjectConfig)'] } },
        }),
      )
      const listed = await cli(...target, '--grep', '^config\\.merge$', '--expected-failures', baseline, '--seed', '1')
      expect(listed.code).toBe(0)
      expect(listed.out).toContain('○ config.merge')
    } finally {
      await broken.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
