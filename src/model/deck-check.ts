/**
 * Checking a deck, one slide after another, through the slide-checker port
 * (`slide-checker.ts`) and within the deck's budget: the one deck loop of
 * every way in. The core's check service (`slide-check-service.ts`) runs it
 * on a project's snapshot, and the CLI's `check` on slide folders on disk or
 * on a project it reads over HTTP. A slide that cannot be handed to the checker (a folder without
 * `slide.tsx`, a file `PUT` would refuse) has its result decided before,
 * and is reported in its place in the deck.
 */
import type { SlideChecker, SlideCheckInput, SlideCheckOptions, SlideCheckResult, SlideInspection } from './slide-checker.js'
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
  /** Measure each rendered slide's layout in the browser (`SlideCheckReport.layout`). */
  layout?: boolean
  /**
   * A picture of each slide that rendered, `width` pixels wide, handed to
   * `onPicture` (within the deck's budget, as the checks are): what
   * `check --pictures DIR` writes.
   */
  pictures?: { width: number; onPicture(report: SlideCheckReport, png: Uint8Array): Promise<void> | void }
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

/** A check with layout findings (when asked) and a picture: one look in the browser when the checker can, else a check and a picture. */
async function inspect(
  checker: Pick<SlideChecker, 'check' | 'inspect'> & Partial<Pick<SlideChecker, 'picture'>>,
  input: SlideCheckInput,
  layout: boolean,
  width: number,
): Promise<SlideInspection> {
  if (checker.inspect !== undefined) return checker.inspect(input, { layout, pictureWidth: width })
  if (checker.picture === undefined) throw new TypeError('pictures need a checker that takes pictures')
  const result = await (layout ? checker.check(input, { layout }) : checker.check(input))
  return result.status === 'rendered' ? { result, png: await checker.picture(input, { width }) } : { result }
}

const isResult = (value: SlideCheckInput | SlideCheckResult): value is SlideCheckResult => 'status' in value

/** `check` of `input`, or undefined once `remaining` ms have passed (the check itself goes on to its own time limit, unread). */
async function checkWithin<T>(checked: Promise<T>, remaining: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined
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
  checker: Pick<SlideChecker, 'check' | 'inspect'> & Partial<Pick<SlideChecker, 'picture'>>,
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
        const pictures = options.pictures
        if (pictures !== undefined) {
          // One render in the browser gives the check, its layout findings (when asked) and the picture.
          const inspected = await checkWithin(inspect(checker, loaded, options.layout === true, pictures.width), remaining)
          spent = inspected === undefined
          result = inspected?.result ?? budgetRanOut(budgetMs, true)
          if (inspected?.png !== undefined) {
            await pictures.onPicture({ slideId: slide.slideId, position: slide.position ?? index + 1, ...result }, inspected.png)
          }
        } else {
          const checkOptions: SlideCheckOptions | undefined = options.layout === true ? { layout: true } : undefined
          result = await checkWithin(checkOptions === undefined ? checker.check(loaded) : checker.check(loaded, checkOptions), remaining)
          spent = result === undefined
          result ??= budgetRanOut(budgetMs, true)
        }
      }
    }
    reports.push({ slideId: slide.slideId, position: slide.position ?? index + 1, ...(result ?? budgetRanOut(budgetMs, false)) })
    options.onProgress?.(index + 1, slides.length)
  }
  const rendered = reports.filter((report) => report.status === 'rendered').length
  return { project, slides: reports, rendered, failed: reports.length - rendered }
}
