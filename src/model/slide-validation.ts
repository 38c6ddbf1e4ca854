import { parse as parseModule, type ParseError, type ParserOptions } from '@babel/parser'
import { parse as parseJsonc, printParseErrorCode, type ParseError as JsoncParseError, type ParseOptions } from 'jsonc-parser'
import { fail } from '../core/errors.js'
import { classicReadingProblem, HTML_LIKE_COMMENT, type SourceToken } from './classic-script.js'
import { jsonTextDepthExceeded, MAX_JSON_DEPTH } from '../core/json-depth.js'
import { lineColumn } from '../core/text-position.js'
import { SLIDE_FILE_NAMES, type PartialSlideFiles, type SlideFileName } from '../schemas/index.js'

/**
 * Validation of a slide's source files before they are saved.
 *
 * - `slide.tsx` must parse as a TypeScript + JSX ES module (Babel's parser
 *   with the `typescript` and `jsx` plugins: pure JavaScript, so it runs in
 *   Node and in a browser under msw's `setupWorker`) and have a default
 *   export that is a value (`export default …`, `export { X as default }`
 *   or `export { default } from …`; a type-only default export does not count),
 *   with no `<!--` or `-->` where code is read (a browser, which runs the
 *   slide as a classic script, would read either as a comment: see
 *   `classic-script.ts`).
 * - `slide.content.json` and `slide.controls.json` must parse as JSON
 *   (exactly what `JSON.parse` accepts; when it rejects a file, Microsoft's
 *   jsonc-parser locates and names the error) and their top-level value
 *   must be an object or an array, nested at most 64 levels deep. A scalar can hold neither content
 *   blocks nor a list of controls, so the emulator applies the same rule
 *   to both files.
 *
 * A problem is reported as `file:line:column: message`. Lines and columns
 * are 1-based; columns count UTF-16 code units, as editors do. Only syntax
 * and the top-level shape are checked: types, imports and the shape of
 * the content are not.
 */

/** The first problem found in one slide file. */
export interface SlideFileProblem {
  file: SlideFileName
  /** 1-based line. */
  line: number
  /** 1-based column, in UTF-16 code units. */
  column: number
  message: string
}

/** `slide.tsx:3:14: Unexpected token, expected ","`. */
export function formatProblem(problem: SlideFileProblem): string {
  return `${problem.file}:${problem.line}:${problem.column}: ${problem.message}`
}

export { lineColumn }

/* ------------------------------------------------------------------ TSX */

const PARSER_OPTIONS: ParserOptions = {
  sourceType: 'module',
  plugins: ['typescript', 'jsx'],
  errorRecovery: false,
}

/** Default exports that are types, not values: they cannot be rendered. */
const TYPE_ONLY_DECLARATIONS = new Set(['TSInterfaceDeclaration', 'TSDeclareFunction'])

function isParseError(error: unknown): error is ParseError {
  const loc = (error as { loc?: { line?: unknown; column?: unknown } } | null)?.loc
  return error instanceof SyntaxError && typeof loc?.line === 'number' && typeof loc.column === 'number'
}

/** What a program's default export is: a value, only a type, or absent. */
// biome-ignore lint/suspicious/noExplicitAny: Babel's AST nodes, read by their `type`
function defaultExportKind(body: ReadonlyArray<{ type: string } & Record<string, any>>): 'value' | 'type' | 'none' {
  let found: 'type' | 'none' = 'none'
  for (const node of body) {
    if (node.type === 'ExportDefaultDeclaration') {
      if (TYPE_ONLY_DECLARATIONS.has(node.declaration?.type)) found = 'type'
      else return 'value'
    } else if (node.type === 'ExportNamedDeclaration') {
      for (const specifier of node.specifiers ?? []) {
        const exported = specifier.exported
        const name = exported?.type === 'StringLiteral' ? exported.value : exported?.name
        if (name !== 'default') continue
        if (node.exportKind === 'type' || specifier.exportKind === 'type') found = 'type'
        else return 'value'
      }
    }
  }
  return found
}

/** A parsed `slide.tsx`: Babel's AST of the module. */
export type SlideTsxProgram = ReturnType<typeof parseModule>['program']

/**
 * Parses `slide.tsx` exactly as validation does (TypeScript + JSX, an ES
 * module): its program, or its first syntax error as a problem. A `<!--`
 * or `-->` where code is read is a problem too: a browser runs the slide as
 * a classic script, which reads it as a comment (`classic-script.ts`). The
 * renderer's transpiler reads the same AST, so what validation accepts is
 * what it transpiles.
 */
