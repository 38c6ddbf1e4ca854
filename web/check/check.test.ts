/**
 * The slide checker without a browser: what it answers before one is
 * needed (source problems), how it refuses bad pictures and a missing
 * Chromium, how it reads the renderer's answers, its harness's policy, and
 * the core's stand-in for builds without a checker.
 */
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Emulator } from '../../src/emulator.js'
import { NO_SLIDE_CHECKER, NO_SLIDE_CHECKER_MESSAGE, SlideCheckerUnavailableError } from '../../src/model/slide-checker.js'
import { NOT_FOUND_MOUNT } from '../../src/mounts.js'
import type { SlideFiles } from '../../src/schemas/index.js'
import { WEB_MOUNTS } from '../mounts.js'
import { chromiumArgs, chromiumPath, DEFAULT_CHROMIUM_PATH } from './browser.js'
import { HARNESS_PATH, HARNESS_SCRIPT, harnessDocument, harnessPolicy } from './harness.js'
import { createSlideChecker, MAX_PICTURE_WIDTH, MIN_PICTURE_WIDTH, type WebSlideChecker } from './index.js'
import { pictureHeight, resultOf, statusOf } from './prepare.js'

/** A path where no Chromium is: every check that needs one must say how to get one. */
const NO_CHROMIUM = '/nonexistent/presentation-emulator/chromium'

const slide = (tsx: string, content: unknown = { title: 'Hello' }, controls: unknown = { controls: [] }): SlideFiles => ({
  'slide.tsx': tsx,
  'slide.content.json': JSON.stringify(content),
  'slide.controls.json': JSON.stringify(controls),
})

const GOOD = slide('export default function Slide() {\n  return <h1>Hello</h1>\n}\n')
const SYNTAX = slide('export default function Slide() {\n  return <h1>Hello</h1\n}\n')

describe('the slide checker, before it needs a browser', () => {
  let emulator: Emulator
  let checker: WebSlideChecker

  beforeAll(async () => {
    emulator = new Emulator(
      { clock: 'manual' },
      { mounts: WEB_MOUNTS, slideChecker: (host) => createSlideChecker(host, { executablePath: NO_CHROMIUM }) },
    )
    await emulator.ready()
    checker = emulator.slideChecker as WebSlideChecker
  })
  afterAll(async () => {
    await emulator.slideChecker.close()
    emulator.close()
  })

  it('is the emulator’s checker, available', () => {
    expect(emulator.slideChecker.available).toBe(true)
  })

  it('answers a syntax error as a source error with its line and column, without a browser', async () => {
    const result = await emulator.slideChecker.check({ files: SYNTAX, config: {} })
    expect(result).toMatchObject({ status: 'error', text: '', elements: 0, error: { kind: 'source', file: 'slide.tsx', line: 3 } })
    expect(result.error?.column).toBeGreaterThan(0)
    expect(result.error?.message).not.toBe('')
    expect((await checker.diagnostics()).blockedRequests).toEqual([])
  })

  it('answers a missing default export and unreadable content as source errors in their files', async () => {
    const noDefault = await emulator.slideChecker.check({ files: slide('export function Slide() {\n  return null\n}\n'), config: {} })
    expect(noDefault).toMatchObject({ status: 'error', error: { kind: 'source', file: 'slide.tsx' } })
    const content = await emulator.slideChecker.check({ files: { ...GOOD, 'slide.content.json': '{"title": ' }, config: {} })
    expect(content).toMatchObject({ status: 'error', error: { kind: 'source', file: 'slide.content.json', line: 1 } })
  })

  it('keeps the controls panel’s notes with a source error', async () => {
    const result = await emulator.slideChecker.check({
      files: slide('export default function Slide( {\n}\n', {}, { controls: [{ id: 'key', type: 'text', label: 'Key', default: 'x' }] }),
      config: {},
    })
    expect(result.status).toBe('error')
    expect(result.notes).toHaveLength(1)
    expect(result.notes[0]).toContain('"key"')
  })

  it('refuses a picture without Chromium, saying how to provide it (checks need none: the Node engine, in the process tier)', async () => {
    const refusal = emulator.slideChecker.picture({ files: GOOD, config: {} }, { width: 640 })
    await expect(refusal).rejects.toThrow(/apt-get install -y chromium/)
    await expect(refusal).rejects.toThrow(/CHROMIUM_PATH/)
    await expect(refusal).rejects.toThrow(/playwright-core/)
    await expect(refusal).rejects.toThrow(NO_CHROMIUM)
  })

  it('refuses a picture width that is not an integer from 320 to 3840, naming the bounds', async () => {
    for (const width of [0, 319, 3841, 640.5, Number.NaN, Number.POSITIVE_INFINITY, -640, '640' as unknown as number]) {
      const picture = emulator.slideChecker.picture({ files: GOOD, config: {} }, { width })
      await expect(picture).rejects.toThrow(RangeError)
      await expect(picture).rejects.toThrow(`from ${MIN_PICTURE_WIDTH} to ${MAX_PICTURE_WIDTH}`)
    }
  })

  it('is closed for good once closed', async () => {
    const closing = new Emulator({ clock: 'manual' }, { mounts: WEB_MOUNTS, slideChecker: createSlideChecker })
    await closing.slideChecker.close()
    await expect(closing.slideChecker.check({ files: GOOD, config: {} })).rejects.toThrow('closed')
    closing.close()
  })
})

