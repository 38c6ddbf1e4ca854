/**
 * Checked saving (`checkSlidesOnSave`, issue 32): before
 * `PUT /projects/{slug}/slides/{slideId}` saves, the slide is rendered as it
 * would be stored (the stored files merged with those sent, the project's
 * current config and theme) through the slide-checker port, and a slide that
 * does not render is refused with the spec's error body, saving nothing.
 *
 * The check runs without the world's lock: the files and config are read
 * under it (the 404s and the files' validation come first, as without the
 * option), then the lock is let go while the checker renders. The save
 * itself then runs under the lock as usual, after `stillAsChecked` has
 * looked again: if a concurrent write changed what would be stored (another
 * file of the slide, the project's config) in between, the pipeline checks
 * the new snapshot instead (at most `CHECKED_SAVE_ATTEMPTS` times, then 503
 * `SLIDE_CHECK_CONTENDED`). So what is saved is always what was checked.
 */
import { ServiceError } from '../core/errors.js'
import type { Principal } from '../model/access.js'
import { accessibleProject } from '../model/access.js'
import { checkerUnavailable, queueFull, SlideCheckQueueFullError, type SlideCheckService } from '../model/slide-check-service.js'
import type { SlideCheckInput, SlideCheckResult } from '../model/slide-checker.js'
import { SlideCheckErrorCodes } from '../model/slide-checks.js'
import { type PartialSlideFiles, SLIDE_FILE_NAMES, type SlideFiles } from '../schemas/index.js'
import type { World } from '../store/world.js'
import { assertValidFiles, projectSlide } from './slides.js'

/** How many times a checked save checks again when a concurrent write changed its slide or config meanwhile. */
export const CHECKED_SAVE_ATTEMPTS = 3

/** What a checked save needs of the emulator. */
export interface CheckedSaveHost {
  readonly world: World
  readonly slideChecks: SlideCheckService
  exclusive<T>(task: () => Promise<T> | T): Promise<T>
}

/** What a checked save checked; `stillAsChecked(world)`, under the lock, says whether saving now would store exactly that. */
export interface CheckedSave {
  stillAsChecked(world: World): boolean
}

/** The slide's files as they would be stored and the project's config; the handler's own 404 when either is missing. */
function wouldStore(
  world: World,
  principal: Principal,
  slug: string,
  slideId: string,
  sent: PartialSlideFiles,
): SlideCheckInput & { projectId: string } {
  const project = accessibleProject(world, principal, slug)
  const slide = projectSlide(world, project, slideId)
  const files: SlideFiles = { ...slide.files }
  for (const name of SLIDE_FILE_NAMES) {
    const text = sent[name]
    if (text !== undefined) files[name] = text
  }
  return { files, config: project.config, projectId: project.id }
}

/** Same files and same config (the config compared as JSON: a config write replaces the record). */
function sameInput(a: SlideCheckInput, b: SlideCheckInput): boolean {
  return (
    SLIDE_FILE_NAMES.every((name) => a.files[name] === b.files[name]) &&
    (a.config === b.config || JSON.stringify(a.config) === JSON.stringify(b.config))
  )
}

/** `file:line:column: message`, as the validation hints read (line and column when the checker knows them). */
export function renderHint(result: SlideCheckResult): string {
  const error = result.error
  if (error === undefined) return `slide.tsx: the slide did not render (${result.status})`
  const where = error.line === undefined ? error.file : `${error.file}:${error.line}${error.column === undefined ? '' : `:${error.column}`}`
  return `${where}: ${error.message} (${result.status === 'error' ? error.kind : result.status}; nothing was saved)`
}

/**
 * Checks what `PUT …/slides/{slideId}` would store. Throws the usual 404 or
 * 400 `VALIDATION_ERROR` first; then 400 `SLIDE_DOES_NOT_RENDER` when the
 * slide fails to render, 503 `SLIDE_CHECKER_UNAVAILABLE` when the checker
 * cannot answer (or stopped during the check: `crashed`), 503
 * `SLIDE_CHECK_QUEUE_FULL` with `Retry-After` when too many checks wait.
 */
export async function checkSave(
  host: CheckedSaveHost,
  principal: Principal,
  params: { slug: string; slideId: string },
  sent: PartialSlideFiles,
): Promise<CheckedSave> {
  const { checked, projectId } = await host.exclusive(() => {
    const input = wouldStore(host.world, principal, params.slug, params.slideId, sent)
    return { checked: { files: input.files, config: structuredClone(input.config) }, projectId: input.projectId }
  })
  await assertValidFiles(sent)
  let result: SlideCheckResult
  try {
    // Recorded as the result of these files: a badge shows it while they are the slide's stored files (not after a refused save).
    result = await host.slideChecks.checkOne(checked, { projectId, slideId: params.slideId })
  } catch (error) {
    if (error instanceof SlideCheckQueueFullError) throw queueFull(503, error)
    throw checkerUnavailable(error)
  }
  if (result.status === 'crashed') {
    throw new ServiceError(
      503,
      SlideCheckErrorCodes.unavailable,
      'Slide checker unavailable',
      `the slide checker stopped while checking the slide (${result.error?.message ?? 'crashed'}); nothing was saved`,
    )
  }
  if (result.status !== 'rendered') {
    throw new ServiceError(400, SlideCheckErrorCodes.doesNotRender, 'Slide does not render', renderHint(result))
  }
  return {
    stillAsChecked(world) {
      try {
        return sameInput(wouldStore(world, principal, params.slug, params.slideId, sent), checked)
      } catch {
        // The slide or project went away meanwhile: the handler answers its 404.
        return true
      }
    },
  }
}

/** The 503 of a checked save whose slide or config kept changing while it was checked. */
export function contended(): ServiceError {
  return new ServiceError(
    503,
    SlideCheckErrorCodes.contended,
    'Slide check contended',
    `the slide or its project's config changed while it was checked, ${CHECKED_SAVE_ATTEMPTS} times; nothing was saved`,
    { 'retry-after': '1' },
  )
}
