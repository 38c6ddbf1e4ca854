/**
 * Slide checks (issue 32) without a renderer: the core's service behind the
 * control plane's `POST /_emulator/projects/{slug}/slides/check`,
 * `emulator.control.checkSlides` and checked saving. Validation, 404s and
 * a build without a checker use the real parts (`new Emulator()` and
 * `buildEmulator` without a checker have `NO_SLIDE_CHECKER`). The rest needs
 * a checker held at a chosen moment (a full queue, a write between a check
 * and its save, a deck's budget running out, a checker that crashes or
 * cannot start), which the real one cannot be made to do on cue: those use a
 * test double of the *port* (`SlideChecker`) only, and say so. The real
 * checker's ways in are in `ways-in.test.ts` (the process tier).
 */
import { describe, expect, it } from 'vitest'
import { createEmulator as createBrowserEmulator } from '../../src/browser.js'
import type { PresentationEmulatorBase } from '../../src/create-emulator.js'
import { Emulator } from '../../src/emulator.js'
import { SlideCheckService } from '../../src/model/slide-check-service.js'
import {
  NO_SLIDE_CHECKER_MESSAGE,
  type SlideCheckInput,
  type SlideCheckResult,
  SlideCheckerUnavailableError,
} from '../../src/model/slide-checker.js'
import { MAX_PENDING_SLIDE_CHECKS, SLIDE_CHECK_RETRY_AFTER_S } from '../../src/model/slide-checks.js'
import {
  ALICE,
  CheckerDouble,
  checkerEmulators,
  ORIGIN,
  RENDERED,
  rejection,
  slideIdsOf,
  StandInChecker,
  THROWS,
} from '../support/slide-checks.js'

/** An emulator as the entries build it, with `checker` as its slide checker (none: `NO_SLIDE_CHECKER`); closed after each test. */
const emulatorWith = checkerEmulators()

/**
 * A test double of the slide-checker port (never of our own code): each
 * check waits until the test answers it, so a test can hold checks in
 * progress, change the world between a check and its save, or fail.
 */
