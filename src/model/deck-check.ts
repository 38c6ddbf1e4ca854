/**
 * Checking a deck, one slide after another, through the slide-checker port
 * (`slide-checker.ts`) and within the deck's budget: what the CLI's
 * `check` runs, on slide folders on disk or on a project it reads over
 * HTTP. A slide that cannot be handed to the checker (a folder without
 * `slide.tsx`, a file `PUT` would refuse) has its result decided before,
 * and is reported in its place in the deck.
 */
import type { SlideChecker, SlideCheckInput, SlideCheckResult } from './slide-checker.js'
import { DEFAULT_DECK_BUDGET_MS, type DeckCheckResult, type SlideCheckReport } from './slide-checks.js'

/** One slide of a deck to check: its id, and how to get what to check (read on its turn, so a deck's files are not all held at once). */
export interface DeckSlide {
  slideId: string
  /** The slide's files and the project's config, or the slide's result when it cannot be checked. */
  load(): Promise<SlideCheckInput | SlideCheckResult>
}

/** How to check a deck. */
export interface DeckCheckOptions {
  /** The deck's total budget in ms (default `DEFAULT_DECK_BUDGET_MS`): a slide not started by then is `timeout`. */
  budgetMs?: number
  /** Called after each slide with how many are done of how many. */
  onProgress?: (done: number, total: number) => void
  /** The clock the budget is measured on, in ms (default `performance.now`). */
  now?: () => number
}

/** The result of a slide the deck's budget did not reach. */
export function notReached(budgetMs: number): SlideCheckResult {
  return {
    status: 'timeout',
    error: {
      kind: 'timeout',
      message: `Not checked: the deck's budget of ${budgetMs} ms was spent before this slide's turn.`,
      file: 'slide.tsx',
    },
    text: '',
    elements: 0,
    notes: [],
  }
}

const isResult = (value: SlideCheckInput | SlideCheckResult): value is SlideCheckResult => 'status' in value

/**
 * Checks `slides` in order with `checker`. A slide starts only while the
 * budget lasts (one in flight finishes within the checker's own time
 * limit); the rest are `timeout`, not checked. Rejects when the checker
 * cannot check at all (no renderer, a browser that cannot start) or a
 * slide cannot be loaded.
 */
export async function checkDeck(
  checker: SlideChecker,
  project: string,
  slides: readonly DeckSlide[],
  options: DeckCheckOptions = {},
): Promise<DeckCheckResult> {
  const budgetMs = options.budgetMs ?? DEFAULT_DECK_BUDGET_MS
  const now = options.now ?? (() => performance.now())
  const started = now()
  const reports: SlideCheckReport[] = []
  for (const [index, slide] of slides.entries()) {
    let result: SlideCheckResult
    if (now() - started >= budgetMs) result = notReached(budgetMs)
    else {
      const loaded = await slide.load()
      result = isResult(loaded) ? loaded : await checker.check(loaded)
    }
    reports.push({ slideId: slide.slideId, position: index + 1, ...result })
    options.onProgress?.(index + 1, slides.length)
  }
  const rendered = reports.filter((report) => report.status === 'rendered').length
  return { project, slides: reports, rendered, failed: reports.length - rendered }
}
