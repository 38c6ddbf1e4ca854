import type { Browser } from 'playwright-core'

/** Debian's Chromium, which the benchmark's browser parts drive (playwright's own download does not work here). */
export const CHROMIUM = '/usr/bin/chromium'

/** Headless Chromium as the benchmark measures it: no GPU, no background traffic, no first-run work. */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core')
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  })
}
