import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { type AddressInfo, createServer } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect } from 'vitest'
import type { DeckCheckResult } from '../../src/model/slide-checks.js'
import { ensureBuilt, HEAVY_MS, it, killAll, tempDir } from '../support/cli.js'

/**
 * `presentation-emulator check`, run as a user runs it (issue 32): on a
 * tree of slide folders on disk, and on a project of a running emulator
 * (another CLI process on a free port). Each check renders in the CLI's own
 * process tree (the slide checker's engine), so these tests are few and
 * each asserts much.
 */

let root: { path: string; remove: () => Promise<void> }
/** The deck on disk: one folder per outcome. */
let deck: string

/** Writes `files` (name → text) into the folder `dir` below the deck. */
async function slideFolder(dir: string, files: Record<string, string>): Promise<void> {
  await mkdir(join(deck, dir), { recursive: true })
  for (const [name, text] of Object.entries(files)) await writeFile(join(deck, dir, name), text)
}

const GOOD = {
  'slide.tsx': [
    'import content from "./slide.content.json";',
    '',
    'export default function Slide({ accent }: { accent: string }) {',
    '  return <section><h1 style={{ color: accent }}>{content.title}</h1><p>Ship it</p></section>;',
    '}',
    '',
  ].join('\n'),
  'slide.content.json': '{"title": "Welcome"}\n',
  'slide.controls.json': '{"controls": [{"id": "accent", "type": "color", "label": "Accent", "default": "#1d4ed8"}]}\n',
}
const THROWS = 'export default function Slide() {\n  const items: string[] = [];\n  throw new Error("no items: " + items.length);\n}\n'
const LEFT_PAD = 'import pad from "left-pad";\n\nexport default function Slide() {\n  return <p>{pad("a", 3)}</p>;\n}\n'
const LOOPS = 'export default function Slide() {\n  while (true) {}\n}\n'
const LARGE = 'export default function Slide() {\n  return <p>{"x".repeat(2_000_000)}</p>;\n}\n'

beforeAll(async () => {
  await ensureBuilt()
  root = await tempDir('presentation-emulator-check-')
  deck = join(root.path, 'slides')
  await slideFolder('01-good', GOOD)
  await slideFolder('02-throws', { 'slide.tsx': THROWS })
  await slideFolder('03-left-pad', { 'slide.tsx': LEFT_PAD })
  await slideFolder('04-loops', { 'slide.tsx': LOOPS })
  await slideFolder('05-large', { 'slide.tsx': LARGE })
  // A trailing comma: PUT would refuse it, at the closing brace.
  await slideFolder('06-bad-json', { 'slide.tsx': GOOD['slide.tsx'], 'slide.content.json': '{\n  "title": "Hi",\n}\n' })
  await slideFolder('07-no-tsx', { 'slide.content.json': '{"title": "Orphan"}\n' })
  // Not a slide: no slide file in it, nor in a hidden folder.
  await mkdir(join(deck, 'assets'), { recursive: true })
  await writeFile(join(deck, 'assets', 'notes.md'), '# notes\n')
  await slideFolder('.hidden/08-skipped', { 'slide.tsx': THROWS })
})

afterAll(async () => {
  await killAll()
  await root?.remove()
})

/** The JSON report of a run that wrote it to stdout. */
const parsed = (stdout: string) => JSON.parse(stdout) as DeckCheckResult

