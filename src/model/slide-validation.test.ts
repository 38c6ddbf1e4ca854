import { describe, expect, it } from 'vitest'
import { contentFile, slideFiles } from '../content/deck.js'
import { blankSlideFiles, SLIDE_DESIGNS } from '../content/slides.js'
import { ServiceError } from '../core/errors.js'
import {
  assertValidSlideFiles,
  checkSlideFile,
  checkSlideJson,
  checkSlideTsx,
  formatProblem,
  lineColumn,
  locateJsonSyntaxError,
  positionFromEngineMessage,
  slideFileProblems,
} from './slide-validation.js'

/** The hint of the 400 `assertValidSlideFiles` throws for `files`. */
function hintFor(files: Parameters<typeof assertValidSlideFiles>[0]): string {
  try {
    assertValidSlideFiles(files)
  } catch (error) {
    expect(error).toBeInstanceOf(ServiceError)
    const serviceError = error as ServiceError
    expect(serviceError.status).toBe(400)
    expect(serviceError.code).toBe('VALIDATION_ERROR')
    return serviceError.hint!
  }
  throw new Error('expected the files to be rejected')
}

/** A small deterministic PRNG (mulberry32), so the fuzz cases are the same on every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

describe('lineColumn', () => {
  it('counts 1-based lines and columns, with \\n, \\r\\n and a lone \\r each ending a line', () => {
    expect(lineColumn('abc', 0)).toEqual({ line: 1, column: 1 })
    expect(lineColumn('abc', 2)).toEqual({ line: 1, column: 3 })
    expect(lineColumn('a\nbc', 3)).toEqual({ line: 2, column: 2 })
    expect(lineColumn('a\r\nbc', 3)).toEqual({ line: 2, column: 1 })
    expect(lineColumn('a\r\nbc', 2)).toEqual({ line: 1, column: 3 })
    expect(lineColumn('a\rb\nc', 4)).toEqual({ line: 3, column: 1 })
  })

  it('places an offset past the end at the end of the text', () => {
    expect(lineColumn('ab\n', 99)).toEqual({ line: 2, column: 1 })
    expect(lineColumn('', 0)).toEqual({ line: 1, column: 1 })
  })
})

describe('slide.tsx validation', () => {
  it('accepts every component the emulator itself generates, and the blank slide', () => {
    for (const design of SLIDE_DESIGNS) {
      const files = slideFiles(design, { title: 'T', blocks: [] })
      expect(checkSlideTsx(files['slide.tsx'])).toBeUndefined()
    }
    expect(checkSlideTsx(blankSlideFiles()['slide.tsx'])).toBeUndefined()
  })

  it.each([
    ['export default function Slide() { return <div /> }'],
    ['const Slide = () => <div />\nexport default Slide'],
    ['function Slide() { return <div /> }\nexport { Slide as default }'],
    ['function Slide() { return <div /> }\nexport { Slide as "default" }'],
    ['export { default } from "./other"'],
    ['type Props = { n: number }\nexport default class Slide { render(p: Props) { return <p>{p.n as number}</p> } }'],
  ])('accepts a module with a default export: %s', (source) => {
    expect(checkSlideTsx(source)).toBeUndefined()
  })

  it('reports a syntax error at Babel’s position with a 1-based column and without Babel’s own suffix', () => {
    const source =
      'export default function Slide() {\n  const style = {\n    color: "red"\n    margin: 0 }\n  return <div style={style} />\n}\n'
    expect(checkSlideTsx(source)).toEqual({ file: 'slide.tsx', line: 4, column: 5, message: 'Unexpected token, expected ","' })
  })

  it('reports unclosed JSX as a syntax error', () => {
    const problem = checkSlideTsx('export default function Slide() {\n  return <div>\n}\n')
    expect(problem?.file).toBe('slide.tsx')
    expect(problem?.line).toBeGreaterThanOrEqual(2)
    expect(problem?.message).not.toMatch(/\(\d+:\d+\)$/)
  })

  it('rejects TypeScript-only syntax errors too, proving the typescript plugin is on', () => {
    expect(checkSlideTsx('let x: = 1\nexport default x')).toMatchObject({ line: 1, column: 8 })
    expect(checkSlideTsx('let x: number = 1\nexport default x')).toBeUndefined()
  })

  it.each([
    ['function Slide() { return <div /> }'],
    ['export function Slide() { return <div /> }'],
    [''],
    ['export = Slide\nfunction Slide() {}'],
  ])('reports a module without a default export at 1:1: %j', (source) => {
    expect(checkSlideTsx(source)).toEqual({ file: 'slide.tsx', line: 1, column: 1, message: expect.stringMatching(/^No default export/) })
  })

  it.each([
    ['export default interface Props { n: number }'],
    ['type Props = {}\nexport type { Props as default }'],
    ['type Props = {}\nexport { type Props as default }'],
  ])('does not count a type-only default export: %j', (source) => {
    expect(checkSlideTsx(source)?.message).toMatch(/^The default export is a type/)
  })

  it('parses as a module, so `await` at the top level and `import` are accepted', () => {
    expect(checkSlideTsx('import x from "./slide.content.json"\nconst y = await Promise.resolve(x)\nexport default y')).toBeUndefined()
  })
})

describe('JSON file validation', () => {
  it('accepts the content and controls the emulator generates', () => {
    const files = blankSlideFiles()
    expect(checkSlideJson('slide.content.json', files['slide.content.json'])).toBeUndefined()
    expect(checkSlideJson('slide.controls.json', files['slide.controls.json'])).toBeUndefined()
    expect(checkSlideJson('slide.content.json', contentFile({ title: 'x', blocks: [{ type: 'text', text: 'y' }] }))).toBeUndefined()
  })

  it('accepts an object or an array at the top level in both JSON files', () => {
    for (const file of ['slide.content.json', 'slide.controls.json'] as const) {
      expect(checkSlideJson(file, '{}')).toBeUndefined()
      expect(checkSlideJson(file, ' [ ] \n')).toBeUndefined()
    }
  })

  it.each([
    ['"hello"', 'a string', 1, 1],
    ['\n  42', 'a number', 2, 3],
    ['true', 'a boolean', 1, 1],
    ['null', 'null', 1, 1],
  ])('rejects a top-level scalar %j at its position', (text, kind, line, column) => {
    for (const file of ['slide.content.json', 'slide.controls.json'] as const) {
      expect(checkSlideJson(file, text)).toEqual({
        file,
        line,
        column,
        message: `Expected a JSON object or array at the top level, got ${kind}`,
      })
    }
  })

  it.each([
    ['{\n  "title": "x",\n  "blocks" []\n}', 3, 12, `Expected ':' after the property name, found '['`],
    ['[1, 2,]', 1, 7, `Expected a JSON value, found ']' (JSON allows no trailing comma)`],
    ['{"a": 1,}', 1, 9, `Expected a property name in double quotes, found '}' (JSON allows no trailing comma)`],
    ['{\n  "a": 1\n  "b": 2\n}', 3, 3, `Expected ',' or a closing bracket, found '"b"'`],
    ['[1 2]', 1, 4, `Expected ',' or a closing bracket, found '2'`],
    ['[1,,2]', 1, 4, `Expected a JSON value, found ','`],
    ['{"a" 1}', 1, 6, `Expected ':' after the property name, found '1'`],
    ['', 1, 1, 'Expected a JSON value, found the end of the input'],
    ['  \n', 2, 1, 'Expected a JSON value, found the end of the input'],
    ['{\n  "a": [1, 2\n', 3, 1, `Expected ']' to close the array, found the end of the input`],
    ['{"a": 1', 1, 8, `Expected '}' to close the object, found the end of the input`],
    ['{"a": "unterminated}', 1, 7, 'Unterminated string'],
    ['{"a": "line\nbreak"}', 1, 12, /^Control character U\+000A in a string/],
    ['{"a": "tab\there"}', 1, 11, /^Control character U\+0009 in a string/],
    ['{"a": "x\u0001y"}', 1, 9, /^Control character U\+0001 in a string/],
    ['{"a": "\\q"}', 1, 9, /^Invalid escape in a string/],
    ['{"a": "\\u12G4"}', 1, 12, /^Invalid Unicode escape/],
    ['{"a": 01}', 1, 8, 'Invalid number: JSON allows no leading zeros'],
    ['[-00]', 1, 4, 'Invalid number: JSON allows no leading zeros'],
    ['{"a": 1.}', 1, 7, /^Incomplete number '1\.'/],
    ['[1e+]', 1, 2, /^Incomplete number '1e\+'/],
    ['{"a": -}', 1, 7, `Unexpected character '-', expected a JSON value`],
    ['{"a": .5}', 1, 7, `Unexpected character '.', expected a JSON value`],
    ['{"a": NaN}', 1, 7, `Unexpected word 'NaN', expected a JSON value`],
    ['[Infinity]', 1, 2, `Unexpected word 'Infinity'`],
    ['{"a": truex}', 1, 7, `Unexpected word 'truex', expected a JSON value`],
    ["{'a': 1}", 1, 2, `Unexpected character "'", expected a property name in double quotes`],
    ['{"a": \'x\'}', 1, 7, `Unexpected character "'", expected a JSON value (JSON strings use double quotes)`],
    ['{\n  id: 1\n}', 2, 3, `Unexpected word 'id', expected a property name in double quotes`],
    ['{} {}', 1, 4, `Unexpected content after the JSON value: '{'`],
    ['\uFEFF{}', 1, 1, 'Unexpected character U+FEFF'],
    ['[1,\u00a02]', 1, 4, 'Unexpected character U+00A0, expected a JSON value'],
    ['[1,\v2]', 1, 4, 'Unexpected character U+000B, expected a JSON value'],
    ['// comment\n{}', 1, 1, 'Comments are not allowed in JSON'],
    ['{"a": 1 /* note */}', 1, 9, 'Comments are not allowed in JSON'],
    ['{\r\n  "a": x\r\n}', 2, 8, `Unexpected word 'x', expected a JSON value`],
  ])('locates and names the first syntax error of %j', (text, line, column, message) => {
    expect(() => JSON.parse(text)).toThrow()
    const problem = checkSlideJson('slide.controls.json', text)
    expect(problem).toMatchObject({ file: 'slide.controls.json', line, column })
    if (typeof message === 'string') expect(problem?.message).toBe(message)
    else expect(problem?.message).toMatch(message)
  })

  it.each([
    ['["\\ud800"]', 'an escaped lone surrogate'],
    ['["\ud800"]', 'a raw lone surrogate'],
    ['["a\u2028b\u2029"]', 'raw U+2028 and U+2029 in a string'],
    ['["\u007f"]', 'a raw DEL in a string'],
    ['[-0, 0.0e-0, 1E+2]', 'numbers at the edges of the grammar'],
  ])('accepts what JSON.parse accepts: %j (%s)', (text) => {
    expect(() => JSON.parse(text)).not.toThrow()
    expect(checkSlideJson('slide.content.json', text)).toBeUndefined()
  })

  it('points at the first problem in a string even when jsonc-parser names a later one', () => {
    // jsonc-parser reports the last problem of a string at its opening quote; the engine's position pins the first.
    expect(checkSlideJson('slide.content.json', '["\\q\u0001"]')).toMatchObject({
      line: 1,
      column: 4,
      message: expect.stringMatching(/^Invalid escape/),
    })
    // Without a position from the engine, a control character is still found inside the string.
    expect(locateJsonSyntaxError('["ab\u0001"]')).toMatchObject({ offset: 4, message: expect.stringMatching(/^Control character U\+0001/) })
    expect(locateJsonSyntaxError('["\\q"]')).toMatchObject({ offset: 1, message: expect.stringMatching(/^Invalid escape/) })
  })

  /** The 0-based offset of a 1-based line and column, checking that they lie within `text`. */
  function offsetWithin(text: string, line: number, column: number): number {
    const lines = text.split(/\r\n|\r|\n/)
    expect(line).toBeGreaterThanOrEqual(1)
    expect(line).toBeLessThanOrEqual(lines.length)
    expect(column).toBeGreaterThanOrEqual(1)
    expect(column).toBeLessThanOrEqual(lines[line - 1]!.length + 1)
    let offset = 0
    for (let i = 0; i < line - 1; i++) offset += lines[i]!.length + (text.startsWith('\r\n', offset + lines[i]!.length) ? 2 : 1)
    return offset + column - 1
  }

  it('reports a problem inside the text for every mutated document JSON.parse rejects, and none for the ones it accepts', () => {
    const random = prng(42)
    const seeds = [
      contentFile({
        title: 'Hello',
        blocks: [
          { type: 'bullets', items: ['a', 'b'] },
          { type: 'quote', text: 'q "x"', author: 'A' },
        ],
      }),
      '{"a":[1,-2.5e+3,true,false,null,"x\\n\\u00e9\\"",{}],"b":{"c":[[]]}}',
      '[0, 1e5, -0.0, "\\/", "\\ud83d\\ude00"]',
    ]
    const alphabet = [
      '{',
      '}',
      '[',
      ']',
      ',',
      ':',
      '"',
      '\\',
      'u',
      '0',
      '1',
      '-',
      '+',
      '.',
      'e',
      'E',
      ' ',
      '\n',
      '\r',
      '\t',
      't',
      'n',
      'f',
      'a',
      '\u0001',
      '\u001f',
      "'",
      '/',
      '*',
      '\u00a0',
      '\ufeff',
      '\u2028',
      '\ud800',
    ]
    let invalid = 0
    let valid = 0
    for (let round = 0; round < 4000; round++) {
      let text = seeds[round % seeds.length]!
      const edits = 1 + Math.floor(random() * 3)
      for (let e = 0; e < edits; e++) {
        const at = Math.floor(random() * (text.length + 1))
        const char = alphabet[Math.floor(random() * alphabet.length)]!
        const kind = random()
        text =
          kind < 0.33
            ? text.slice(0, at) + text.slice(at + 1)
            : kind < 0.66
              ? text.slice(0, at) + char + text.slice(at)
              : text.slice(0, at) + char + text.slice(at + 1)
      }
      let value: unknown
      let engineMessage: string | undefined
      try {
        value = JSON.parse(text)
      } catch (error) {
        engineMessage = (error as Error).message
      }
      const problem = checkSlideJson('slide.content.json', text)
      if (engineMessage === undefined) {
        valid++
        if (typeof value === 'object' && value !== null) expect(problem, JSON.stringify(text)).toBeUndefined()
        else expect(problem?.message).toMatch(/^Expected a JSON object or array at the top level/)
        continue
      }
      invalid++
      if (problem === undefined) throw new Error(`no problem reported for ${JSON.stringify(text)}, which JSON.parse rejects`)
      const offset = offsetWithin(text, problem.line, problem.column)
      expect(offset).toBeLessThanOrEqual(text.length)
      // jsonc-parser itself locates all of these; the engine's message is only a fallback.
      expect(locateJsonSyntaxError(text, engineMessage), JSON.stringify(text)).toBeDefined()
    }
    // The mutations must actually produce a good share of both kinds of documents.
    expect(invalid).toBeGreaterThan(1000)
    expect(valid).toBeGreaterThan(300)
  })

  it('falls back to the engine’s message where jsonc-parser cannot parse: nesting deep enough to overflow its recursion', () => {
    const deep = '['.repeat(200_000)
    expect(() => JSON.parse(deep)).toThrow()
    expect(locateJsonSyntaxError(deep)).toBeUndefined()
    expect(checkSlideJson('slide.controls.json', deep)).toMatchObject({ file: 'slide.controls.json', line: 1, column: 200_001 })
    // Valid, but deeper than the nesting bound: refused where it passes the bound.
    expect(checkSlideJson('slide.controls.json', `${deep}${']'.repeat(200_000)}`)).toEqual({
      file: 'slide.controls.json',
      line: 1,
      column: 65,
      message: 'Nested deeper than 64 levels of arrays and objects',
    })
    // Moderate nesting is within jsonc-parser's reach.
    expect(checkSlideJson('slide.controls.json', `${'['.repeat(1000)}1 2${']'.repeat(1000)}`)).toMatchObject({
      line: 1,
      column: 1003,
      message: `Expected ',' or a closing bracket, found '2'`,
    })
  })
})