class HeldChecker extends CheckerDouble {
  readonly asked: Array<{ input: SlideCheckInput; answer: (result: SlideCheckResult) => void; fail: (error: unknown) => void }> = []
  #waiters: Array<() => void> = []
  check(input: SlideCheckInput): Promise<SlideCheckResult> {
    return new Promise((answer, fail) => {
      this.asked.push({ input, answer, fail })
      for (const wake of this.#waiters.splice(0)) wake()
    })
  }
  /** Resolves once `n` checks have been asked for. */
  async until(n: number): Promise<void> {
    while (this.asked.length < n) await new Promise<void>((resolve) => this.#waiters.push(resolve))
  }
}

interface Reply {
  status: number
  headers: Headers
  body: any
}

async function call(
  emulator: PresentationEmulatorBase,
  method: string,
  path: string,
  init: { json?: unknown; key?: string | null; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...init.headers }
  if (init.key !== null && path.startsWith('/v1')) headers.authorization = `Bearer ${init.key ?? ALICE}`
  if (init.json !== undefined) headers['content-type'] = 'application/json'
  const response = await emulator.fetch(`${ORIGIN}${path}`, {
    method,
    headers,
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  })
  const text = await response.text()
  return { status: response.status, headers: response.headers, body: text === '' ? undefined : JSON.parse(text) }
}

function expectError(reply: Reply, status: number, code: string): void {
  expect({ status: reply.status, code: reply.headers.get('x-service-error-code') }).toEqual({ status, code })
  expect(reply.body.error).toBeTypeOf('string')
}

describe('checking a deck: bad input, unknown ids and a build without a checker', () => {
  it('answers a build without a checker (new Emulator()) with 503 SLIDE_CHECKER_UNAVAILABLE, saying which builds have one', async () => {
    const emulator = new Emulator({ clock: 'manual' })
    await emulator.ready()
    const error = await rejection(emulator.control.checkSlides('welcome-deck'))
    expect([error.status, error.code]).toEqual([503, 'SLIDE_CHECKER_UNAVAILABLE'])
    expect(error.hint).toBe(NO_SLIDE_CHECKER_MESSAGE)
    emulator.close()
  })

  it('answers 404 for an unknown slug or slide id before anything is checked, naming them', async () => {
    const checker = new HeldChecker()
    const emulator = emulatorWith(checker)
    const missing = await rejection(emulator.control.checkSlides('no-such-deck'))
    expect([missing.status, missing.error, missing.hint]).toEqual([404, 'Project not found', 'no project "no-such-deck"'])
    const [first] = await slideIdsOf(emulator)
    const slide = await rejection(emulator.control.checkSlides('welcome-deck', { slideIds: [first!, 'sld_nope', 'sld_gone'] }))
    expect([slide.status, slide.error]).toEqual([404, 'Slide not found'])
    expect(slide.hint).toBe('no slide "sld_nope", "sld_gone" in project "welcome-deck"')
    // A slide of another project is unknown in this one.
    const [foreign] = await slideIdsOf(emulator, 'q3-business-review')
    expect((await rejection(emulator.control.checkSlides('welcome-deck', { slideIds: [foreign!] }))).status).toBe(404)
    expect(checker.asked).toHaveLength(0)
    // Over HTTP, the same 404 with the spec's error body.
    expectError(await call(emulator, 'POST', '/_emulator/projects/no-such-deck/slides/check'), 404, 'NOT_FOUND')
  })

  it('answers 404 before 503 in a build without a checker: the ids are judged first', async () => {
    const emulator = emulatorWith()
    expectError(await call(emulator, 'POST', '/_emulator/projects/no-such-deck/slides/check'), 404, 'NOT_FOUND')
    const reply = await call(emulator, 'POST', '/_emulator/projects/welcome-deck/slides/check')
    expectError(reply, 503, 'SLIDE_CHECKER_UNAVAILABLE')
    expect(reply.body).toEqual({ error: 'Slide checker unavailable', hint: NO_SLIDE_CHECKER_MESSAGE })
  })

  it.each([
    [{ budgetMs: 0 }, /^budgetMs: must be a whole number of milliseconds > 0/],
    [{ budgetMs: -5 }, /^budgetMs: must be a whole number of milliseconds > 0/],
    [{ budgetMs: 1.5 }, /^budgetMs: must be a whole number of milliseconds > 0/],
    [{ budgetMs: '100' }, /^budgetMs: must be a whole number of milliseconds > 0/],
    [{ budgetMs: 3_600_001 }, /^budgetMs: must be at most 3600000 ms/],
    [{ slideIds: 'sld_1' }, /^slideIds: /],
    [{ slideIds: [1] }, /^slideIds\[0\]: /],
    [{ slideIds: [''] }, /^slideIds\[0\]: a slide id is a non-empty string/],
    [{ slideIds: [] }, /^slideIds: give at least one slide id, or leave slideIds out/],
    [{ slides: ['sld_1'] }, /slides/],
  ])('refuses %j with 400 VALIDATION_ERROR, in-process and over HTTP, checking nothing', async (options, hint) => {
    const checker = new HeldChecker()
    const emulator = emulatorWith(checker)
    const error = await rejection(emulator.control.checkSlides('welcome-deck', options as never))
    expect([error.status, error.code]).toEqual([400, 'VALIDATION_ERROR'])
    expect(error.hint).toMatch(hint)
    const reply = await call(emulator, 'POST', '/_emulator/projects/welcome-deck/slides/check', { json: options })
    expectError(reply, 400, 'VALIDATION_ERROR')
    expect(reply.body.hint).toMatch(hint)
    expect(checker.asked).toHaveLength(0)
  })

  it('refuses an onProgress that is not a function in-process, and any onProgress in an HTTP body', async () => {
    const emulator = emulatorWith(new HeldChecker())
    const error = await rejection(emulator.control.checkSlides('welcome-deck', { onProgress: 'yes' } as never))
    expect(error.hint).toBe('onProgress: must be a function (done, total) => void')
    expectError(
      await call(emulator, 'POST', '/_emulator/projects/welcome-deck/slides/check', { json: { onProgress: 1 } }),
      400,
      'VALIDATION_ERROR',
    )
    expectError(await call(emulator, 'POST', '/_emulator/projects/welcome-deck/slides/check', { json: [1] }), 400, 'VALIDATION_ERROR')
  })

  it('keeps the control plane’s guards: the admin token, a foreign origin, and the wrong method', async () => {
    const emulator = emulatorWith(new StandInChecker(() => RENDERED), { adminToken: 'secret' })
    expectError(await call(emulator, 'POST', '/_emulator/projects/welcome-deck/slides/check'), 401, 'UNAUTHORIZED')
    const foreign = await call(emulator, 'POST', '/_emulator/projects/welcome-deck/slides/check', {
      headers: { authorization: 'Bearer secret', origin: 'https://evil.example' },
    })
    expectError(foreign, 403, 'FORBIDDEN')
    const wrongMethod = await call(emulator, 'GET', '/_emulator/projects/welcome-deck/slides/check', {
      headers: { authorization: 'Bearer secret' },
    })
    expectError(wrongMethod, 405, 'METHOD_NOT_ALLOWED')
    const ok = await call(emulator, 'POST', '/_emulator/projects/welcome-deck/slides/check', {
      headers: { authorization: 'Bearer secret' },
    })
    expect(ok.status).toBe(200)
  })
})

describe('checking a deck: order, progress, the queue and the budget (a test double of the port)', () => {
  it('checks the slides asked for in deck order with their positions, the project’s config with each, and reports progress', async () => {
    const seen: SlideCheckInput[] = []
    const emulator = emulatorWith(
      new StandInChecker((input) => {
        seen.push(input)
        return input.files['slide.tsx'].includes('Closing') ? THROWS : RENDERED
      }),
    )
    const ids = await slideIdsOf(emulator)
    const progress: Array<[number, number]> = []
    const all = await emulator.control.checkSlides('welcome-deck', { onProgress: (done, total) => progress.push([done, total]) })
    expect(all.project).toBe('welcome-deck')
    expect(all.slides.map((slide) => [slide.slideId, slide.position])).toEqual(ids.map((id, i) => [id, i + 1]))
    expect(progress).toEqual(ids.map((_, i) => [i + 1, ids.length]))
    expect(all.rendered + all.failed).toBe(ids.length)
    expect(all.failed).toBe(all.slides.filter((slide) => slide.status !== 'rendered').length)
    const config = (await call(emulator, 'GET', '/v1/projects/welcome-deck/config')).body.config
    expect(seen[0]!.config).toEqual(config)
    // Asked out of order and twice: checked once each, in deck order, with their deck positions.
    const some = await emulator.control.checkSlides('welcome-deck', { slideIds: [ids[2]!, ids[0]!, ids[2]!] })
    expect(some.slides.map((slide) => [slide.slideId, slide.position])).toEqual([
      [ids[0], 1],
      [ids[2], 3],
    ])
    // Over HTTP: the same result as JSON.
    const reply = await call(emulator, 'POST', '/_emulator/projects/welcome-deck/slides/check', { json: { slideIds: [ids[2]!, ids[0]!] } })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual(some)
  })

  it('checks one slide at a time across callers, and refuses one check past the bound with 429 and Retry-After', async () => {
    const checker = new HeldChecker()
    const emulator = emulatorWith(checker)
    const [first] = await slideIdsOf(emulator)
    const decks = Array.from({ length: MAX_PENDING_SLIDE_CHECKS }, () =>
      emulator.control.checkSlides('welcome-deck', { slideIds: [first!] }),
    )
    await checker.until(1)
    // Each deck reads its snapshot under the lock first, then joins the queue.
    while (emulator.emulator.slideChecks.pending < MAX_PENDING_SLIDE_CHECKS) await new Promise((resolve) => setTimeout(resolve, 0))
    // Sixteen checks are in progress or waiting, but the checker has one slide at a time.
    expect(checker.asked).toHaveLength(1)
    const refused = await rejection(emulator.control.checkSlides('welcome-deck'))
    expect([refused.status, refused.code, refused.headers['retry-after']]).toEqual([
      429,
      'SLIDE_CHECK_QUEUE_FULL',
      String(SLIDE_CHECK_RETRY_AFTER_S),
    ])
    const reply = await call(emulator, 'POST', '/_emulator/projects/welcome-deck/slides/check')
    expectError(reply, 429, 'SLIDE_CHECK_QUEUE_FULL')
    expect(reply.headers.get('retry-after')).toBe(String(SLIDE_CHECK_RETRY_AFTER_S))
    // The API is not held meanwhile: reads and writes answer while checks wait.
    expect((await call(emulator, 'GET', '/v1/projects/welcome-deck')).status).toBe(200)
    expect(
      (await call(emulator, 'PUT', '/v1/projects/welcome-deck/slides/' + first, { json: { files: { 'slide.content.json': '{}' } } }))
        .status,
    ).toBe(200)
    for (let i = 1; i <= MAX_PENDING_SLIDE_CHECKS; i++) {
      await checker.until(i)
      expect(checker.asked).toHaveLength(i)
      checker.asked[i - 1]!.answer(RENDERED)
    }
    expect((await Promise.all(decks)).every((deck) => deck.rendered === 1)).toBe(true)
    expect(emulator.emulator.slideChecks.pending).toBe(0)
  })

  it('reports the slide the budget cut short and the slides not reached as timeout, saying the deck’s budget ran out', async () => {
    const emulator = emulatorWith()
    await emulator.ready()
    let now = 0
    const checker = new StandInChecker(() => {
      now += 40
      return RENDERED
    })
    // The service on its own, with a clock the test moves: each check takes 40 ms of it.
    const service = new SlideCheckService(
      { slideChecker: checker, world: emulator.emulator.world, exclusive: (task) => emulator.emulator.exclusive(task) },
      () => now,
    )
    const ids = await slideIdsOf(emulator)
    const result = await service.checkDeck('welcome-deck', { budgetMs: 100 })
    expect(result.slides.map((slide) => slide.status)).toEqual(ids.map((_, i) => (i < 3 ? 'rendered' : 'timeout')))
    expect(result.slides[3]!.error).toEqual({
      kind: 'timeout',
      message: "The deck's check budget of 100 ms ran out before this slide was reached",
      file: 'slide.tsx',
    })
    expect([result.rendered, result.failed]).toEqual([3, ids.length - 3])
  })

  it('reports a slide still being checked when the budget runs out as timeout, and the next check waits for the checker', async () => {
    const checker = new HeldChecker()
    const emulator = emulatorWith(checker)
    const [first, second] = await slideIdsOf(emulator)
    const result = await emulator.control.checkSlides('welcome-deck', { slideIds: [first!, second!], budgetMs: 1 })
    expect(result.slides[0]!.error?.message).toBe("The deck's check budget of 1 ms ran out while this slide was being checked")
    expect(result.slides[1]!.error?.message).toMatch(/ran out before this slide was reached$/)
    // The checker still has the first slide: the next check is asked for only once it is done.
    const next = emulator.control.checkSlides('welcome-deck', { slideIds: [second!] })
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(checker.asked).toHaveLength(1)
    checker.asked[0]!.answer(RENDERED)
    await checker.until(2)
    checker.asked[1]!.answer(RENDERED)
    expect((await next).rendered).toBe(1)
  })

  it('answers 503 when the checker cannot start or answer (it rejects), and later checks still run', async () => {
    const checker = new HeldChecker()
    const emulator = emulatorWith(checker)
    const [first] = await slideIdsOf(emulator)
    const failing = emulator.control.checkSlides('welcome-deck', { slideIds: [first!] })
    await checker.until(1)
    checker.asked[0]!.fail(new Error('Chromium is not installed at /nowhere\nmore lines'))
    const error = await rejection(failing)
    expect([error.status, error.code, error.hint]).toEqual([
      503,
      'SLIDE_CHECKER_UNAVAILABLE',
      'the slide checker could not check the slide: Chromium is not installed at /nowhere',
    ])
    const again = emulator.control.checkSlides('welcome-deck', { slideIds: [first!] })
    await checker.until(2)
    checker.asked[1]!.answer(RENDERED)
    expect((await again).rendered).toBe(1)
  })
})

describe('checked saving: the option and its refusals', () => {
  it('is off by default: a slide that would not render is saved', async () => {
    const checker = new HeldChecker()
    const emulator = emulatorWith(checker)
    const [first] = await slideIdsOf(emulator)
    const reply = await call(emulator, 'PUT', `/v1/projects/welcome-deck/slides/${first}`, {
      json: { files: { 'slide.tsx': 'export default () => null\n' } },
    })
    expect(reply.status).toBe(200)
    expect(checker.asked).toHaveLength(0)
  })

  it('is refused where no checker can answer it: new Emulator(), the browser entry, and a value that is not a boolean', () => {
    expect(() => new Emulator({ checkSlidesOnSave: true })).toThrow(
      new TypeError(`checkSlidesOnSave cannot be used: ${NO_SLIDE_CHECKER_MESSAGE}`),
    )
    expect(() => createBrowserEmulator({ checkSlidesOnSave: true })).toThrow(
      /^checkSlidesOnSave needs a slide checker, which renders slides in Node/,
    )
    expect(() => new Emulator({ checkSlidesOnSave: 'yes' as never })).toThrow('checkSlidesOnSave must be a boolean')
    // Off, the browser entry builds as before.
    expect(() => createBrowserEmulator({ checkSlidesOnSave: false }).close()).not.toThrow()
  })
})

describe('checked saving: what is checked and when (a test double of the port)', () => {
  const sent = (tsx: string) => ({ json: { files: { 'slide.tsx': tsx } } })

  it('checks the stored files merged with those sent and the project’s config, then saves; a failure is 400 naming slide.tsx:line:column, nothing saved', async () => {
    const checker = new HeldChecker()
    const emulator = emulatorWith(checker, { checkSlidesOnSave: true })
    const [first] = await slideIdsOf(emulator)
    const before = (await call(emulator, 'GET', `/v1/projects/welcome-deck/slides/${first}/files`)).body.files
    const versions = (await call(emulator, 'GET', '/v1/projects/welcome-deck')).body.latestVersion
    const tsx = 'export default function S() {\n  return <h1>{(undefined as any).x}</h1>\n}\n'
    const put = call(emulator, 'PUT', `/v1/projects/welcome-deck/slides/${first}`, sent(tsx))
    await checker.until(1)
    expect(checker.asked[0]!.input.files).toEqual({ ...before, 'slide.tsx': tsx })
    expect(checker.asked[0]!.input.config).toEqual((await call(emulator, 'GET', '/v1/projects/welcome-deck/config')).body.config)
    checker.asked[0]!.answer(THROWS)
    const reply = await put
    expectError(reply, 400, 'SLIDE_DOES_NOT_RENDER')
    expect(reply.body).toEqual({ error: 'Slide does not render', hint: 'slide.tsx:3:9: boom & <bust> (runtime; nothing was saved)' })
    expect((await call(emulator, 'GET', `/v1/projects/welcome-deck/slides/${first}/files`)).body.files).toEqual(before)
    expect((await call(emulator, 'GET', '/v1/projects/welcome-deck')).body.latestVersion).toEqual(versions)
    // The same body, now rendering, is saved.
    const ok = call(emulator, 'PUT', `/v1/projects/welcome-deck/slides/${first}`, sent(tsx))
    await checker.until(2)
    checker.asked[1]!.answer(RENDERED)
    expect((await ok).status).toBe(200)
    expect((await call(emulator, 'GET', `/v1/projects/welcome-deck/slides/${first}/files`)).body.files['slide.tsx']).toBe(tsx)
  })

  it('answers the usual 404 and 400 VALIDATION_ERROR before checking anything', async () => {
    const checker = new HeldChecker()
    const emulator = emulatorWith(checker, { checkSlidesOnSave: true })
    const [first] = await slideIdsOf(emulator)
    expectError(await call(emulator, 'PUT', '/v1/projects/welcome-deck/slides/sld_nope', sent('x')), 404, 'NOT_FOUND')
    expectError(
      await call(emulator, 'PUT', `/v1/projects/welcome-deck/slides/${first}`, { key: 'pres_test_bob', ...sent('x') }),
      404,
      'NOT_FOUND',
    )
    const invalid = await call(
      emulator,
      'PUT',
      `/v1/projects/welcome-deck/slides/${first}`,
      sent('export default function S() {\n  return <div>\n}\n'),
    )
    expectError(invalid, 400, 'VALIDATION_ERROR')
    expect(checker.asked).toHaveLength(0)
  })

  it('checks again when the config changed between the check and the save, and saves what it checked', async () => {
    const checker = new HeldChecker()
    const emulator = emulatorWith(checker, { checkSlidesOnSave: true })
    const [first] = await slideIdsOf(emulator)
    const put = call(emulator, 'PUT', `/v1/projects/welcome-deck/slides/${first}`, sent('export default () => <p>x</p>\n'))
    await checker.until(1)
    // The check holds no lock: another client's config write answers meanwhile.
    const palette = [{ name: '--brand', value: '#123456' }]
    expect((await call(emulator, 'PUT', '/v1/projects/welcome-deck/config', { json: { config: { tokens: { palette } } } })).status).toBe(
      200,
    )
    checker.asked[0]!.answer(RENDERED)
    // The save found the config changed since its check, so it checked again with the new one.
    await checker.until(2)
    expect(checker.asked[1]!.input.config.tokens?.palette).toEqual(palette)
    checker.asked[1]!.answer(RENDERED)
    expect((await put).status).toBe(200)
  })

  it('saves two checked writes of one slide in turn, the later one checked against what the earlier one stored', async () => {
    const checker = new HeldChecker()
    const emulator = emulatorWith(checker, { checkSlidesOnSave: true })
    const [first] = await slideIdsOf(emulator)
    const before = (await call(emulator, 'GET', `/v1/projects/welcome-deck/slides/${first}/files`)).body.files
    const tsx = 'export default function S() { return <h1>New</h1> }\n'
    const content = '{"title":"Changed meanwhile","blocks":[]}'
    const putTsx = call(emulator, 'PUT', `/v1/projects/welcome-deck/slides/${first}`, sent(tsx))
    await checker.until(1)
    // A second write of the same slide reads its snapshot now (the old slide.tsx) and waits for its turn.
    const putContent = call(emulator, 'PUT', `/v1/projects/welcome-deck/slides/${first}`, {
      json: { files: { 'slide.content.json': content } },
    })
    while (emulator.emulator.slideChecks.pending < 2) await new Promise((resolve) => setTimeout(resolve, 0))
    checker.asked[0]!.answer(RENDERED)
    expect((await putTsx).status).toBe(200)
    await checker.until(2)
    expect(checker.asked[1]!.input.files).toEqual({ ...before, 'slide.content.json': content })
    checker.asked[1]!.answer(RENDERED)
    // What it checked is no longer what it would store (slide.tsx changed): it checks that, then saves.
    await checker.until(3)
    expect(checker.asked[2]!.input.files).toEqual({ ...before, 'slide.tsx': tsx, 'slide.content.json': content })
    checker.asked[2]!.answer(RENDERED)
    expect((await putContent).status).toBe(200)
    expect((await call(emulator, 'GET', `/v1/projects/welcome-deck/slides/${first}/files`)).body.files).toEqual({
      ...before,
      'slide.tsx': tsx,
      'slide.content.json': content,
    })
  })

  it('gives up with 503 SLIDE_CHECK_CONTENDED when the config changes during every one of its checks, saving nothing', async () => {
    const checker = new HeldChecker()
    const emulator = emulatorWith(checker, { checkSlidesOnSave: true })
    const [first] = await slideIdsOf(emulator)
    const before = (await call(emulator, 'GET', `/v1/projects/welcome-deck/slides/${first}/files`)).body.files
    const put = call(emulator, 'PUT', `/v1/projects/welcome-deck/slides/${first}`, sent('export default () => <p>x</p>\n'))
    for (let i = 1; i <= 3; i++) {
      await checker.until(i)
      const palette = [{ name: '--brand', value: `#${String(i).repeat(6)}` }]
      expect((await call(emulator, 'PUT', '/v1/projects/welcome-deck/config', { json: { config: { tokens: { palette } } } })).status).toBe(
        200,
      )
      checker.asked[i - 1]!.answer(RENDERED)
    }
    const reply = await put
    expectError(reply, 503, 'SLIDE_CHECK_CONTENDED')
    expect(reply.headers.get('retry-after')).toBe('1')
    expect((await call(emulator, 'GET', `/v1/projects/welcome-deck/slides/${first}/files`)).body.files).toEqual(before)
  })

  it.each([
    [
      'the checker rejects (it cannot start)',
      (c: HeldChecker) => c.asked[0]!.fail(new Error('no browser')),
      /could not check the slide: no browser/,
    ],
    [
      'the build has no checker after all',
      (c: HeldChecker) => c.asked[0]!.fail(new SlideCheckerUnavailableError()),
      /has no slide checker/,
    ],
    [
      'the checker stops during the check (crashed)',
      (c: HeldChecker) =>
        c.asked[0]!.answer({
          status: 'crashed',
          error: { kind: 'crashed', message: 'out of memory', file: 'slide.tsx' },
          text: '',
          elements: 0,
          notes: [],
        }),
      /^the slide checker stopped while checking the slide \(out of memory\); nothing was saved$/,
    ],
  ])('answers 503 SLIDE_CHECKER_UNAVAILABLE when %s, saving nothing', async (_, act, hint) => {
    const checker = new HeldChecker()
    const emulator = emulatorWith(checker, { checkSlidesOnSave: true })
    const [first] = await slideIdsOf(emulator)
    const before = (await call(emulator, 'GET', `/v1/projects/welcome-deck/slides/${first}/files`)).body.files
    const put = call(emulator, 'PUT', `/v1/projects/welcome-deck/slides/${first}`, sent('export default () => <p>x</p>\n'))
    await checker.until(1)
    act(checker)
    const reply = await put
    expectError(reply, 503, 'SLIDE_CHECKER_UNAVAILABLE')
    expect(reply.body.hint).toMatch(hint)
    expect((await call(emulator, 'GET', `/v1/projects/welcome-deck/slides/${first}/files`)).body.files).toEqual(before)
  })

  it('answers 503 SLIDE_CHECK_QUEUE_FULL with Retry-After when the queue is full, saving nothing', async () => {
    const checker = new HeldChecker()
    const emulator = emulatorWith(checker, { checkSlidesOnSave: true })
    const [first] = await slideIdsOf(emulator)
    const decks = Array.from({ length: MAX_PENDING_SLIDE_CHECKS }, () =>
      emulator.control.checkSlides('welcome-deck', { slideIds: [first!] }),
    )
    while (emulator.emulator.slideChecks.pending < MAX_PENDING_SLIDE_CHECKS) await new Promise((resolve) => setTimeout(resolve, 0))
    const reply = await call(emulator, 'PUT', `/v1/projects/welcome-deck/slides/${first}`, sent('export default () => <p>x</p>\n'))
    expectError(reply, 503, 'SLIDE_CHECK_QUEUE_FULL')
    expect(reply.headers.get('retry-after')).toBe(String(SLIDE_CHECK_RETRY_AFTER_S))
    for (let i = 1; i <= MAX_PENDING_SLIDE_CHECKS; i++) {
      await checker.until(i)
      checker.asked[i - 1]!.answer(RENDERED)
    }
    await Promise.all(decks)
  })
})