export function parseSlideTsx(text: string): { ok: true; program: SlideTsxProgram } | { ok: false; problem: SlideFileProblem } {
  const file = 'slide.tsx'
  try {
    // Tokens only when the text holds what a browser could read as a comment (see classic-script.ts).
    const suspect = HTML_LIKE_COMMENT.test(text)
    const parsed = parseModule(text, suspect ? { ...PARSER_OPTIONS, tokens: true } : PARSER_OPTIONS)
    const classic = suspect ? classicReadingProblem(text, (parsed.tokens ?? []) as SourceToken[]) : undefined
    if (classic !== undefined) return { ok: false, problem: { file, line: classic.line, column: classic.column, message: classic.message } }
    return { ok: true, program: parsed.program }
  } catch (error) {
    if (isParseError(error)) {
      return {
        ok: false,
        problem: {
          file,
          line: error.loc.line,
          column: error.loc.column + 1,
          // Babel appends "(line:column)" with a 0-based column; the hint has its own position.
          message: error.message.replace(/\s*\(\d+:\d+\)$/, ''),
        },
      }
    }
    return {
      ok: false,
      problem: { file, line: 1, column: 1, message: `could not be parsed: ${(error as Error)?.message ?? String(error)}` },
    }
  }
}

/** The problem of a parsed `slide.tsx` without a value default export, or `undefined`. */
export function defaultExportProblem(program: SlideTsxProgram): SlideFileProblem | undefined {
  const kind = defaultExportKind(program.body as never)
  if (kind === 'value') return undefined
  return {
    file: 'slide.tsx',
    line: 1,
    column: 1,
    message:
      kind === 'type'
        ? 'The default export is a type; export the slide component as the default export'
        : 'No default export; export the slide component with `export default function Slide() {…}` or `export { Slide as default }`',
  }
}

/** The first problem of a `slide.tsx`, or `undefined` when it is valid. */
export function checkSlideTsx(text: string): SlideFileProblem | undefined {
  const parsed = parseSlideTsx(text)
  return parsed.ok ? defaultExportProblem(parsed.program) : parsed.problem
}

/* ----------------------------------------------------------------- JSON */

/** A JSON syntax error: where it is (offset in UTF-16 code units) and what it is. */
export interface JsonSyntaxError {
  offset: number
  message: string
}

/** jsonc-parser in strict mode: no comments, no trailing commas, no empty text. */
const JSONC_STRICT: ParseOptions = { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false }

type JsoncErrorName = ReturnType<typeof printParseErrorCode>

/** Errors jsonc-parser reports at the start of the string that holds them. */
const STRING_ERRORS: ReadonlySet<JsoncErrorName> = new Set([
  'InvalidCharacter',
  'InvalidEscapeCharacter',
  'InvalidUnicode',
  'UnexpectedEndOfString',
])

/**
 * How a message shows the token at `offset`: `'x'` when visible (`"'"` when
 * it holds a single quote), `U+FEFF` for an invisible character, and
 * `the end of the input` past the end.
 */
