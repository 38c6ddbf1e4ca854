/**
 * A deck of 500 slides (issue 32's bad input): checked through the real
 * checker within the deck's budget, every slide reached, in deck order,
 * with progress after each. The process tier: the checker starts a
 * renderer process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEmulator, type PresentationEmulator } from '../../src/index.js'
import { DEFAULT_DECK_BUDGET_MS } from '../../src/model/slide-checks.js'

const ALICE = 'pres_test_alice'
const SLIDES = 500

describe('a deck of 500 slides', () => {
  let emulator: PresentationEmulator
  let slug: string
  const ids: string[] = []

  beforeAll(async () => {
    emulator = createEmulator({ clock: 'manual', rateLimit: 0 })
    await emulator.ready()
    const call = async (method: string, path: string, json: unknown) => {
      const response = await emulator.fetch(`http://127.0.0.1:4010/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${ALICE}`, 'content-type': 'application/json' },
        body: JSON.stringify(json),
      })
      expect(response.status, path).toBe(200)
      return (await response.json()) as Record<string, string>
    }
    slug = (await call('POST', '/projects', { name: 'Five hundred' })).projectSlug!
    for (let n = 1; n <= SLIDES; n++) {
      const tsx = `export default function Slide${n}() {\n  return <section className="slide"><h1>Slide ${n}</h1><p>${'word '.repeat(n % 7)}</p></section>\n}\n`
      ids.push((await call('POST', `/projects/${slug}/slides`, { name: `Slide ${n}`, files: { 'slide.tsx': tsx } })).slideId!)
    }
  }, 120_000)

  afterAll(() => emulator?.close())

  it('is checked whole within the deck budget, in deck order, with progress after each slide', async () => {
    const progress: Array<[number, number]> = []
    const result = await emulator.control.checkSlides(slug, { onProgress: (done, total) => progress.push([done, total]) })
    const mine = result.slides.filter((slide) => ids.includes(slide.slideId))
    expect(mine.map((slide) => slide.slideId)).toEqual(ids)
    // Every slide reached and rendered: none cut by the budget (DEFAULT_DECK_BUDGET_MS).
    expect(
      mine.filter((slide) => slide.status !== 'rendered').map((slide) => `${slide.position} ${slide.status}: ${slide.error?.message}`),
    ).toEqual([])
    expect(mine[499]!.text).toBe('Slide 500 word word word')
    expect(DEFAULT_DECK_BUDGET_MS).toBe(120_000)
    // One progress call per slide, counting up to the deck's length.
    const total = result.slides.length
    expect(progress).toEqual(Array.from({ length: total }, (_, i) => [i + 1, total]))
  }, 200_000)
})
