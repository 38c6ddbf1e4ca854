/**
 * Checking a deck, one slide after another, through the slide-checker port
 * (`slide-checker.ts`) and within the deck's budget: the one deck loop of
 * every way in. The core's check service (`slide-check-service.ts`) runs it
 * on a project's snapshot, and the CLI's `check` on slide folders on disk or
 * on a project it reads over HTTP. A slide that cannot be handed to the checker (a folder without
 * `slide.tsx`, a file `PUT` would refuse) has its result decided before,
 * and is reported in its place in the deck.
 */
import type { SlideChecker, SlideCheckInput, SlideCheckResult } from './slide-checker.js'
import { DEFAULT_DECK_BUDGET_MS, type DeckCheckResult, type SlideCheckReport } from './slide-checks.js'

/** One slide of a deck to check: its id, and how to get what to check (read on its turn, so a deck's files are not all held at once). */
export interface DeckSlide {
  slideId: string
  /** Its 1-based position in the deck, when only some of a deck's slides are checked (default: its place in the list). */
  position?: number
  /** The slide's files and the project's config, or the slide's result when it cannot be checked. */
  load(): Promise<SlideCheckInput | SlideCheckResult>
}

/** How to check a deck. */
export interface DeckCheckOptions {
  /** The deck's total budget in ms (default `DEFAULT_DECK_BUDGET_MS`): a slide not done by then is `timeout`. */
  budgetMs?: number
  /** Called after each slide with how many are done of how many. */
  onProgress?: (done: number, total: number) => void
  /** The clock the budget is measured on, in ms (default `performance.now`). */
  now?: () => number
}

/** A slide the deck's budget did not let finish (`during`) or start, in the same words whichever way in checked it. */
export function budgetRanOut(budgetMs: number, during: boolean): SlideCheckResult {
  return {
    status: 'timeout',
    error: {
      kind: 'timeout',
      message: `The deck's check budget of ${budgetMs} ms ran out ${during ? 'while this slide was being checked' : 'before this slide was reached'}`,
      file: 'slide.tsx',
    },
    text: '',
    elements: 0,
    notes: [],
  }
}

const isResult = (value: SlideCheckInput | SlideCheckResult): value is SlideCheckResult => 'status' in value

/** `check` of `input`, or undefined once `remaining` ms have passed (the check itself goes on to its own time limit, unread). */
async function checkWithin(
  checker: Pick<SlideChecker, 'check'>,
  input: SlideCheckInput,
  remaining: number,
): Promise<SlideCheckResult | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const checked = checker.check(input)
  const outOfBudget = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), remaining)
  })
  try {
    return await Promise.race([checked, outOfBudget])
  } finally {
    clearTimeout(timer)
    checked.catch(() => undefined)
  }
}

/**
 * Checks `slides` in order with `checker`, within the deck's budget: a
 * slide still being checked when it runs out, and the slides not reached,
 * are `timeout` (`budgetRanOut`). Rejects when the checker cannot check at
 * all (no renderer, a browser that cannot start) or a slide cannot be
 * loaded.
 */
export async function checkDeck(
  checker: Pick<SlideChecker, 'check'>,
  project: string,
  slides: readonly DeckSlide[],
  options: DeckCheckOptions = {},
): Promise<DeckCheckResult> {
  const budgetMs = options.budgetMs ?? DEFAULT_DECK_BUDGET_MS
  const now = options.now ?? (() => performance.now())
  const deadline = now() + budgetMs
  const reports: SlideCheckReport[] = []
  /** Set once the budget has cut a slide's check short: no later slide is reached. */
  let spent = false
  for (const [index, slide] of slides.entries()) {
    let result: SlideCheckResult | undefined
    if (!spent && deadline - now() > 0) {
      const loaded = await slide.load()
      const remaining = deadline - now()
      if (isResult(loaded)) result = loaded
      else if (remaining > 0) {
        result = await checkWithin(checker, loaded, remaining)
        spent = result === undefined
        result ??= budgetRanOut(budgetMs, true)
      }
    }
    reports.push({ slideId: slide.slideId, position: slide.position ?? index + 1, ...(result ?? budgetRanOut(budgetMs, false)) })
    options.onProgress?.(index + 1, slides.length)
  }
  const rendered = reports.filter((report) => report.status === 'rendered').length
  return { project, slides: reports, rendered, failed: reports.length - rendered }
}