describe('the checker’s pieces', () => {
  it('reads a renderer answer as a result: each error kind its status, the file slide.tsx unless named', () => {
    expect(resultOf({ ok: true, html: '<p>Hi</p>', text: 'Hi', elements: 1 }, ['a note'])).toEqual({
      status: 'rendered',
      text: 'Hi',
      elements: 1,
      notes: ['a note'],
    })
    const statuses = {
      runtime: 'error',
      import: 'error',
      'no-default-export': 'error',
      source: 'error',
      timeout: 'timeout',
      'too-large': 'too-large',
      crashed: 'crashed',
    }
    for (const [kind, status] of Object.entries(statuses)) {
      expect(statusOf(kind)).toBe(status)
      expect(resultOf({ ok: false, error: { kind, message: 'm' } }, [])).toEqual({
        status,
        error: { kind, message: 'm', file: 'slide.tsx' },
        text: '',
        elements: 0,
        notes: [],
      })
    }
    expect(
      resultOf({ ok: false, error: { kind: 'runtime', message: 'm', line: 3, column: 7, file: 'slide.content.json' } }, []).error,
    ).toEqual({
      kind: 'runtime',
      message: 'm',
      file: 'slide.content.json',
      line: 3,
      column: 7,
    })
    expect(resultOf({ ok: false, error: { kind: 'runtime', message: 'm', line: 0, column: 1.5, file: '../x' } }, []).error).toEqual({
      kind: 'runtime',
      message: 'm',
      file: 'slide.tsx',
    })
  })

  it('makes pictures 16:9', () => {
    expect(pictureHeight(640)).toBe(360)
    expect(pictureHeight(320)).toBe(180)
    expect(pictureHeight(3840)).toBe(2160)
  })

  it('finds Chromium at CHROMIUM_PATH or /usr/bin/chromium, and drops Chromium’s sandbox only as root', () => {
    expect(chromiumPath('/opt/chromium')).toBe('/opt/chromium')
    expect(chromiumPath()).toBe(process.env.CHROMIUM_PATH ?? DEFAULT_CHROMIUM_PATH)
    expect(chromiumArgs()).toContain('--headless')
    expect(chromiumArgs()).toContain('--disable-background-networking')
    expect(chromiumArgs().includes('--no-sandbox')).toBe(process.getuid?.() === 0)
  })

  it('serves the harness with a policy that allows its one script by hash, frames of the renderer only, and no connection', () => {
    const policy = new Map(
      harnessPolicy()
        .split(';')
        .map((part) => [part.trim().split(/\s+/)[0]!, part.trim().split(/\s+/).slice(1).join(' ')]),
    )
    expect(policy.get('script-src')).toBe(`'sha256-${createHash('sha256').update(HARNESS_SCRIPT).digest('base64')}'`)
    expect(policy.get('frame-src')).toBe('http://emulator.localhost/_emulator/assets/render/')
    expect(policy.get('default-src')).toBe("'none'")
    expect(policy.get('connect-src')).toBe("'none'")
    expect(policy.get('img-src')).toBe("'none'")
    expect(policy.get('frame-ancestors')).toBe("'none'")
    expect(harnessDocument()).toContain(`<script>${HARNESS_SCRIPT}</script>`)
  })

  it('keeps the harness out of the emulator: no mount serves its path', async () => {
    const emulator = new Emulator({ clock: 'manual' }, { mounts: WEB_MOUNTS })
    expect(emulator.mounts.mountFor('GET', HARNESS_PATH).name).toBe(NOT_FOUND_MOUNT.name)
    expect((await emulator.handle({ method: 'GET', path: HARNESS_PATH, query: '', headers: {}, body: null })).status).toBe(404)
    emulator.close()
  })

  it('is loaded by nothing at start: no module outside web/check imports it statically', () => {
    const root = join(import.meta.dirname, '..', '..')
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory() ? files(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
      )
    const importers = [...files(join(root, 'src')), ...files(join(root, 'web'))]
      .filter((file) => !relative(root, file).startsWith(join('web', 'check')))
      .filter((file) => /(?:from|import)\s*['"][^'"]*\/check\/(?:index|browser|harness|prepare)\.js['"]/.test(readFileSync(file, 'utf8')))
    expect(importers).toEqual([])
  })
})

describe('NO_SLIDE_CHECKER (a build without one)', () => {
  it('is not available, and rejects every check and picture with its message', async () => {
    expect(NO_SLIDE_CHECKER.available).toBe(false)
    await expect(NO_SLIDE_CHECKER.check({ files: GOOD, config: {} })).rejects.toThrow(NO_SLIDE_CHECKER_MESSAGE)
    await expect(NO_SLIDE_CHECKER.check({ files: GOOD, config: {} })).rejects.toBeInstanceOf(SlideCheckerUnavailableError)
    await expect(NO_SLIDE_CHECKER.picture({ files: GOOD, config: {} }, { width: 640 })).rejects.toThrow(NO_SLIDE_CHECKER_MESSAGE)
    await expect(NO_SLIDE_CHECKER.close()).resolves.toBeUndefined()
  })

  it('is what an emulator built without a checker has', async () => {
    const emulator = new Emulator({ clock: 'manual' })
    expect(emulator.slideChecker).toBe(NO_SLIDE_CHECKER)
    await expect(emulator.slideChecker.check({ files: SYNTAX, config: {} })).rejects.toThrow(NO_SLIDE_CHECKER_MESSAGE)
    emulator.close()
  })
})
