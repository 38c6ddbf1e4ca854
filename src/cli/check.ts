/**
 * `presentation-emulator check`: does each slide render, as the editor
 * renders it? On slide folders on disk (`check ./slides`), or on a project
 * of a running emulator (`check --base-url URL SLUG [SLIDE_ID...]`). Every
 * slide is checked here, in this process's own emulator (built as the
 * library builds one, never listening), through the same slide-checker port
 * as `emulator.control.checkSlides` and the control plane's check: one
 * implementation, whichever way in.
 *
 * Loaded only when `check` runs (`main.ts` declares its flags).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describeIssues } from '../core/validation.js'
import { checkDeck, type DeckSlide } from '../model/deck-check.js'
import { newProjectConfig } from '../model/projects.js'
import { DEFAULT_PICTURE_WIDTH, type DeckCheckResult, type SlideCheckReport } from '../model/slide-checks.js'
import { ProjectConfig } from '../schemas/index.js'
import { humanReport, jsonReport, junitReport, layoutFindings, summaryLine } from './check-report.js'
import { EXIT } from './exit-codes.js'
import { remoteDeck, TargetError } from './remote-deck.js'
import { firstUnwritable, type Io, type Reporter, type ReporterName, reportStreams } from './reporter.js'
import { findSlideFolders, folderDeck, SlideFolderError } from './slide-folders.js'

/** The flags of `check`, as `main.ts` parses them. */
export interface CheckFlags {
  baseUrl?: string
  apiKey?: string
  config?: string
  /** The deck's budget, in ms. */
  budget: number
  /** A folder to write a PNG of each slide that renders to. */
  pictures?: string
  /** The pictures' width, in pixels (default 1280). */
  pictureWidth?: number
  /** Measure each slide's layout in the browser (implied by `pictures` and `failOn`). */
  layout?: boolean
  /** Findings that fail the check besides slides that do not render. */
  failOn?: 'layout'
}

/** What `check` was asked to do, once its flags are read. */
export interface CheckRequest {
  /** A folder, or (with `baseUrl`) a project's slug. */
  target: string
  slideIds: string[]
  flags: CheckFlags
  reporter: Reporter<ReporterName>
  /** Where the report's file flag came from, as a message names it (`--reporter` or `--output`). */
  fileFlag: string
  /** Whether `--api-key` was given on the command line (not only in the environment). */
  apiKeyOnCommandLine: boolean
}

/** `check`'s streams: `io`, and whether progress may be shown (stderr is a terminal). */
export interface CheckIo extends Io {
  progress: boolean
}

const NAME = 'presentation-emulator check'

/** A configuration problem: reported as `presentation-emulator check: message`, exit 2. */
class UsageProblem extends Error {}

/** Reads `--config`: a ProjectConfig (as `project.config.json` holds it) or `{"config": …}` (as `GET …/config` answers). */
async function readConfig(file: string): Promise<ProjectConfig> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    throw new UsageProblem(`--config: cannot read ${file}: ${(error as Error).message}`)
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    const { locateJsonSyntaxError, lineColumn } = await import('../model/slide-validation.js')
    const found = locateJsonSyntaxError(text, (error as Error).message)
    const place = found === undefined ? undefined : lineColumn(text, found.offset)
    const at = place === undefined ? '' : `:${place.line}:${place.column}`
    throw new UsageProblem(`--config: ${file}${at} is not JSON: ${found?.message ?? (error as Error).message}`)
  }
  const unwrapped =
    typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 1 && 'config' in value
      ? (value as { config: unknown }).config
      : value
  const parsed = ProjectConfig.safeParse(unwrapped)
  if (!parsed.success) throw new UsageProblem(`--config: ${file} is not a project config: ${describeIssues(parsed.error.issues)}`)
  return parsed.data
}

/** The deck to check, and the name its result goes by. */
async function deckOf(request: CheckRequest): Promise<{ project: string; slides: DeckSlide[] }> {
  const { target, slideIds, flags } = request
  if (flags.baseUrl !== undefined) {
    if (flags.config !== undefined) throw new UsageProblem('--config is for slide folders: a project’s slides are styled by its own config')
    const { slides } = await remoteDeck({ baseUrl: flags.baseUrl, apiKey: flags.apiKey, slug: target, slideIds })
    return { project: target, slides }
  }
  if (slideIds.length > 0)
    throw new UsageProblem(
      `slide ids (${slideIds.join(', ')}) are for a project: give --base-url URL SLUG SLIDE_ID…, or point check at the slide's folder`,
    )
  if (request.apiKeyOnCommandLine) throw new UsageProblem('--api-key needs --base-url: slide folders are read from disk')
  const config = flags.config === undefined ? newProjectConfig() : await readConfig(flags.config)
  return { project: target, slides: folderDeck(await findSlideFolders(target), config) }
}