describe('check on slide folders', () => {
  it(
    'checks every slide folder in path order and reports each outcome with its file, line and column as JSON; exit 1',
    async ({ cli }) => {
      const result = await cli.run(['check', deck, '--reporter', 'json'])
      expect(result.code, result.stderr).toBe(1)
      const report = parsed(result.stdout)
      expect(report).toMatchObject({ project: deck, rendered: 1, failed: 6 })
      expect(report.slides.map(({ slideId, position, status }) => [position, slideId, status])).toEqual([
        [1, '01-good', 'rendered'],
        [2, '02-throws', 'error'],
        [3, '03-left-pad', 'error'],
        [4, '04-loops', 'timeout'],
        [5, '05-large', 'too-large'],
        [6, '06-bad-json', 'error'],
        [7, '07-no-tsx', 'error'],
      ])
      const [good, throws, leftPad, loops, large, badJson, noTsx] = report.slides
      expect(good).toEqual({ slideId: '01-good', position: 1, status: 'rendered', text: 'Welcome Ship it', elements: 3, notes: [] })
      expect(throws).toMatchObject({
        error: { kind: 'runtime', file: 'slide.tsx', line: 3, message: 'no items: 0' },
        text: '',
        elements: 0,
      })
      expect(throws?.error?.column).toBeGreaterThan(0)
      expect(leftPad).toMatchObject({ error: { kind: 'import', file: 'slide.tsx', line: 1, column: 1 } })
      expect(leftPad?.error?.message).toContain('"left-pad"')
      expect(loops).toMatchObject({ error: { kind: 'timeout', file: 'slide.tsx' } })
      expect(large).toMatchObject({ error: { kind: 'too-large', file: 'slide.tsx' } })
      expect(large?.error?.message).toContain('1,000,000')
      expect(badJson).toMatchObject({ error: { kind: 'source', file: 'slide.content.json', line: 3, column: 1 } })
      expect(badJson?.error?.message).toContain('trailing comma')
      expect(noTsx).toMatchObject({ error: { kind: 'source', file: 'slide.tsx' } })
      expect(noTsx?.error?.message).toContain('has no slide.tsx')
      // The JSON owns stdout; stderr has the summary only (not a terminal: no progress).
      expect(result.stderr).toBe(`1 rendered, 6 failed, of 7 slides in ${deck}\n`)
    },
    HEAVY_MS,
  )

  it(
    'prints the human report and writes JUnit XML to a file: a testcase per slide, a failure at file:line:column',
    async ({ cli }) => {
      const file = join(root.path, 'check.xml')
      const result = await cli.run(['check', deck, '--reporter', `junit=${file}`, '--budget', '60'])
      expect(result.code, result.stderr).toBe(1)
      expect(result.stdout).toMatch(
        /^✓ 1 01-good {2}rendered: 3 elements, "Welcome Ship it"\n✗ 2 02-throws {2}error \(runtime\) at slide\.tsx:3:\d+\n {4}no items: 0\n/,
      )
      expect(result.stdout).toContain('✗ 6 06-bad-json  error (source) at slide.content.json:3:1\n')
      expect(result.stdout).toMatch(/\n1 rendered, 6 failed, of 7 slides in .*slides\n$/)
      const xml = await readFile(file, 'utf8')
      expect(xml).toMatch(
        /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites name="presentation-emulator check" tests="7" failures="6" errors="0" skipped="0">/,
      )
      expect(xml.match(/<testcase /g)).toHaveLength(7)
      expect(xml.match(/<failure /g)).toHaveLength(6)
      expect(xml).toMatch(/<testcase name="02-throws"[^>]*>\s*<failure message="slide\.tsx:3:\d+: no items: 0" type="error">/)
      expect(xml).toContain('<failure message="slide.content.json:3:1: Expected a property name')
      expect(xml).toMatch(/<testcase name="01-good"[^>]*>\s*<system-out>text: Welcome Ship it/)
    },
    HEAVY_MS,
  )

  it(
    'checks one slide folder with a project config from --config (as GET …/config answers it); exit 0 when it renders',
    async ({ cli }) => {
      const config = join(root.path, 'project.config.json')
      await writeFile(config, JSON.stringify({ config: { tokens: { palette: [{ name: '--brand', value: '#1d4ed8' }], fonts: [] } } }))
      const result = await cli.run(['check', join(deck, '01-good'), '--config', config])
      expect(result.code, result.stderr).toBe(0)
      expect(result.stdout).toBe(
        `✓ 1 01-good  rendered: 3 elements, "Welcome Ship it"\n\n1 rendered, 0 failed, of 1 slide in ${join(deck, '01-good')}\n`,
      )
      expect(result.stderr).toBe('')
    },
    HEAVY_MS,
  )

  it(
    'reports the slides a spent --budget did not reach as timeout',
    async ({ cli }) => {
      // The first slide loops: it cannot end before the budget of 1 ms, so no other slide is reached.
      const budgetDeck = join(root.path, 'budget')
      await mkdir(join(budgetDeck, 'a'), { recursive: true })
      await mkdir(join(budgetDeck, 'b'), { recursive: true })
      await writeFile(join(budgetDeck, 'a', 'slide.tsx'), LOOPS)
      await writeFile(join(budgetDeck, 'b', 'slide.tsx'), GOOD['slide.tsx'])
      await writeFile(join(budgetDeck, 'b', 'slide.content.json'), GOOD['slide.content.json'])
      const result = await cli.run(['check', budgetDeck, '--budget', '0.001', '--reporter', 'json'])
      expect(result.code, result.stderr).toBe(1)
      const report = parsed(result.stdout)
      expect(report.slides.map((slide) => [slide.slideId, slide.status, slide.error?.kind])).toEqual([
        ['a', 'timeout', 'timeout'],
        ['b', 'timeout', 'timeout'],
      ])
      expect(report.slides[1]?.error?.message).toBe("The deck's check budget of 1 ms ran out before this slide was reached")
    },
    HEAVY_MS,
  )

  it('exits 2 for usage and configuration errors, before checking anything', async ({ cli }) => {
    const badConfig = join(root.path, 'bad.config.json')
    await writeFile(badConfig, '{\n  "theme": 1,\n')
    // A port nothing listens on: one the system just handed out and took back.
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo
        probe.close(() => resolve(port))
      })
    })
    const invalidConfig = join(root.path, 'invalid.config.json')
    await writeFile(invalidConfig, '{"layout": "SIDEWAYS"}')
    const cases: Array<[string[], RegExp]> = [
      [['check', deck, '--colour'], /unknown option '--colour'/],
      [['check'], /missing required argument 'target'/],
      [['check', join(root.path, 'nowhere')], /check: no folder .*nowhere/],
      [['check', join(deck, 'assets')], /check: no slide in .*assets/],
      [['check', deck, '--reporter', 'xml'], /'--reporter <name\[=file\]>' argument 'xml' is invalid\. must be human, json or junit/],
      [
        ['check', deck, '--reporter', `json=${join(root.path, 'missing', 'r.json')}`],
        /check: --reporter: the directory .*missing does not exist/,
      ],
      [['check', deck, '--config', badConfig], /check: --config: .*bad\.config\.json:3:1 is not JSON/],
      [['check', deck, '--config', invalidConfig], /check: --config: .*invalid\.config\.json is not a project config: layout/],
      [['check', deck, 'some-slide'], /slide ids \(some-slide\) are for a project/],
      [['check', deck, '--api-key', 'pres_test_alice'], /--api-key needs --base-url/],
      [
        ['check', '--base-url', 'http://127.0.0.1:9/api', 'deck'],
        /'--base-url <url>' argument .* is invalid\. must be an API base URL ending in \/v1/,
      ],
      [
        ['check', '--base-url', `http://127.0.0.1:${closed}/v1`, 'deck'],
        new RegExp(`check: cannot reach http://127\\.0\\.0\\.1:${closed}/v1 \\(GET /projects/deck/slides\\): ECONNREFUSED`),
      ],
      [['check', deck, '--budget', '0'], /'--budget <s>' argument '0' is invalid/],
      [
        ['check', deck, '--picture-width', '100'],
        /'--picture-width <px>' argument '100' is invalid\. must be a whole number from 320 to 3840/,
      ],
      [['check', deck, '--fail-on', 'colour'], /'--fail-on <what>' argument 'colour' is invalid\. Allowed choices are layout/],
      [['check', deck, '--pictures', join(deck, '01-good', 'slide.tsx', 'pictures')], /check: --pictures: cannot make .*slide\.tsx/],
    ]
    for (const [args, message] of cases) {
      const result = await cli.run(args)
      expect(result.code, `${args.join(' ')}\n${result.stderr}`).toBe(2)
      expect(result.stderr, args.join(' ')).toMatch(message)
      expect(result.stdout, args.join(' ')).toBe('')
    }
  })

  it(
    'without a browser: a data check still runs; --pictures and --layout exit 2 naming the browser path tried and how to give one',
    async ({ cli }) => {
      const env = { CHROMIUM_PATH: '/nonexistent/chromium-for-check' }
      const data = await cli.run(['check', join(deck, '01-good')], { env })
      expect(data.code, data.stderr).toBe(0)
      for (const flag of [['--pictures', join(root.path, 'pictures')], ['--layout'], ['--fail-on', 'layout']]) {
        const result = await cli.run(['check', join(deck, '01-good'), ...flag], { env })
        expect(result.code, `${flag.join(' ')}\n${result.stderr}`).toBe(2)
        expect(result.stderr).toContain('/nonexistent/chromium-for-check')
        expect(result.stderr).toContain('CHROMIUM_PATH')
        expect(result.stdout).toBe('')
      }
    },
    HEAVY_MS,
  )

  it('lists check and its flags, examples and exit codes in its help', async ({ cli }) => {
    const top = await cli.run(['--help'])
    expect(top.stdout).toMatch(/\n {2}check \[options\] <target> \[slideIds\.\.\.\]\s+check that slides render/)
    const help = await cli.run(['check', '--help'])
    expect(help.code).toBe(0)
    for (const flag of [
      '--base-url <url>',
      '--api-key <key>',
      '--config <file>',
      '--budget <s>',
      '--reporter <name[=file]>',
      '--output <file>',
      '--pictures <dir>',
      '--picture-width <px>',
      '--layout',
      '--fail-on <what>',
    ])
      expect(help.stdout).toContain(flag)
    expect(help.stdout).toContain('env: PRESENTATION_API_KEY')
    expect(help.stdout).toContain(
      'Exit codes (one table with presentation-conformance): 0 every slide rendered (and, with --fail-on layout, no layout finding); 1 a slide did not render',
    )
  })
})

