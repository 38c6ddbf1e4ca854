import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from '@babel/parser'
import * as React from 'react'
import * as jsxRuntime from 'react/jsx-runtime'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { slideFiles } from '../../src/content/deck.js'
import { blankSlideFiles, SLIDE_DESIGNS } from '../../src/content/slides.js'
import { checkSlideTsx } from '../../src/model/slide-validation.js'
import { SlideTranspiler, TRANSPILER_VERSION, transpileKey, transpileSlideTsx, type TranspiledSlide } from './transpile.js'

const ROOT = join(import.meta.dirname, '..', '..')

/** Every string the given test files hold (literals and templates without substitutions): the corpus of `slide.tsx` texts the project's tests write. */
function stringsOf(...files: string[]): string[] {
  const found = new Set<string>()
  for (const file of files) {
    const ast = parse(readFileSync(join(ROOT, file), 'utf8'), { sourceType: 'module', plugins: ['typescript'] })
    const visit = (value: unknown): void => {
      if (Array.isArray(value)) {
        for (const item of value) visit(item)
        return
      }
      if (typeof value !== 'object' || value === null) return
      const node = value as { type?: string; value?: unknown; quasis?: Array<{ value: { cooked: string } }>; expressions?: unknown[] }
      if (node.type === 'StringLiteral' && typeof node.value === 'string') found.add(node.value)
      if (node.type === 'TemplateLiteral' && node.expressions?.length === 0) found.add(node.quasis![0]!.value.cooked)
      for (const [key, child] of Object.entries(node)) if (key !== 'loc') visit(child)
    }
    visit(ast.program)
  }
  return [...found]
}

function transpiled(source: string): TranspiledSlide {
  const result = transpileSlideTsx(source)
  if (!result.ok) throw new Error(`expected ${JSON.stringify(source)} to transpile: ${JSON.stringify(result.problem)}`)
  return result
}

/** The transpiled code parses as the body of an async function, as the renderer runs it. */
function parsesAsRendered(code: string): void {
  expect(() => parse(`(async () => {\n${code}\n})`, { sourceType: 'script' })).not.toThrow()
}

