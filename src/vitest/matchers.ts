/**
 * `await expect(emulator).toRenderSlides(slug, options?)`: every slide of a
 * project (or those `options.slideIds` names) renders, as the editor renders
 * it. It checks through `emulator.control.checkSlides` (the emulator's own
 * deck check, the same as the control plane's and the CLI's), so a failure
 * lists each slide that did not render with its status, error kind, place
 * (`slide.tsx:line:column`) and message. `.not` passes when at least one
 * slide does not render.
 *
 * Registered when `presentation-emulator/vitest` is imported (as a test
 * file's import, or in `setupFiles`); `slideMatchers` is the same object for
 * `expect.extend` by hand.
 */
import { expect } from 'vitest'
import { failureLine } from '../model/slide-check-text.js'
import type { CheckSlidesOptions, DeckCheckResult } from '../model/slide-checks.js'
import type { ClientReport } from '../model/client-report/index.js'

/** What `toRenderSlides` checks: an emulator (`createEmulator`), or anything with its `control.checkSlides`. */
export interface SlideCheckable {
  control: { checkSlides(slug: string, options?: CheckSlidesOptions): Promise<DeckCheckResult> }
}

declare module 'vitest' {
  // biome-ignore lint/suspicious/noExplicitAny: vitest declares Matchers<T = any>; a merged declaration must repeat it
  interface Matchers<T = any> {
    /**
     * Checks the project's slides (all, or `options.slideIds`) with the
     * emulator's slide checker; passes when every one renders. Await it.
     */
    toRenderSlides(slug: string, options?: CheckSlidesOptions): Promise<void>
    /**
     * Takes the client report (docs/guides/client-report.md) and passes when
     * it has no finding of severity `error` (with `{ warnings: true }`, no
     * finding at all). On an emulator, `options.keyId` narrows it to one key;
     * an account of `createAccount`/`workerAccount` reports its own key.
     * `options.since` starts it after a request id or a mark. Await it.
     */
    toHaveNoClientErrors(options?: { keyId?: string; since?: string; warnings?: boolean }): Promise<void>
  }
}

/** What `toHaveNoClientErrors` reads: an emulator (its `control.clientReport`), a control client or an account (its `clientReport`). */
export type ClientReportable =
  | { control: { clientReport(query?: { keyId?: string; since?: string }): Promise<ClientReport> } }
  | { clientReport(query?: { keyId?: string; since?: string }): Promise<ClientReport> }

function reportOf(received: unknown, query: { keyId?: string; since?: string }): Promise<ClientReport> | undefined {
  const value = received as { control?: { clientReport?: unknown }; clientReport?: unknown } | null
  if (typeof value?.control?.clientReport === 'function') {
    return (value.control as { clientReport(q: object): Promise<ClientReport> }).clientReport(query)
  }
  // An account (its own key whatever `keyId` says) or a control client of `createControlClient`.
  if (typeof value?.clientReport === 'function') return (value as { clientReport(q: object): Promise<ClientReport> }).clientReport(query)
  return undefined
}

/** The failure message's body: a line per finding (severity, rule, message, calls, ref). */
export function clientFailures(report: ClientReport, warnings = false): string {
  return report.findings
    .filter((finding) => warnings || finding.severity === 'error')
    .map(
      (finding) =>
        `  ${finding.severity} ${finding.rule}: ${finding.message} (${finding.requestIds.join(', ')}${finding.count > finding.requestIds.length ? ', …' : ''}; ${finding.ref})`,
    )
    .join('\n')
}

const isCheckable = (value: unknown): value is SlideCheckable =>
  typeof (value as SlideCheckable | null)?.control?.checkSlides === 'function'

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

/** The failure message's body: a line per slide that did not render. */
export function deckFailures(result: DeckCheckResult): string {
  return result.slides
    .filter((slide) => slide.status !== 'rendered')
    .map((slide) => `  ${failureLine(slide)}`)
    .join('\n')
}

/** The matchers `presentation-emulator/vitest` adds to `expect`. */
export const slideMatchers = {
  async toRenderSlides(received: unknown, slug: string, options?: CheckSlidesOptions) {
    if (!isCheckable(received)) {
      throw new TypeError(
        'toRenderSlides: expect(…) must be an emulator from createEmulator() (or an object with control.checkSlides), ' +
          `got ${received === null ? 'null' : typeof received}`,
      )
    }
    const result = await received.control.checkSlides(slug, options)
    const total = result.slides.length
    const pass = result.failed === 0
    return {
      pass,
      message: () =>
        pass
          ? `expected a slide of "${slug}" not to render, but all ${plural(total, 'slide')} rendered`
          : `expected every slide of "${slug}" to render, but ${result.failed} of ${plural(total, 'slide')} did not:\n${deckFailures(result)}`,
    }
  },

  async toHaveNoClientErrors(received: unknown, options: { keyId?: string; since?: string; warnings?: boolean } = {}) {
    const { warnings = false, ...query } = options
    const pending = reportOf(received, query)
    if (pending === undefined) {
      throw new TypeError(
        'toHaveNoClientErrors: expect(…) must be an emulator from createEmulator(), a control client, or an account from createAccount()/workerAccount(), ' +
          `got ${received === null ? 'null' : typeof received}`,
      )
    }
    const report = await pending
    const counted = warnings ? report.errors + report.warnings : report.errors
    const what = warnings ? 'finding' : 'client error'
    return {
      pass: counted === 0,
      message: () =>
        counted === 0
          ? `expected the client report to have a ${what}, but it had none (${report.window.entries} calls judged)`
          : `expected no ${what}s in the client report, but it had ${counted} (${report.window.entries} calls judged${report.window.complete ? '' : '; entries before the window were dropped'}):\n${clientFailures(report, warnings)}`,
    }
  },
}

expect.extend(slideMatchers)
