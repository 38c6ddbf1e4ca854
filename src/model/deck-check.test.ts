/**
 * The deck loop the CLI's `check` runs over the slide-checker port: deck
 * order and positions, results decided before the checker passed through,
 * the deck's budget on a clock the test moves, progress. The checker here
 * is a stand-in for the port (the real ones render in a browser or a
 * child process; the CLI's tests run those).
 */
import { describe, expect, it } from 'vitest'
import { budgetRanOut, checkDeck, type DeckSlide } from './deck-check.js'
import type { SlideChecker, SlideCheckInput, SlideCheckResult } from './slide-checker.js'

const rendered = (text: string): SlideCheckResult => ({ status: 'rendered', text, elements: 1, notes: [] })

/** A checker that answers each slide's `slide.tsx` as its text, after `cost` ms of the test's clock; `never` never answers. */
function stubChecker(clock: { t: number }, cost = 0): SlideChecker & { checked: string[] } {
  const checked: string[] = []
  return {
    available: true,
    checked,
    check: async (input: SlideCheckInput) => {
      checked.push(input.files['slide.tsx'])
      if (input.files['slide.tsx'] === 'never') return new Promise<never>(() => {})
      clock.t += cost
      return rendered(input.files['slide.tsx'])
    },
    picture: () => Promise.reject(new Error('no pictures here')),
    close: async () => {},
  }
}

const slide = (slideId: string, tsx: string): DeckSlide => ({
  slideId,
  load: async () => ({ files: { 'slide.tsx': tsx, 'slide.content.json': '{}', 'slide.controls.json': '{}' }, config: {} }),
})

describe('checkDeck', () => {
  it('checks the slides in order, passes decided results through, and counts', async () => {
    const clock = { t: 0 }
    const checker = stubChecker(clock)
    const decided: SlideCheckResult = {
      status: 'error',
      error: { kind: 'source', message: 'no slide.tsx', file: 'slide.tsx' },
      text: '',
      elements: 0,
      notes: [],
    }
    const progress: string[] = []
    const result = await checkDeck(checker, 'deck', [slide('a', 'one'), { slideId: 'b', load: async () => decided }, slide('c', 'three')], {
      now: () => clock.t,
      onProgress: (done, total) => progress.push(`${done}/${total}`),
    })
    expect(result).toEqual({
      project: 'deck',
      slides: [
        { slideId: 'a', position: 1, ...rendered('one') },
        { slideId: 'b', position: 2, ...decided },
        { slideId: 'c', position: 3, ...rendered('three') },
      ],
      rendered: 2,
      failed: 1,
    })
    expect(checker.checked).toEqual(['one', 'three'])
    expect(progress).toEqual(['1/3', '2/3', '3/3'])
  })

  it('reports the slides the budget does not reach as timeout, without checking them', async () => {
    const clock = { t: 0 }
    const checker = stubChecker(clock, 60)
    const result = await checkDeck(checker, 'deck', [slide('a', 'one'), slide('b', 'two'), slide('c', 'three')], {
      budgetMs: 100,
      now: () => clock.t,
    })
    expect(result.slides.map((s) => s.status)).toEqual(['rendered', 'rendered', 'timeout'])
    expect(result.slides[2]).toMatchObject(budgetRanOut(100, false))
    expect(checker.checked).toEqual(['one', 'two'])
    expect(result).toMatchObject({ rendered: 2, failed: 1 })
  })

  it('cuts a slide still being checked when the budget runs out, and reaches no other', async () => {
    const clock = { t: 0 }
    const checker = stubChecker(clock)
    // The stand-in never answers `never`: only the budget ends its check (a real timer of the remaining 5 ms).
    const result = await checkDeck(checker, 'deck', [slide('a', 'never'), slide('b', 'two')], { budgetMs: 5, now: () => clock.t })
    expect(result.slides[0]).toMatchObject(budgetRanOut(5, true))
    expect(result.slides[0]?.error?.message).toContain('while this slide was being checked')
    expect(result.slides[1]).toMatchObject({ slideId: 'b', status: 'timeout' })
    expect(checker.checked).toEqual(['never'])
  })

  it('rejects when the checker cannot check at all', async () => {
    const clock = { t: 0 }
    const checker: SlideChecker = { ...stubChecker(clock), check: () => Promise.reject(new Error('no browser')) }
    await expect(checkDeck(checker, 'deck', [slide('a', 'one')], { now: () => clock.t })).rejects.toThrow('no browser')
  })
})
