/**
 * The vitest matcher of `presentation-emulator/vitest` (issue 32):
 * `await expect(emulator).toRenderSlides(slug)` passes on the seeded deck,
 * fails on a broken slide with a message naming it, its status, kind,
 * `slide.tsx:line:column` and message, and works under `.not`. It checks
 * through `emulator.control.checkSlides`, which renders each slide with the
 * emulator's slide checker (a process of its own: this file is in the
 * process tier).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEmulator, type PresentationEmulator } from '../../src/index.js'
// Importing the helpers adds the matcher to `expect`, as a user's test file does.
import { deckFailures } from '../../src/vitest/index.js'

const API = 'http://127.0.0.1:4010/v1'
const ALICE = { authorization: 'Bearer pres_test_alice', 'content-type': 'application/json' }

const GOOD = 'export default function Slide() {\n  return <h1>Fine</h1>;\n}\n'
const THROWS = 'export default function Slide() {\n  const items: string[] = [];\n  throw new Error("no items: " + items.length);\n}\n'

let emulator: PresentationEmulator
/** A project of Alice's with a slide that renders and one that throws. */
let slug: string
let ids: string[]

async function call(method: string, path: string, body?: unknown): Promise<any> {
  const response = await emulator.fetch(`${API}${path}`, {
    method,
    headers: ALICE,
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  expect(response.status, `${method} ${path}`).toBe(200)
  return response.json()
}

beforeAll(async () => {
  emulator = createEmulator()
  await emulator.ready()
  slug = (await call('POST', '/projects', { name: 'Matcher deck' })).projectSlug
  ids = []
  for (const tsx of [GOOD, THROWS]) ids.push((await call('POST', `/projects/${slug}/slides`, { files: { 'slide.tsx': tsx } })).slideId)
})

afterAll(async () => {
  await emulator?.close()
})

describe('toRenderSlides', () => {
  it('passes when every slide of the seeded deck renders', async () => {
    await expect(emulator).toRenderSlides('welcome-deck')
  })

  it('fails naming each slide that did not render, with its status, kind, slide.tsx:line:column and message', async () => {
    const failure = await expect(emulator)
      .toRenderSlides(slug)
      .then(
        () => undefined,
        (error: Error) => error,
      )
    expect(failure).toBeInstanceOf(Error)
    expect(failure?.message).toMatch(
      new RegExp(
        `^expected every slide of "${slug}" to render, but 1 of 2 slides did not:\\n {2}2\\. ${ids[1]}: error \\(runtime\\) at slide\\.tsx:3:\\d+: no items: 0$`,
      ),
    )
  })

  it('checks only the slides asked for', async () => {
    await expect(emulator).toRenderSlides(slug, { slideIds: [ids[0]!] })
    await expect(emulator).not.toRenderSlides(slug, { slideIds: [ids[1]!] })
  })

  it('.not passes when a slide does not render, and fails when every one does', async () => {
    await expect(emulator).not.toRenderSlides(slug)
    await expect(expect(emulator).not.toRenderSlides('welcome-deck')).rejects.toThrow(
      'expected a slide of "welcome-deck" not to render, but all 4 slides rendered',
    )
  })

  it('lets an unknown project’s 404 through, and refuses what is not an emulator', async () => {
    await expect(expect(emulator).toRenderSlides('no-such-deck')).rejects.toMatchObject({ status: 404 })
    await expect(expect({ control: {} }).toRenderSlides('welcome-deck')).rejects.toThrow(
      'toRenderSlides: expect(…) must be an emulator from createEmulator() (or an object with control.checkSlides), got object',
    )
  })

  it('words a deck’s failures one line per slide (deckFailures, for messages of your own)', async () => {
    const result = await emulator.control.checkSlides(slug)
    expect(deckFailures(result)).toMatch(new RegExp(`^ {2}2\\. ${ids[1]}: error \\(runtime\\) at slide\\.tsx:3:\\d+: no items: 0$`))
  })
})
