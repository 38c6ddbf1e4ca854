/**
 * `toRenderSlides` with `layout: true` (issue 33): the option reaches the
 * slide checker, a layout finding fails the matcher as `--fail-on layout`
 * fails the CLI (listed under its slide), and a check that cannot measure
 * layout (no browser) rejects naming the matcher's option and the checker's
 * reason. The checker is a stand-in for the *port* (layout needs Chromium,
 * which this tier does not start); the same with the real checker in a
 * browser is in `test/browser/slide-pictures.test.ts`.
 */
import { describe, expect, it } from 'vitest'
import type { LayoutFinding, SlideCheckInput } from '../../src/model/slide-checker.js'
// Importing the helpers adds the matcher to `expect`, as a user's test file does.
import '../../src/vitest/index.js'
import { checkerEmulators, rejection, slideIdsOf, StandInChecker } from '../support/slide-checks.js'

const emulatorWith = checkerEmulators()

const TOO_SMALL: LayoutFinding = { code: 'text-too-small', message: 'p has text 8 px high at the slide’s scale, under 12 px', element: 'p' }

/** Fails the test unless `assertion` rejects; answers its error. */
async function failure(assertion: Promise<void>): Promise<Error> {
  const error = await assertion.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(Error)
  return error as Error
}

describe('toRenderSlides with layout: true', () => {
  it('asks the checker for layout only with the option, and fails on a finding, listing it under its slide', async () => {
    const checker = new StandInChecker()
    checker.layout = [TOO_SMALL]
    const emulator = emulatorWith(checker)
    const ids = await slideIdsOf(emulator)

    // Without the option: no layout asked, the slides render, it passes.
    await expect(emulator).toRenderSlides('welcome-deck')
    expect(checker.asked.map((ask) => ask.options?.layout === true)).toEqual(ids.map(() => false))

    const asked = checker.checks
    const error = await failure(expect(emulator).toRenderSlides('welcome-deck', { slideIds: [ids[1]!], layout: true }))
    expect(checker.asked.slice(asked).map((ask) => ask.options)).toEqual([{ layout: true }])
    expect(error.message).toBe(
      `expected every slide of "welcome-deck" to render with no layout finding, but 0 of 1 slide did not render, and 1 layout finding was found:\n` +
        `  2. ${ids[1]}: layout: text-too-small: ${TOO_SMALL.message}`,
    )
    // `.not` passes on a finding.
    await expect(emulator).not.toRenderSlides('welcome-deck', { slideIds: [ids[1]!], layout: true })
  })

  it('passes when every slide renders with no finding, and .not then fails saying so', async () => {
    const emulator = emulatorWith(new StandInChecker())
    await expect(emulator).toRenderSlides('welcome-deck', { layout: true })
    const ids = await slideIdsOf(emulator)
    const error = await failure(expect(emulator).not.toRenderSlides('welcome-deck', { layout: true }))
    expect(error.message).toBe(
      `expected a slide of "welcome-deck" not to render or to have a layout finding, but all ${ids.length} slides rendered with none`,
    )
  })

  it('lists a slide that does not render and the findings of those that do', async () => {
    const checker = new StandInChecker((input: SlideCheckInput) =>
      input.files['slide.tsx'].includes('BROKEN')
        ? {
            status: 'error',
            error: { kind: 'runtime', message: 'boom', file: 'slide.tsx', line: 3, column: 9 },
            text: '',
            elements: 0,
            notes: [],
          }
        : { status: 'rendered', text: 'Fine', elements: 1, notes: [] },
    )
    checker.layout = [TOO_SMALL, { code: 'outside-slide', message: 'section reaches past the slide' }]
    const emulator = emulatorWith(checker)
    const ids = await slideIdsOf(emulator)
    const put = await emulator.fetch(`http://127.0.0.1:4010/v1/projects/welcome-deck/slides/${ids[0]}`, {
      method: 'PUT',
      headers: { authorization: 'Bearer pres_test_alice', 'content-type': 'application/json' },
      body: JSON.stringify({ files: { 'slide.tsx': 'export default () => <h1>BROKEN</h1>' } }),
    })
    expect(put.status).toBe(200)
    const error = await failure(expect(emulator).toRenderSlides('welcome-deck', { slideIds: [ids[0]!, ids[1]!], layout: true }))
    expect(error.message).toBe(
      `expected every slide of "welcome-deck" to render with no layout finding, but 1 of 2 slides did not render, and 2 layout findings were found:\n` +
        `  1. ${ids[0]}: error (runtime) at slide.tsx:3:9: boom\n` +
        `  2. ${ids[1]}: layout: text-too-small: ${TOO_SMALL.message}\n` +
        `  2. ${ids[1]}: layout: outside-slide: section reaches past the slide`,
    )
  })

  it('without a browser rejects with the check’s 503, naming the matcher’s layout option and the checker’s reason; without layout it checks as before', async () => {
    const reason = 'no Chromium at /nonexistent/chromium: give CHROMIUM_PATH'
    const checker = new StandInChecker()
    const check = checker.check.bind(checker)
    // A checker with no browser: a layout check fails to start, a data check answers.
    checker.check = async (input, options) => (options?.layout === true ? Promise.reject(new Error(reason)) : check(input, options))
    const emulator = emulatorWith(checker)
    const error = await rejection(expect(emulator).toRenderSlides('welcome-deck', { layout: true }))
    expect([error.status, error.code]).toEqual([503, 'SLIDE_CHECKER_UNAVAILABLE'])
    expect(error.message).toBe(
      `Slide checker unavailable: toRenderSlides("welcome-deck", { layout: true }) measures layout in a browser, and none could check: the slide checker could not check the slide: ${reason}`,
    )
    await expect(emulator).toRenderSlides('welcome-deck')
  })
})
