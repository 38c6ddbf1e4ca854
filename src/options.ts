import type { ClockMode } from './core/clock.js'
import { logUnexpectedError } from './core/errors.js'
import { DEFAULT_BASE_URL } from './defaults.js'
import { normaliseOrigin } from './core/web-guard.js'
import { DEFAULT_JOURNAL_BYTES, DEFAULT_JOURNAL_SIZE, type JournalEntry } from './core/journal.js'
import { BUILT_IN_FIXTURES, parseFixtures } from './fixtures/load.js'
import type { FixturesDocument, FixturesInput } from './fixtures/schema.js'
import type { PersistOption } from './adapters/web-storage.js'

/** Options of one emulator. Every option has a default; see docs/reference/create-emulator.md and the flags table of docs/guides/cli.md. */
export interface EmulatorOptions {
  /** Fixtures and generated ids are a pure function of the seed. Default 1. */
  seed?: number
  /** A fixtures document replacing the built-in world. */
  fixtures?: FixturesInput
  /**
   * The API base URL clients call, ending in the version segment
   * (default `http://127.0.0.1:4010/v1`). msw handlers intercept it; the
   * socket-free `fetch` maps its path onto the API.
   */
  baseUrl?: string
  /** Origin used in `editorUrl` / `publishedUrl`; default: the listen origin, else the base URL's origin. */
  publicUrl?: string
  /** Simulated generation time = nominal × timeScale; 0 completes at once. Default 0.02. */
  timeScale?: number
  /** `real` (default) or `manual`: time moves only through the control plane. */
  clock?: ClockMode
  /** Where a manual clock starts (ISO date-time or epoch ms); default the fixtures' epoch. */
  clockStart?: string | number
  /**
   * Requests per minute per user (the spec's limit is 50); 0 turns the limit
   * off. Default 0 in-process: a test file making many requests never sees a
   * 429 it did not ask for. The CLI and `exec` default to the spec's 50.
   */
  rateLimit?: number
  /** When set, `/_emulator/*` requires `Authorization: Bearer <adminToken>`. */
  adminToken?: string
  /**
   * Origins of web pages that may drive the control plane and read the
   * pages cross-origin (CORS), besides the emulator's own origin
   * (`--allowed-origin`). Default none.
   */
  allowedOrigins?: readonly string[]
  /**
   * Host names accepted in the `Host` header by a server from `listen()`
   * besides loopback names and the `publicUrl` host (`--allowed-host`).
   * Default none.
   */
  allowedHosts?: readonly string[]
  /**
   * Let the pages load images from other origins (image blocks with a remote
   * `url`), and widen their CSP's `img-src` to match. Default false: the
   * emulator stays offline, and a remote image shows as a labelled placeholder.
   */
  allowRemoteImages?: boolean
  /**
   * Checked saving (emulator choice, off by default; the CLI's
   * `--check-slides-on-save`): `PUT /projects/{slug}/slides/{slideId}`
   * renders the slide as it would be stored (the stored files merged with
   * those sent, the project's current theme) before saving it, and answers
   * 400 `SLIDE_DOES_NOT_RENDER` (hint `slide.tsx:line:column: message`),
   * saving nothing, when it does not render; 503 when the checker cannot
   * answer. Needs a slide checker: the Node entry has one; the browser
   * entry and msw in a page refuse the option.
   */
  checkSlidesOnSave?: boolean
  /**
   * The Chromium executable the slide checker takes pictures and measures
   * layouts with (Node entry only). Default: the `CHROMIUM_PATH`
   * environment variable, else the usual install locations
   * (`/usr/bin/chromium` first). Data checks need no browser.
   */
  chromiumPath?: string
  /** Check every 200 response against its schema and answer 500 on a mismatch (for the emulator's own tests). */
  validateResponses?: boolean
  /** How many requests the journal keeps. Default 10,000. */
  journalSize?: number
  /** About how many bytes the journal's entries may hold (bodies exactly, plus 1 KiB per entry); default 64 MiB. */
  journalBytes?: number
  /**
   * Keeps the state across page reloads in a browser: `'sessionStorage'`,
   * `'localStorage'`, or `{ storage, key? }` (default key
   * `presentation-emulator:state`). Loaded before the first answer, saved
   * before every answer that changed something; `control.reset()` saves
   * the seeded world. In Node, use the Node entry's `stateFile` (a JSON
   * file, as the CLI's `--state`) instead; not both.
   */
  persist?: PersistOption
  /** Called after every `/v1` request. */
  onRequest?: (entry: JournalEntry) => void
  /** Called with every unexpected error (answered as 500). Default: `console.error`. */
  onError?: (error: unknown) => void
}

