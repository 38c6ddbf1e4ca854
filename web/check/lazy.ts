/**
 * The web room's slide checker as a composition root hands it to an
 * emulator: nothing of it (the Node checker and its process's script, the
 * harness, playwright-core, Chromium) loads until the first check or
 * picture asks for it, so an emulator that never checks a slide starts and
 * runs as before.
 */
import type { SlideChecker } from '../../src/model/slide-checker.js'
import type { BrowserDiagnostics, SlideCheckHost, WebSlideChecker } from './index.js'

/** The lazy checker: the port, and what its browser saw (nothing before it starts). */
export interface LazySlideChecker extends SlideChecker {
  diagnostics(): Promise<BrowserDiagnostics>
}

/** A `SlideChecker` for `host` that loads the web room's checker (`./index.ts`) on first use. */
export function lazySlideChecker(host: SlideCheckHost): LazySlideChecker {
  let loading: Promise<WebSlideChecker> | undefined
  const checker = () =>
    (loading ??= import('./index.js').then(({ createSlideChecker }) => {
      // The emulator's `chromiumPath` option, when it has one (else CHROMIUM_PATH, else the usual locations): read on first
      // use, since the emulator builds its checker before its options are set.
      const executablePath = (host as { chromiumPath?: string }).chromiumPath
      return createSlideChecker(host, executablePath === undefined ? {} : { executablePath })
    }))
  return {
    available: true,
    check: async (input, options) => (await checker()).check(input, options),
    picture: async (input, options) => (await checker()).picture(input, options),
    inspect: async (input, options) => (await checker()).inspect(input, options),
    // Registered on the loading checker before the `inspect` calls that follow it, so it runs first.
    inspectAhead: (inputs, options) =>
      void checker().then(
        (loaded) => loaded.inspectAhead(inputs, options),
        () => undefined,
      ),
    diagnostics: async () =>
      loading === undefined ? { blockedRequests: [], requestsByOrigin: {}, documentLoads: {}, errors: [] } : (await loading).diagnostics(),
    // A checker never used has nothing to end.
    close: async () => {
      if (loading !== undefined) await (await loading).close()
    },
  }
}