describe('positionFromEngineMessage (fallback for engine messages)', () => {
  it('reads "at position N" and turns it into line:column', () => {
    expect(positionFromEngineMessage('Unexpected number in JSON at position 18', '{\n  "a": 1,\n  "b" 2\n}')).toEqual({
      line: 3,
      column: 7,
      message: 'Unexpected number',
    })
  })

  it('reads "(line X column Y)" as newer engines write it', () => {
    expect(
      positionFromEngineMessage(`Expected ',' or '}' after property value in JSON at position 12 (line 2 column 4)`, '{"a": 1\n  "b"}'),
    ).toEqual({ line: 2, column: 4, message: `Expected ',' or '}' after property value` })
  })

  it('falls back to the end of the text and drops the echo of the input when there is no position', () => {
    expect(positionFromEngineMessage(`Unexpected token ']', "[1,]" is not valid JSON`, '[1,]')).toEqual({
      line: 1,
      column: 5,
      message: `Unexpected token ']'`,
    })
    expect(positionFromEngineMessage('Unexpected end of JSON input', '{\n')).toEqual({
      line: 2,
      column: 1,
      message: 'Unexpected end of JSON input',
    })
  })
})

describe('assertValidSlideFiles', () => {
  it('accepts any subset of valid files, including none', () => {
    const files = blankSlideFiles()
    expect(() => assertValidSlideFiles({})).not.toThrow()
    expect(() => assertValidSlideFiles(files)).not.toThrow()
    expect(() => assertValidSlideFiles({ 'slide.content.json': files['slide.content.json'] })).not.toThrow()
  })

  it('throws a 400 whose hint is file:line:column: message', () => {
    expect(hintFor({ 'slide.tsx': 'export default function S() {\n  return (\n    <div>\n  )\n}' })).toMatch(/^slide\.tsx:\d+:\d+: \S/)
    expect(hintFor({ 'slide.content.json': '{\n  "title": }' })).toBe(`slide.content.json:2:12: Expected a JSON value, found '}'`)
  })

  it('names the first problem of every invalid file sent, in file order, and only those', () => {
    const files = blankSlideFiles()
    const hint = hintFor({ 'slide.controls.json': '[', 'slide.content.json': files['slide.content.json'], 'slide.tsx': 'const x = 1' })
    expect(hint).toBe(
      "slide.tsx:1:1: No default export; export the slide component with `export default function Slide() {…}` or `export { Slide as default }`; slide.controls.json:1:2: Expected ']' to close the array, found the end of the input",
    )
    expect(slideFileProblems({ 'slide.controls.json': '[', 'slide.tsx': 'const x = 1' }).map((p) => p.file)).toEqual([
      'slide.tsx',
      'slide.controls.json',
    ])
  })

  it('formats a problem the way the hint shows it', () => {
    expect(formatProblem({ file: 'slide.tsx', line: 3, column: 14, message: 'Unexpected token, expected ","' })).toBe(
      'slide.tsx:3:14: Unexpected token, expected ","',
    )
    expect(checkSlideFile('slide.content.json', '"x"')?.file).toBe('slide.content.json')
    expect(checkSlideFile('slide.tsx', 'export default 1')).toBeUndefined()
  })
})