/** The epoch of the built-in fixtures, where a manual clock starts by default. */
const BUILT_IN_EPOCH = BUILT_IN_FIXTURES.epoch ?? '2026-01-01T00:00:00.000Z'

export { DEFAULT_BASE_URL }

/** The options with every default filled in and every value checked. */
export interface ResolvedOptions {
  seed: number
  /** Undefined: the built-in fixtures. */
  fixtures: FixturesDocument | undefined
  baseUrl: URL
  publicUrl: string | undefined
  timeScale: number
  clock: ClockMode
  clockStart: number
  rateLimit: number
  adminToken: string | undefined
  allowedOrigins: ReadonlySet<string>
  allowedHosts: readonly string[]
  allowRemoteImages: boolean
  checkSlidesOnSave: boolean
  chromiumPath: string | undefined
  validateResponses: boolean
  journalSize: number
  journalBytes: number
  onRequest: ((entry: JournalEntry) => void) | undefined
  onError: (error: unknown) => void
}

/** Fills in defaults and checks every option; a bad one throws a `TypeError` naming it. */
export function resolveOptions(options: EmulatorOptions): ResolvedOptions {
  const seed = options.seed ?? 1
  if (!Number.isSafeInteger(seed)) throw new TypeError('seed must be an integer')
  const timeScale = options.timeScale ?? 0.02
  if (!(timeScale >= 0) || !Number.isFinite(timeScale)) throw new TypeError('timeScale must be a finite number ≥ 0')
  const rateLimit = options.rateLimit ?? 0
  if (!Number.isInteger(rateLimit) || rateLimit < 0) throw new TypeError('rateLimit must be an integer ≥ 0')
  const clock = options.clock ?? 'real'
  if (clock !== 'real' && clock !== 'manual') throw new TypeError('clock must be "real" or "manual"')
  let baseUrl: URL
  try {
    baseUrl = new URL(options.baseUrl ?? DEFAULT_BASE_URL)
  } catch {
    throw new TypeError(`baseUrl is not an absolute URL: ${options.baseUrl}`)
  }
  let publicUrl: string | undefined
  if (options.publicUrl !== undefined) {
    try {
      publicUrl = new URL(options.publicUrl).origin
    } catch {
      throw new TypeError(`publicUrl is not an absolute URL: ${options.publicUrl}`)
    }
  }
  const allowedOrigins = new Set<string>()
  for (const origin of options.allowedOrigins ?? []) {
    try {
      allowedOrigins.add(normaliseOrigin(origin))
    } catch {
      throw new TypeError(`allowedOrigins: not an http(s) origin: ${origin}`)
    }
  }
  const allowedHosts = (options.allowedHosts ?? []).map((host) => {
    if (typeof host !== 'string' || !/^[A-Za-z0-9.:[\]-]+$/.test(host)) throw new TypeError(`allowedHosts: not a host name: ${host}`)
    return host.toLowerCase()
  })
  if (options.allowRemoteImages !== undefined && typeof options.allowRemoteImages !== 'boolean') {
    throw new TypeError('allowRemoteImages must be a boolean')
  }
  if (options.checkSlidesOnSave !== undefined && typeof options.checkSlidesOnSave !== 'boolean') {
    throw new TypeError('checkSlidesOnSave must be a boolean')
  }
  if (options.chromiumPath !== undefined && (typeof options.chromiumPath !== 'string' || options.chromiumPath === '')) {
    throw new TypeError('chromiumPath must be the path of a Chromium executable (a non-empty string)')
  }
  const fixtures = options.fixtures === undefined ? undefined : parseFixtures(options.fixtures)
  const clockStart =
    options.clockStart === undefined
      ? Date.parse(fixtures?.epoch ?? BUILT_IN_EPOCH)
      : typeof options.clockStart === 'number'
        ? options.clockStart
        : Date.parse(options.clockStart)
  if (Number.isNaN(clockStart)) throw new TypeError(`clockStart is not a date: ${options.clockStart}`)
  return {
    seed,
    fixtures,
    baseUrl,
    publicUrl,
    timeScale,
    clock,
    clockStart,
    rateLimit,
    adminToken: options.adminToken,
    allowedOrigins,
    allowedHosts,
    allowRemoteImages: options.allowRemoteImages ?? false,
    checkSlidesOnSave: options.checkSlidesOnSave ?? false,
    chromiumPath: options.chromiumPath,
    validateResponses: options.validateResponses ?? false,
    journalSize: options.journalSize ?? DEFAULT_JOURNAL_SIZE,
    journalBytes: options.journalBytes ?? DEFAULT_JOURNAL_BYTES,
    onRequest: options.onRequest,
    onError: options.onError ?? logUnexpectedError,
  }
}
