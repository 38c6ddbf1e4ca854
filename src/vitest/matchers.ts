/**
 * `await expect(emulator).toRenderSlides(slug, options?)`: every slide of a
 * project (or those `options.slideIds` names) renders, as the editor renders
 * it. It checks through `emulator.control.checkSlides` (the emulator's own
 * deck check, the same as the control plane's and the CLI's), so a failure
 * lists each slide that did not render with its status, error kind, place
 * (`slide.tsx:line:column`) and message. With `layout: true` the slides are
 * also measured in a browser, and a layout finding fails the matcher too
 * (as the CLI's `--fail-on layout` fails `check`), each listed under its
 * slide; without a browser it rejects with the check's 503, naming the
 * matcher's `layout` option and how to give a browser. `.not` passes when
 * at least one slide does not render (or, with `layout: true`, has a
 * finding).
 *
 * Registered when `presentation-emulator/vitest` is imported (as a test
 * file's import, or in `setupFiles`); `slideMatchers` is the same object for
 * `expect.extend` by hand.
 */
import { expect } from 'vitest'
import { ServiceError } from '../core/errors.js'
import { failureLine } from '../model/slide-check-text.js'
import { type CheckSlidesOptions, type DeckCheckResult, SlideCheckErrorCodes } from '../model/slide-checks.js'
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
     * emulator's slide checker; passes when every one renders. With
     * `layout: true` (needs Chromium) it also measures each slide's layout
     * and passes only when no slide has a layout finding. Await it.
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

/** The failure message's body: a line per slide that did not render, then a line per layout finding (when measured). */
export function deckFailures(result: DeckCheckResult): string {
  return result.slides
    .flatMap((slide) => [
      ...(slide.status === 'rendered' ? [] : [`  ${failureLine(slide)}`]),
      ...(slide.layout ?? []).map((finding) => `  ${slide.position}. ${slide.slideId}: layout: ${finding.code}: ${finding.message}`),
    ])
    .join('\n')
}

/** The check, its 503 without a browser saying that the matcher's `layout` option asked for one. */
async function checkDeck(received: SlideCheckable, slug: string, options: CheckSlidesOptions | undefined): Promise<DeckCheckResult> {
  try {
    return await received.control.checkSlides(slug, options)
  } catch (error) {
    if (options?.layout !== true || !(error instanceof ServiceError) || error.code !== SlideCheckErrorCodes.unavailable) throw error
    throw new ServiceError(
      error.status,
      error.code,
      error.error,
      `toRenderSlides("${slug}", { layout: true }) measures layout in a browser, and none could check: ${error.hint ?? error.error}`,
      error.headers,
    )
  }
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
    const result = await checkDeck(received, slug, options)
    const total = result.slides.length
    if (options?.layout !== true) {
      const pass = result.failed === 0
      return {
        pass,
        message: () =>
          pass
            ? `expected a slide of "${slug}" not to render, but all ${plural(total, 'slide')} rendered`
            : `expected every slide of "${slug}" to render, but ${result.failed} of ${plural(total, 'slide')} did not:\n${deckFailures(result)}`,
      }
    }
    // With layout measured, a finding fails the matcher as a slide that does not render does (the CLI's `--fail-on layout`).
    const findings = result.slides.reduce((sum, slide) => sum + (slide.layout?.length ?? 0), 0)
    const pass = result.failed === 0 && findings === 0
    return {
      pass,
      message: () =>
        pass
          ? `expected a slide of "${slug}" not to render or to have a layout finding, but all ${plural(total, 'slide')} rendered with none`
          : `expected every slide of "${slug}" to render with no layout finding, but ${result.failed} of ${plural(total, 'slide')} did not render, and ${plural(findings, 'layout finding')} ${findings === 1 ? 'was' : 'were'} found:\n${deckFailures(result)}`,
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
