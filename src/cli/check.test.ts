/**
 * `runCheck` in-process, on slides the checker never has to render (what
 * `PUT` would refuse, a folder without `slide.tsx`): which stream gets what,
 * progress on a terminal only, and the exit code. The renders themselves,
 * and the command line, are `test/cli/check.test.ts`'s.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CheckRequest, runCheck } from './check.js'

let dir: string

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'presentation-emulator-check-unit-'))
  await mkdir(join(dir, 'a-no-tsx'))
  await writeFile(join(dir, 'a-no-tsx', 'slide.content.json'), '{}')
  await mkdir(join(dir, 'b-bad-controls'))
  await writeFile(join(dir, 'b-bad-controls', 'slide.tsx'), 'export default function Slide() {\n  return <p>x</p>\n}\n')
  await writeFile(join(dir, 'b-bad-controls', 'slide.controls.json'), '{"controls": [\n  {"id": "a"}\n')
})

afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

const request = (overrides: Partial<CheckRequest> = {}): CheckRequest => ({
  target: dir,
  slideIds: [],
  flags: { budget: 60_000 },
  reporter: { name: 'human' },
  fileFlag: '--reporter',
  apiKeyOnCommandLine: false,
  ...overrides,
})

async function run(overrides: Partial<CheckRequest>, progress: boolean) {
  let out = ''
  let err = ''
  const code = await runCheck(request(overrides), { out: (t) => (out += t), err: (t) => (err += t), progress })
  return { code, out, err }
}

describe('runCheck', () => {
  it('reports what PUT would refuse per slide, at its file and position, and exits 1', async () => {
    const { code, out, err } = await run({ reporter: { name: 'json' } }, false)
    expect(code).toBe(1)
    const report = JSON.parse(out)
    expect(report.slides).toEqual([
      {
        slideId: 'a-no-tsx',
        position: 1,
        status: 'error',
        error: {
          kind: 'source',
          file: 'slide.tsx',
          message: `${join(dir, 'a-no-tsx')} has no slide.tsx: a slide's component is its default export there.`,
        },
        text: '',
        elements: 0,
        notes: [],
      },
      {
        slideId: 'b-bad-controls',
        position: 2,
        status: 'error',
        error: { kind: 'source', file: 'slide.controls.json', line: 3, column: 1, message: expect.any(String) },
        text: '',
        elements: 0,
        notes: [],
      },
    ])
    expect(err).toBe(`0 rendered, 2 failed, of 2 slides in ${dir}\n`)
  })

  it('shows progress on stderr only when it is a terminal, on one line cleared at the end', async () => {
    const quiet = await run({}, false)
    expect(quiet.err).toBe('')
    const shown = await run({}, true)
    expect(shown.err).toBe('\r\x1b[Kchecked 1 of 2 slides\r\x1b[Kchecked 2 of 2 slides\r\x1b[K')
    expect(shown.out).toBe(quiet.out)
    expect(shown.out).toMatch(/^✗ 1 a-no-tsx {2}error \(source\) at slide\.tsx\n/)
    expect(shown.out).toContain('✗ 2 b-bad-controls  error (source) at slide.controls.json:3:1\n')
  })

  it('answers 2 for a report file it cannot write, before checking', async () => {
    const { code, out, err } = await run({ reporter: { name: 'junit', file: join(dir, 'no', 'such', 'r.xml') } }, false)
    expect(code).toBe(2)
    expect(out).toBe('')
    expect(err).toMatch(/^presentation-emulator check: --reporter: the directory .* does not exist\n$/)
  })
})