describe('transpileSlideTsx', () => {
  it('transpiles every component the emulator generates, and the blank slide, to CommonJS with the automatic JSX runtime', () => {
    for (const design of SLIDE_DESIGNS) {
      const { code } = transpiled(slideFiles(design, { title: 'T', blocks: [] })['slide.tsx'])
      expect(code).toContain('require("react/jsx-runtime")')
      expect(code).toContain("require('./slide.content.json')")
      expect(code).toMatch(/exports\.default = \w+/)
      expect(code).not.toMatch(/\btype Block\b|: Props\b/)
      parsesAsRendered(code)
    }
    parsesAsRendered(transpiled(blankSlideFiles()['slide.tsx']).code)
  })

  it('transpiles every slide.tsx of the project’s tests that PUT validation accepts (the validation, API and fuzz corpora)', () => {
    const corpus = stringsOf('src/model/slide-validation.test.ts', 'test/api/slides.test.ts', 'test/fuzz/api.fuzz.test.ts')
    const accepted = corpus.filter((text) => checkSlideTsx(text) === undefined)
    expect(accepted.length).toBeGreaterThanOrEqual(10)
    for (const text of accepted) parsesAsRendered(transpiled(text).code)
  })

  it.each([
    [
      'a string default export name',
      'function Slide() { return <div /> }\nexport { Slide as "default" }',
      /exports\. ?default {0,2}= Slide/,
    ],
    ['a re-exported default', 'export { default } from "./other"', /require\('\.\/other'\)/],
    [
      'a namespaced JSX attribute (SVG)',
      'export default () => <svg><use xlink:href="#a" xml:space /></svg>',
      /"xlink:href": "#a".*"xml:space": true/s,
    ],
    ['a namespaced attribute holding an expression', 'const h = "#b"\nexport default () => <use xlink:href={h} />', /"xlink:href": h/],
    ['a namespaced JSX tag', 'export default () => <svg:rect width="1"></svg:rect>', /'svg:rect'/],
    ['import.meta', 'export default () => <p>{String(import.meta.url)}</p>', /__impMeta__\.url/],
    ['top-level await', 'const n = await Promise.resolve(1)\nexport default () => <p>{n}</p>', /await Promise\.resolve\(1\)/],
    [
      'a string import name that is not an identifier',
      'import { "a b" as x } from "./slide.content.json"\nexport default () => <p>{x}</p>',
      /\["a b"\]/,
    ],
    ['a string export name that is not an identifier', 'const a = 1\nexport { a as "b c" }\nexport default a', /exports\["b c"\] = a/],
    [
      'an enum and a namespace',
      'enum E { A, B = 2 }\nnamespace N { export const a = 1 }\nexport default () => <p>{E.B + N.a}</p>',
      /const B = 2.*var N; \(function \(N\) \{ const a = 1; N\.a = a; \}\)\(N \|\| \(N = \{\}\)\);/s,
    ],
    ['generics in an arrow', 'const id = <T,>(x: T) => x\nexport default () => <p>{id(1)}</p>', /const id = \(x\) => x/],
    ['satisfies, non-null and as', 'const a = { n: 1 } satisfies object\nexport default () => <p>{a!.n as number}</p>', /a\.n/],
    ['a using declaration', 'using r = null\nexport default () => null', /using r = null/],
    ['a class with private fields', 'export default class S { #n = 1; render() { return this.#n } }', /#n = 1/],
    ['fragments and entities', 'export default () => <>&nbsp;&lt;&#x41;</>', /Fragment/],
    ['a JSX element as an attribute value', 'export default () => <div title=<b /> />', /title: .*jsx/s],
    ['a default export declared after use', 'export default Slide\nfunction Slide() { return <div /> }', /exports\. ?default = Slide/],
    [
      '`module`, `exports` and `require` declared by the slide',
      'const module = "m"\nexport default () => <p>{module}</p>',
      /const module = "m"/,
    ],
  ])('transpiles %s into code that parses as the renderer runs it', (_, source, expected) => {
    expect(checkSlideTsx(source)).toBeUndefined()
    const { code } = transpiled(source)
    expect(code).toMatch(expected)
    parsesAsRendered(code)
  })

  it('keeps every line where slide.tsx has it, and maps columns back through its source map', () => {
    const source = [
      'import content from "./slide.content.json";',
      'type Props = { accent?: string };',
      '',
      'export default function Slide({ accent = "red" }: Props) {',
      '  const items: string[] = content.items;',
      '  return <ul style={{ color: accent }}>{items.map((item) => <li key={item}>{item}</li>)}</ul>;',
      '}',
    ].join('\n')
    const { code, mappings } = transpiled(source)
    const lines = code.split('\n')
    expect(lines).toHaveLength(7)
    expect(lines[4]).toContain('const items = _slidecontentjson2.default.items')
    expect(lines[5]).toContain('.map((item) =>')
    // One mapping group per generated line, and the fifth line's segments point at line 5 of the source (index 4).
    expect(mappings.split(';')).toHaveLength(7)
  })

  it('reports a syntax error at the line and column PUT validation reports', () => {
    const source =
      'export default function Slide() {\n  const style = {\n    color: "red"\n    margin: 0 }\n  return <div style={style} />\n}\n'
    expect(transpileSlideTsx(source)).toEqual({
      ok: false,
      problem: { file: 'slide.tsx', line: 4, column: 5, message: 'Unexpected token, expected ","' },
    })
    expect(transpileSlideTsx(source)).toEqual({ ok: false, problem: checkSlideTsx(source) })
  })

  it('reports a stored component without a default export, as validation would', () => {
    const result = transpileSlideTsx('export function Slide() { return <div /> }')
    expect(result).toEqual({
      ok: false,
      problem: expect.objectContaining({ line: 1, column: 1, message: expect.stringMatching(/^No default export/) }),
    })
  })

  it('never lets slide code out of the function the renderer runs it in: unbalanced braces are a syntax error', () => {
    for (const source of ['x(); } self.evil(); function y() {\nexport default 1', 'export default 1 })(); evil(); (() => {']) {
      const result = transpileSlideTsx(source)
      expect(result.ok).toBe(false)
    }
  })
})

/**
 * Runs transpiled code the way the renderer's worker does (the body of an
 * async function given `exports`, `require`, `module` and `__impMeta__`)
 * and renders its default export. Only in this test process, on the
 * tests' own sources: the emulator's process never runs slide code.
 */
async function renderTranspiled(source: string, content: unknown = { title: 'T', items: ['a', 'b'] }): Promise<string> {
  const { code } = transpiled(source)
  const modules: Record<string, unknown> = { react: React, 'react/jsx-runtime': jsxRuntime, './slide.content.json': content }
  const exports: Record<string, unknown> = {}
  const run = new Function('exports', 'require', 'module', '__impMeta__', `return (async () => {\n${code}\n})()`)
  await run(exports, (name: string) => modules[name], { exports }, { url: 'slide.tsx' })
  return renderToStaticMarkup(React.createElement(exports.default as React.FC))
}

describe('what the transpiled code does (run in this test process, as the renderer runs it)', () => {
  it.each([
    [
      'a namespace with values',
      'namespace N { export const a = 1; export function f() { return a + 1 } }\nexport default () => <p>{N.a}{N.f()}</p>',
      '<p>12</p>',
    ],
    ['a dotted, exported namespace', 'export namespace A.B { export const c = 3 }\nexport default () => <p>{A.B.c}</p>', '<p>3</p>'],
    [
      'a namespace holding only types',
      'namespace T { export type X = number }\nconst x: T.X = 4\nexport default () => <p>{x}</p>',
      '<p>4</p>',
    ],
    ['a string default export name', 'function S() { return <p>s</p> }\nexport { S as "default" }', '<p>s</p>'],
    [
      'a string import name',
      'import { "title" as t, "a b" as u } from "./slide.content.json"\nexport default () => <p>{t}{String(u)}</p>',
      '<p>Tundefined</p>',
    ],
    [
      'namespaced SVG attributes and tags',
      'export default () => <svg><use xlink:href="#a" /><svg:g /></svg>',
      '<svg><use xlink:href="#a"></use><svg:g></svg:g></svg>',
    ],
    ['import.meta', 'export default () => <p>{import.meta.url}</p>', '<p>slide.tsx</p>'],
    [
      'top-level await and hooks',
      'import { useState } from "react"\nconst n = await Promise.resolve(2)\nexport default () => { const [m] = useState(3); return <p>{n * m}</p> }',
      '<p>6</p>',
    ],
    [
      'the content file',
      'import content from "./slide.content.json"\nexport default () => <ul>{content.items.map((i: string) => <li key={i}>{i}</li>)}</ul>',
      '<ul><li>a</li><li>b</li></ul>',
    ],
  ])('%s', async (_, source, html) => {
    expect(await renderTranspiled(source)).toBe(html)
  })
})

describe('SlideTranspiler', () => {
  it('keys its cache by the SHA-256 of the text and the transpiler’s version', () => {
    expect(TRANSPILER_VERSION).toMatch(/^sucrase@\d+\.\d+\.\d+$/)
    expect(transpileKey('abc')).toBe(`ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad:${TRANSPILER_VERSION}`)
  })

  it('transpiles a text once: a second view of an unchanged slide is answered from the cache', () => {
    const transpiler = new SlideTranspiler()
    const source = slideFiles('title', { title: 'T', blocks: [] })['slide.tsx']
    const first = transpiler.transpile(source)
    const second = transpiler.transpile(source)
    expect(second).toEqual(first)
    expect(transpiler.stats).toEqual({ transpiled: 1, cached: 1 })
    transpiler.transpile(`${source}\n`)
    expect(transpiler.stats).toEqual({ transpiled: 2, cached: 1 })
  })

  it('caches failures too, and drops the least recently used text past its capacity', () => {
    const transpiler = new SlideTranspiler(2)
    transpiler.transpile('nope(')
    transpiler.transpile('nope(')
    expect(transpiler.stats).toEqual({ transpiled: 1, cached: 1 })
    transpiler.transpile('export default 1')
    transpiler.transpile('export default 2')
    transpiler.transpile('nope(')
    expect(transpiler.stats).toEqual({ transpiled: 4, cached: 1 })
  })
})