/** Progress on stderr, on one line rewritten in place (only on a terminal). */
function progressOf(io: CheckIo): { onProgress?: (done: number, total: number) => void; clear: () => void } {
  if (!io.progress) return { clear: () => {} }
  let shown = false
  return {
    onProgress: (done, total) => {
      shown = true
      io.err(`\r\x1b[Kchecked ${done} of ${total} slide${total === 1 ? '' : 's'}`)
    },
    clear: () => {
      if (shown) io.err('\r\x1b[K')
    },
  }
}

/** Runs `check`; resolves to its exit code (0 every slide rendered, 1 one did not, 2 usage or configuration). */
export async function runCheck(request: CheckRequest, io: CheckIo): Promise<number> {
  const fail = (message: string) => {
    io.err(`${NAME}: ${message}\n`)
    return EXIT.usage
  }
  const { reporter } = request
  const unwritable = firstUnwritable([[request.fileFlag, reporter.file]])
  if (unwritable !== undefined) return fail(unwritable)
  const progress = progressOf(io)
  let result: DeckCheckResult
  try {
    const { project, slides } = await deckOf(request)
    // The checker's host: an emulator of this process, built as the library builds one; it never listens.
    const { createEmulator } = await import('./serve-modules.js')
    const { flags } = request
    const layout = flags.layout === true || flags.failOn === 'layout' || flags.pictures !== undefined
    const picturesDir = flags.pictures
    if (picturesDir !== undefined) {
      try {
        await mkdir(picturesDir, { recursive: true })
      } catch (error) {
        throw new UsageProblem(`--pictures: cannot make ${picturesDir}: ${(error as Error).message}`)
      }
    }
    const emulator = createEmulator()
    try {
      await emulator.ready()
      result = await checkDeck(emulator.emulator.slideChecker, project, slides, {
        budgetMs: flags.budget,
        onProgress: progress.onProgress,
        ...(layout && { layout: true }),
        ...(picturesDir !== undefined && {
          pictures: {
            width: flags.pictureWidth ?? DEFAULT_PICTURE_WIDTH,
            onPicture: async (report: SlideCheckReport, png: Uint8Array) => {
              const file = join(picturesDir, pictureFileName(report))
              try {
                await writeFile(file, png)
              } catch (error) {
                throw new UsageProblem(`--pictures: cannot write ${file}: ${(error as Error).message}`)
              }
            },
          },
        }),
      })
    } finally {
      progress.clear()
      await emulator.close().catch(() => undefined)
    }
  } catch (error) {
    if (error instanceof UsageProblem || error instanceof TargetError || error instanceof SlideFolderError) return fail(error.message)
    // The checker could not check at all (no renderer in this build, a browser that cannot start).
    return fail(`cannot check slides: ${(error as Error).message}`)
  }
  const streams = reportStreams(reporter, io)
  if (reporter.name === 'human' || reporter.file !== undefined) streams.lines(humanReport(result))
  else streams.lines(`${summaryLine(result)}\n`)
  if (reporter.name !== 'human') {
    const problem = streams.report(reporter.name === 'json' ? jsonReport(result) : junitReport(result))
    if (problem !== undefined) return fail(`${request.fileFlag}: ${problem}`)
  }
  if (result.failed > 0) return EXIT.findings
  if (request.flags.failOn === 'layout' && layoutFindings(result) > 0) return EXIT.findings
  return EXIT.ok
}

/** A picture's file name: the slide's position (zero-padded to sort) and its id, made safe for a file name (`03-intro.png`, `01-slides_intro.png`). */
export function pictureFileName(report: Pick<SlideCheckReport, 'position' | 'slideId'>): string {
  const safe =
    report.slideId
      .replace(/[^A-Za-z0-9._-]+/g, '_')
      .replace(/^[._]+/, '')
      .slice(0, 100) || 'slide'
  return `${String(report.position).padStart(2, '0')}-${safe}.png`
}
