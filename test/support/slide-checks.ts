/**
 * The slide-check tests' shared setup: a stand-in for the slide-checker
 * *port* (`SlideChecker`, never our own code) for the moments the real
 * checker cannot be made to give on cue, an emulator built around it as the
 * entries build one, the seeded deck's slide ids, and the `ServiceError` a
 * call rejects with. The real checker is tested in the process and browser
 * tiers.
 */
import { afterEach, expect } from 'vitest'
import { ServiceError } from '../../src/core/errors.js'
import { buildEmulator, type PresentationEmulatorBase } from '../../src/create-emulator.js'
import type { EmulatorOptions, EmulatorParts } from '../../src/emulator.js'
import type { LayoutFinding, SlideChecker, SlideCheckInput, SlideCheckOptions, SlideCheckResult } from '../../src/model/slide-checker.js'
import { loadMswHttp } from '../../src/node/ways-in.js'

export const ORIGIN = 'http://127.0.0.1:4010'
export const ALICE = 'pres_test_alice'

/** A slide that rendered. */
export const RENDERED: SlideCheckResult = { status: 'rendered', text: 'Fine', elements: 2, notes: [] }
/** A slide that threw; its message has characters a page must escape. */
export const THROWS: SlideCheckResult = {
  status: 'error',
  error: { kind: 'runtime', message: 'boom & <bust>', file: 'slide.tsx', line: 3, column: 9 },
  text: '',
  elements: 0,
  notes: [],
}

/** The stand-in's answer by default: a slide whose `slide.tsx` says BROKEN throws, any other renders. */
const brokenOrRendered = (input: SlideCheckInput): SlideCheckResult =>
  structuredClone(input.files['slide.tsx'].includes('BROKEN') ? THROWS : RENDERED)

/** What every stand-in for the port shares: it is available, takes no pictures and has nothing to close. */
export abstract class CheckerDouble implements SlideChecker {
  readonly available = true
  abstract check(input: SlideCheckInput, options?: SlideCheckOptions): Promise<SlideCheckResult>
  picture(): Promise<Uint8Array> {
    return Promise.reject(new Error('no pictures here'))
  }
  close(): Promise<void> {
    return Promise.resolve()
  }
}

/**
 * A stand-in for the slide-checker port: answers each check at once with
 * `answer(input)`, counts the checks and keeps what each was asked. As the
 * real checker does, it adds `layout` findings (its `layout` list) to a
 * rendered result only when the check asks for them.
 */
export class StandInChecker extends CheckerDouble {
  readonly asked: Array<{ input: SlideCheckInput; options: SlideCheckOptions | undefined }> = []
  /** Layout findings a rendered result carries when the check asks for layout (as a checker with a browser measures them). */
  layout: LayoutFinding[] = []
  constructor(private readonly answer: (input: SlideCheckInput) => SlideCheckResult | Promise<SlideCheckResult> = brokenOrRendered) {
    super()
  }
  get checks(): number {
    return this.asked.length
  }
  async check(input: SlideCheckInput, options?: SlideCheckOptions): Promise<SlideCheckResult> {
    this.asked.push({ input, options })
    const result = await this.answer(input)
    return options?.layout === true && result.status === 'rendered' ? { ...result, layout: structuredClone(this.layout) } : result
  }
}

/**
 * Builds emulators as the entries build them (`buildEmulator` with MSW's
 * `http`), `checker` as the slide checker (none: `NO_SLIDE_CHECKER`) and
 * `mounts` as the pages (none: the API and control plane only); each is
 * closed after its test. Call it once at the top of a test file.
 */
export function checkerEmulators(): (
  checker?: SlideChecker,
  options?: EmulatorOptions,
  mounts?: EmulatorParts['mounts'],
) => PresentationEmulatorBase {
  const built: PresentationEmulatorBase[] = []
  afterEach(async () => {
    await Promise.all(built.splice(0).map((emulator) => emulator.close()))
  })
  return (checker, options = {}, mounts) => {
    const emulator = buildEmulator(
      { clock: 'manual', ...options },
      {
        http: loadMswHttp,
        parts: {
          ...(mounts !== undefined && { mounts }),
          ...(checker !== undefined && { slideChecker: () => checker }),
        },
      },
    )
    built.push(emulator)
    return emulator
  }
}

/** The slide ids of a project of Alice's, in deck order, read through `/v1`. */
export async function slideIdsOf(emulator: Pick<PresentationEmulatorBase, 'fetch'>, slug = 'welcome-deck'): Promise<string[]> {
  const response = await emulator.fetch(`${ORIGIN}/v1/projects/${slug}/slides`, { headers: { authorization: `Bearer ${ALICE}` } })
  expect(response.status, `the slides of ${slug}`).toBe(200)
  const body = (await response.json()) as { slides: { id: string }[] }
  return body.slides.map((slide) => slide.id)
}

/** The `ServiceError` a call rejects with (failing the test when it resolves or rejects with something else). */
export async function rejection(promise: Promise<unknown>): Promise<ServiceError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(ServiceError)
  return error as ServiceError
}
