import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEmulator, type PresentationEmulator } from '../../src/index.js'
import { checkSlideTsx } from '../../src/model/slide-validation.js'
import { runnableCodeProblem, transpileSlideTsx } from '../../web/render/transpile.js'
import { CLASSIC_READING, hostileText } from '../browser/support/hostile-corpus.js'

/**
 * Issue 31, break 5: a `slide.tsx` whose module reading (validation's)
 * hides a line in a block comment that a classic script (how a worker
 * loads the slide) reads as code. `PUT` refuses every such slide with its
 * `slide.tsx:line:column`; one stored anyway (a state import) is never
 * handed to a page as code, only as its problem. The browser side is
 * `test/browser/classic-reading.test.ts`.
 */

const ALICE = 'pres_test_alice'
const ORIGINS = { canary: 'http://127.0.0.1:9', origin: 'http://127.0.0.1:4010' }

describe('slide.tsx that a browser would read otherwise than validation does', () => {
  let emulator: PresentationEmulator
  let slug: string
  let slideId: string
  const call = (path: string, init: RequestInit = {}) => emulator.fetch(`http://127.0.0.1:4010${path}`, init)
  const api = (method: string, path: string, body?: unknown) =>
    call(`/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${ALICE}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })

  beforeAll(async () => {
    emulator = createEmulator({ clock: 'manual', rateLimit: 0 })
    await emulator.ready()
    slug = (await (await api('POST', '/projects', { name: 'Classic reading' })).json()).projectSlug
    slideId = (await (await api('POST', `/projects/${slug}/slides`, { name: 'One', files: {} })).json()).slideId
  })
  afterAll(() => emulator.close())

  it.each(CLASSIC_READING.map((slide) => [slide.name, slide] as const))('PUT: %s', async (_, slide) => {
    const tsx = hostileText(slide.tsx, ORIGINS)
    const before = await (await call('/_emulator/state')).text()
    const reply = await api('PUT', `/projects/${slug}/slides/${slideId}`, { files: { 'slide.tsx': tsx } })
    if (slide.expect.put === 'refused') {
      expect(reply.status).toBe(400)
      expect(reply.headers.get('x-service-error-code')).toBe('VALIDATION_ERROR')
      const body = await reply.json()
      expect(body.error).toEqual(expect.any(String))
      expect(body.hint).toMatch(slide.expect.hint!)
      expect(await (await call('/_emulator/state')).text()).toBe(before)
    } else {
      expect(reply.status, await reply.clone().text()).toBe(200)
    }
  })

  it.each(CLASSIC_READING.map((slide) => [slide.name, slide] as const))('the transpiler: %s', (_, slide) => {
    const tsx = hostileText(slide.tsx, ORIGINS)
    const result = transpileSlideTsx(tsx)
    if (slide.expect.put === 'refused') {
      // The same problem as validation's: the renderer gets no code, only the problem to show.
      expect(result).toEqual({ ok: false, problem: checkSlideTsx(tsx) })
    } else {
      expect(result.ok, JSON.stringify(result)).toBe(true)
      if (result.ok) expect(runnableCodeProblem(result.code)).toBeUndefined()
    }
  })

  it('a slide stored through a state import reaches the pages as its problem, never as code', async () => {
    const refused = CLASSIC_READING.filter((slide) => slide.expect.put === 'refused')
    const state = await (await call('/_emulator/state')).json()
    const project = state.projects.find((p: { slug: string }) => p.slug === slug)
    const template = state.slides.find((s: { id: string }) => s.id === slideId)
    const ids = refused.map((_, index) => `${slideId}_classic_${index}`)
    for (const [index, slide] of refused.entries()) {
      state.slides.push({
        ...template,
        id: ids[index],
        position: template.position + index + 1,
        files: { ...template.files, 'slide.tsx': hostileText(slide.tsx, ORIGINS) },
      })
    }
    const put = await call('/_emulator/state', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(state),
    })
    expect(put.status, await put.clone().text()).toBe(200)
    const html = await (await call(`/editor/${project.slug}`)).text()
    const data = JSON.parse(
      /<script type="application\/json" id="deck-render">([\s\S]*?)<\/script>/.exec(html)![1]!.replaceAll('\\u003c', '<'),
    )
    const byId = new Map<string, { code: string | null; problem: { line: number; column: number; message: string } | null }>(
      data.slides.map((s: { id: string; render: unknown }) => [s.id, s.render]),
    )
    for (const [index, slide] of refused.entries()) {
      const render = byId.get(ids[index]!)!
      expect(render, slide.name).toBeDefined()
      expect(render.code, slide.name).toBeNull()
      const problem = render.problem!
      expect(`slide.tsx:${problem.line}:${problem.column}: ${problem.message}`, slide.name).toMatch(slide.expect.hint!)
    }
  })
})

describe('the transpiled code, parsed again as the browser loads it', () => {
  it('accepts what the transpiler makes of an ordinary slide', () => {
    const result = transpileSlideTsx('import { useState } from "react";\nexport default () => <p>{useState(1)[0]}</p>')
    expect(result.ok).toBe(true)
    if (result.ok) expect(runnableCodeProblem(result.code)).toBeUndefined()
  })

  it.each([
    ['an HTML-like open comment', '"use strict";\nlet a = 1 <!-- x\nimport("y")\n', 2, /^`<!--` would start a comment/],
    ['an HTML-like close comment at a line start', '"use strict";\nlet a = 1\n--> x\n', 3, /^`-->` would start a comment/],
    ['an HTML-like close comment after U+2028', '"use strict";\nlet a = 1\u2028--> x\n', 3, /^`-->` would start a comment/],
    ['`-->` in the middle of a line', '"use strict";\nlet a = 1; a-->0\n', 2, /^`-->` would start a comment/],
    ['a dynamic import()', '"use strict";\nconst m = import("data:text/javascript,1")\n', 2, /import\(\)/],
    ['import.meta', '"use strict";\nconst u = import.meta.url\n', 2, /import\.meta/],
    [
      'code that closes the wrapper and runs beside it',
      '"use strict";\n})() }; evil(); __x = function () { return (async () => {\n',
      1,
      /does not stay inside/,
    ],
    ['code that is not strict', 'with (Math) max(1)\n', 1, /not strict|could not be transpiled/],
    ['a hashbang', '#!/bin/sh\n"use strict";\n', 1, /could not be transpiled/],
  ])('refuses %s', (_, code, line, message) => {
    const problem = runnableCodeProblem(code)
    expect(problem).toEqual({ line, column: expect.any(Number), message: expect.stringMatching(message) })
  })

  it('keeps `<!--` and `-->` in strings, templates, regular expressions and comments', () => {
    expect(runnableCodeProblem('"use strict";\nconst s = "<!--" + `-->`; const r = /<!--|-->/; // <!--\n/*\n--> */\n')).toBeUndefined()
  })
})
