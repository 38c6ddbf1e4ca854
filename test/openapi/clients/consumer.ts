/**
 * What each consumer of a generated client is given and what it reports.
 * The consumers in this folder are compiled (under `strict`) together with
 * the clients the generators write from the OpenAPI document, by
 * `test/openapi/generators.test.ts`: they import files that exist only
 * there, so the project's own typecheck leaves this folder out.
 */

/** Where the emulator answers, and how to reach it. */
export interface Target {
  /** The API base URL, ending in `/v1`. */
  baseUrl: string
  apiKey: string
  /** `emulator.fetch` (no socket), or the global fetch against `listen()`. */
  fetch: typeof fetch
}

/** What a consumer saw, in the types its generated client gave it. */
export interface Observed {
  /** A tokens update with a palette only: its status and the tokens it answered. */
  tokensStatus: number
  palette: unknown[] | undefined
  fonts: unknown[] | undefined
  /** A job that failed: its status and its `error`, read as a string. */
  jobStatus: string
  jobError: string
  /** A slide update with a body over 1 MiB: its status and the error text of the typed 413. */
  tooLargeStatus: number
  tooLargeError: string
}

/** The observation, from what each client answered. */
export function observed(
  tokens: { status: number; config: { tokens?: { palette?: unknown[]; fonts?: unknown[] } } | undefined },
  job: { status: string; error: string },
  tooLarge: { status: number; error: { error: string } | undefined },
): Observed {
  return {
    tokensStatus: tokens.status,
    palette: tokens.config?.tokens?.palette,
    fonts: tokens.config?.tokens?.fonts,
    jobStatus: job.status,
    jobError: job.error,
    tooLargeStatus: tooLarge.status,
    tooLargeError: tooLarge.error?.error ?? '',
  }
}

/** The prompt of a job that fails (an emulator choice), and a `slide.tsx` over 1 MiB. */
export const FAILING_PROMPT = 'emulator:fail a deck that cannot be generated'
export const HUGE_SLIDE = `export default function Slide() { return null }\n//${'x'.repeat(1024 * 1024)}\n`

/** How often a consumer asks for a job before giving up (the emulator runs with `timeScale: 0`). */
export const MAX_POLLS = 20