function describeToken(text: string, offset: number, length: number): string {
  if (offset >= text.length) return 'the end of the input'
  const token = text.slice(offset, offset + Math.max(length, 1))
  const code = token.codePointAt(0)!
  if (token.length === String.fromCodePoint(code).length && !/^[\p{L}\p{N}\p{P}\p{S}]$/u.test(token)) {
    return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`
  }
  const shown = token.length > 20 ? `${token.slice(0, 20)}…` : token
  return shown.includes("'") ? `"${shown}"` : `'${shown}'`
}

/** What an `InvalidSymbol` stands in place of, from the error jsonc-parser reports right after it. */
const EXPECTED_INSTEAD: Partial<Record<JsoncErrorName, string>> = {
  PropertyNameExpected: ', expected a property name in double quotes',
  ValueExpected: ', expected a JSON value',
}

/** The readable message for jsonc-parser's error `name` at `offset` (`length` code units long). */
function jsoncMessage(name: JsoncErrorName, text: string, offset: number, length: number, next: JsoncParseError | undefined): string {
  const found = describeToken(text, offset, length)
  const trailingComma =
    /[\]}]/.test(text[offset] ?? '') && text.slice(0, offset).trimEnd().endsWith(',') ? ' (JSON allows no trailing comma)' : ''
  switch (name) {
    case 'ValueExpected':
      return `Expected a JSON value, found ${found}${trailingComma}`
    case 'PropertyNameExpected':
      return `Expected a property name in double quotes, found ${found}${trailingComma}`
    case 'ColonExpected':
      return `Expected ':' after the property name, found ${found}`
    case 'CommaExpected':
      // jsonc-parser reads `01` as the number 0 followed by the number 1.
      if (text[offset - 1] === '0' && /[0-9]/.test(text[offset] ?? '')) return 'Invalid number: JSON allows no leading zeros'
      return `Expected ',' or a closing bracket, found ${found}`
    case 'CloseBraceExpected':
      return `Expected '}' to close the object, found ${found}`
    case 'CloseBracketExpected':
      return `Expected ']' to close the array, found ${found}`
    case 'EndOfFileExpected':
      return `Unexpected content after the JSON value: ${found}`
    case 'InvalidSymbol': {
      const word = /^[A-Za-z_$]/.test(text[offset] ?? '')
      const adjacent = next !== undefined && text.slice(offset + length, next.offset).trim() === ''
      const expected = adjacent ? (EXPECTED_INSTEAD[printParseErrorCode(next.error)] ?? '') : ''
      const quotes = text[offset] === "'" && !expected.includes('double quotes') ? ' (JSON strings use double quotes)' : ''
      return `Unexpected ${word ? 'word' : 'character'} ${describeToken(text, offset, word ? length : 1)}${expected}${quotes}`
    }
    case 'InvalidNumberFormat':
      return `Invalid number ${found}`
    case 'UnexpectedEndOfNumber':
      return `Incomplete number ${found} (digits must follow '.', 'e' and 'E')`
    case 'InvalidCharacter':
      return `Control character ${text.charCodeAt(offset) < 0x20 ? `${found} ` : ''}in a string (escape it, for example as \\n or \\t)`
    case 'InvalidEscapeCharacter':
      return 'Invalid escape in a string (valid: \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)'
    case 'InvalidUnicode':
      return 'Invalid Unicode escape in a string (expected \\u and four hex digits)'
    case 'UnexpectedEndOfString':
      return /[\n\r]/.test(text[offset + length] ?? '')
        ? 'Unterminated string (a line break in a string must be written \\n)'
        : 'Unterminated string'
    case 'InvalidCommentToken':
      return 'Comments are not allowed in JSON'
    case 'UnexpectedEndOfComment':
      return 'Unterminated comment (comments are not allowed in JSON)'
    default:
      return `Invalid JSON (${name})`
  }
}

/** The offset `JSON.parse`'s message names (`… at position N`), if it names one. */
function engineOffset(message: string): number | undefined {
  const at = /\bat position (\d+)/.exec(message)
  return at === null ? undefined : Number(at[1])
}

/**
 * Where the first syntax error of `text` is and what it is, as
 * [jsonc-parser](https://github.com/microsoft/node-jsonc-parser) (strict:
 * no comments, no trailing commas, no empty text) reports it. Only called
 * once `JSON.parse` has rejected `text`: the engine decides what is valid,
 * jsonc-parser locates and names the error, because V8's messages do not
 * always carry a position (Node 20: `Unexpected token ']', "[1,]" is not
 * valid JSON`) and are worded differently between versions.
 *
 * jsonc-parser reports an error in a string (a control character, a bad
 * escape, a line break) at the string's opening quote; when the engine's
 * message (`engineMessage`) names a position inside that string, that more
 * precise position is used. Returns `undefined` when jsonc-parser reports
 * nothing or cannot parse (it recurses, so very deep nesting overflows the
 * stack); the caller then falls back to the engine's message.
 */
export function locateJsonSyntaxError(text: string, engineMessage = ''): JsonSyntaxError | undefined {
  const errors: JsoncParseError[] = []
  try {
    parseJsonc(text, errors, JSONC_STRICT)
  } catch {
    return undefined
  }
  const [first, next] = errors
  if (first === undefined) return undefined
  let name = printParseErrorCode(first.error)
  let { offset, length } = first
  if (STRING_ERRORS.has(name)) {
    const at = engineOffset(engineMessage)
    if (at !== undefined && at > offset && at <= offset + length && at < text.length) {
      offset = at
      length = 1
      // The engine stops at the first problem in the string; jsonc-parser names the last one.
      if (text.charCodeAt(at) < 0x20) name = 'InvalidCharacter'
      else if (name === 'InvalidCharacter' || name === 'UnexpectedEndOfString') name = 'InvalidEscapeCharacter'
    } else if (name === 'InvalidCharacter') {
      // Without the engine's position, point at the first control character in the string.
      const control = /[\u0000-\u001f]/.exec(text.slice(offset, offset + length))
      if (control !== null) offset += control.index
      length = 1
    }
  }
  return { offset, message: jsoncMessage(name, text, offset, length, next) }
}

/**
 * Where a `JSON.parse` error message says the error is, for the cases
 * jsonc-parser cannot locate (see `locateJsonSyntaxError`): V8 writes
 * `… at position N` and, in newer versions, `… (line L column C)`. Returns
 * the message without its position and without the echo of the input
 * (`, "…" is not valid JSON`).
 */
export function positionFromEngineMessage(message: string, text: string): { line: number; column: number; message: string } {
  const lineCol = /\(?line (\d+) column (\d+)\)?/.exec(message)
  const at = /\bat position (\d+)/.exec(message)
  const clean =
    message
      .replace(/\s*\(?line \d+ column \d+\)?/, '')
      .replace(/\s*(?:in JSON )?at position \d+/, '')
      .replace(/, ".*" is not valid JSON$/s, '')
      .trim() || 'Invalid JSON'
  if (lineCol !== null) return { line: Number(lineCol[1]), column: Number(lineCol[2]), message: clean }
  if (at !== null) return { ...lineColumn(text, Number(at[1])), message: clean }
  return { ...lineColumn(text, text.length), message: clean }
}

function describeJsonValue(value: unknown): string {
  if (value === null) return 'null'
  if (typeof value === 'string') return 'a string'
  if (typeof value === 'number') return 'a number'
  if (typeof value === 'boolean') return 'a boolean'
  return typeof value
}

/** The first problem of a JSON slide file, or `undefined` when it is valid. */
export function checkSlideJson(file: 'slide.content.json' | 'slide.controls.json', text: string): SlideFileProblem | undefined {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (engineError) {
    const engineMessage = String((engineError as Error | undefined)?.message ?? engineError)
    const found = locateJsonSyntaxError(text, engineMessage)
    if (found !== undefined) return { file, ...lineColumn(text, found.offset), message: found.message }
    return { file, ...positionFromEngineMessage(engineMessage, text) }
  }
  if (typeof value === 'object' && value !== null) {
    // Pages render what is stored: a file nested thousands of levels deep would overflow their stack.
    const tooDeep = jsonTextDepthExceeded(text)
    if (tooDeep === -1) return undefined
    return { file, ...lineColumn(text, tooDeep), message: `Nested deeper than ${MAX_JSON_DEPTH} levels of arrays and objects` }
  }
  // JSON.parse accepted the text, so what precedes the value is JSON whitespace.
  const start = text.length - text.trimStart().length
  return {
    file,
    ...lineColumn(text, start),
    message: `Expected a JSON object or array at the top level, got ${describeJsonValue(value)}`,
  }
}

/* ---------------------------------------------------------------- files */

/** The first problem of one slide file, or `undefined` when it is valid. */
export function checkSlideFile(file: SlideFileName, text: string): SlideFileProblem | undefined {
  return file === 'slide.tsx' ? checkSlideTsx(text) : checkSlideJson(file, text)
}

/** The first problem of each file present in `files`, in the order slide.tsx, slide.content.json, slide.controls.json. */
export function slideFileProblems(files: PartialSlideFiles): SlideFileProblem[] {
  const problems: SlideFileProblem[] = []
  for (const file of SLIDE_FILE_NAMES) {
    const text = files[file]
    if (text === undefined) continue
    const problem = checkSlideFile(file, text)
    if (problem !== undefined) problems.push(problem)
  }
  return problems
}

/**
 * Validates every file present in `files` before anything is saved. Throws
 * the 400 `VALIDATION_ERROR` whose hint lists the first problem of each
 * invalid file (`file:line:column: message`, joined by `; `).
 */
export function assertValidSlideFiles(files: PartialSlideFiles): void {
  const problems = slideFileProblems(files)
  if (problems.length > 0) throw fail.validation(problems.map(formatProblem).join('; '))
}
