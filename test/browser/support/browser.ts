/**
 * The browser tests' launcher: Debian's Chromium (`apt-get install -y
 * chromium`) driven by playwright-core. Playwright's own browser download
 * does not work on our machines, so the executable is given explicitly
 * (`CHROMIUM_PATH` overrides `/usr/bin/chromium`).
 */
import { existsSync } from 'node:fs'
import { chromium, type Browser } from 'playwright-core'

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/** The flags every browser test launches Chromium with (headless, sandbox off for containers, no phoning home). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]

/** Launches headless Chromium, or fails with a message saying how to install it. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM_PATH}. Install Debian's package (apt-get update && apt-get install -y chromium) or set CHROMIUM_PATH.`,
    )
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS })
}