describe('check on a project of a running emulator', () => {
  it(
    'reads the slides over HTTP (the list, the config, each slide’s files) and checks them; all, some, or reports why not',
    async ({ cli }) => {
      const server = await cli.start(['--rate-limit', '0', '--quiet'])
      const baseUrl = `${server.origin}/v1`
      const created = await server.request('POST', '/v1/projects', { json: { name: 'Checked deck' } })
      expect(created.status).toBe(200)
      const slug: string = created.body.projectSlug
      const ids: string[] = []
      for (const tsx of [GOOD['slide.tsx'], THROWS, LEFT_PAD]) {
        const slide = await server.request('POST', `/v1/projects/${slug}/slides`, {
          json: { files: { 'slide.tsx': tsx, 'slide.content.json': GOOD['slide.content.json'] } },
        })
        expect(slide.status, slide.text).toBe(200)
        ids.push(slide.body.slideId)
      }

      // The whole deck, the key from the environment.
      const all = await cli.run(['check', '--base-url', baseUrl, slug, '--reporter', 'json'], {
        env: { PRESENTATION_API_KEY: 'pres_test_alice' },
      })
      expect(all.code, all.stderr).toBe(1)
      const report = parsed(all.stdout)
      expect(report).toMatchObject({ project: slug, rendered: 1, failed: 2 })
      expect(report.slides.map(({ slideId, position, status, error }) => [slideId, position, status, error?.kind])).toEqual([
        [ids[0], 1, 'rendered', undefined],
        [ids[1], 2, 'error', 'runtime'],
        [ids[2], 3, 'error', 'import'],
      ])
      expect(report.slides[1]).toMatchObject({ error: { file: 'slide.tsx', line: 3, message: 'no items: 0' } })

      // Only the slides named, in deck order, each at its place in the deck.
      const some = await cli.run([
        'check',
        '--base-url',
        baseUrl,
        '--api-key',
        'pres_test_alice',
        slug,
        ids[2]!,
        ids[0]!,
        '--reporter',
        'json',
      ])
      expect(some.code, some.stderr).toBe(1)
      expect(parsed(some.stdout).slides.map((slide) => [slide.slideId, slide.position, slide.status])).toEqual([
        [ids[0], 1, 'rendered'],
        [ids[2], 3, 'error'],
      ])

      // The seeded welcome deck renders.
      const seeded = await cli.run(['check', '--base-url', baseUrl, '--api-key', 'pres_test_alice', 'welcome-deck'])
      expect(seeded.code, seeded.stdout + seeded.stderr).toBe(0)
      expect(seeded.stdout).toMatch(/\n4 rendered, 0 failed, of 4 slides in welcome-deck\n$/)

      // What the target refuses: exit 2, nothing checked.
      for (const [args, message] of [
        [['--api-key', 'pres_test_nobody', slug], /rejected the API key \(401: /],
        [['--api-key', 'pres_test_bob', slug], new RegExp(`no project ${slug} at .* for this key \\(404: `)],
        [['--api-key', 'pres_test_alice', 'no-such-deck'], /no project no-such-deck at .* for this key \(404: /],
        [
          ['--api-key', 'pres_test_alice', slug, 'sld_nope'],
          new RegExp(`no slide sld_nope in ${slug} \\(its slides: ${ids.join(', ')}\\)`),
        ],
        [['--api-key', 'pres_test_alice', slug, '--config', 'x.json'], /--config is for slide folders/],
      ] as Array<[string[], RegExp]>) {
        const refused = await cli.run(['check', '--base-url', baseUrl, ...args])
        expect(refused.code, `${args.join(' ')}\n${refused.stderr}`).toBe(2)
        expect(refused.stderr, args.join(' ')).toMatch(message)
      }
    },
    HEAVY_MS,
  )
})
