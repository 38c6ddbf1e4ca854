/**
 * `slide.tsx` to the JavaScript the renderer runs, on the emulator's side.
 *
 * The emulator's process transpiles a component but never runs it: the
 * text goes in, text comes out, and only the sandboxed renderer in a
 * browser evaluates it (see `docs/rendering.md`). The steps:
 *
 * 1. Babel's parser, with the options `PUT` validation uses, reads the
 *    module (a file stored without validation, through a state import or
 *    `--fixtures`, reports its syntax error here with line and column).
 * 2. A few spots Babel accepts but sucrase writes out wrongly are rewritten
 *    in the source first, guided by the AST: JSX namespaced names
 *    (`xlink:href`, `<svg:rect>`), string import and export names
 *    (`export { Slide as "default" }`), `import.meta` (the code runs as a
 *    classic worker script, not a module) and TypeScript namespaces that
 *    hold values (sucrase drops every namespace as if it were `declare`d;
 *    they become the function TypeScript itself emits).
 * 3. [Sucrase](https://github.com/alangpierce/sucrase) strips the types and
 *    turns JSX into `react/jsx-runtime` calls (the automatic runtime) and
 *    `import`/`export` into `require`/`exports`. It keeps every line where
 *    it was, so a line in an error is a line of `slide.tsx`; its source map
 *    gives the column.
 * 4. The output is parsed again exactly as the browser will load it: in
 *    the renderer's wrapper (`SLIDE_SCRIPT_PREFIX`, the body of an async
 *    function) as a classic script. What a browser would read otherwise
 *    than the emulator checked is refused (`runnableCodeProblem`): an
 *    HTML-like comment (`<!--`, `-->`: comments in a classic script only),
 *    code that is not wholly inside the wrapper's body or not strict, a
 *    dynamic `import()` or `import.meta` (a slide's imports are the
 *    `require` calls the renderer answers).
 *
 * Results are cached by the SHA-256 of the text and the transpiler's
 * version (`SlideTranspiler`): a page that shows an unchanged slide again
 * transpiles nothing.
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import { parse as parseScript } from '@babel/parser'
import { decode, encode } from '@jridgewell/sourcemap-codec'
import { getVersion, transform, type Options } from 'sucrase'
import { classicReadingProblem, HTML_LIKE_COMMENT, htmlCommentMessage, type SourceToken } from '../../src/model/classic-script.js'
import { defaultExportProblem, parseSlideTsx, type SlideFileProblem, type SlideTsxProgram } from '../../src/model/slide-validation.js'
import { SLIDE_SCRIPT_PREFIX, SLIDE_SCRIPT_SUFFIX } from './limits.js'

/** The transpiler and its version: part of every cache key, so an upgrade never serves old output. */
export const TRANSPILER_VERSION = `sucrase@${getVersion()}`

/** A transpiled component: a CommonJS-style body (`require`, `exports`) and its source map's `mappings` (lines are `slide.tsx`'s). */
export interface TranspiledSlide {
  ok: true
  code: string
  mappings: string
}

/** A component that cannot be transpiled: its first problem, with the line and column in `slide.tsx`. */
export interface TranspileFailure {
  ok: false
  problem: SlideFileProblem
}

export type TranspileResult = TranspiledSlide | TranspileFailure

const SUCRASE_OPTIONS: Options = {
  transforms: ['typescript', 'jsx', 'imports'],
  jsxRuntime: 'automatic',
  production: true,
  // Chromium runs modern JavaScript: only types, JSX and modules are rewritten.
  disableESTransforms: true,
  filePath: 'slide.tsx',
  sourceMapOptions: { compiledFilename: 'slide.js' },
}

/** The hex SHA-256 of a text (UTF-8). */
export function sha256Hex(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)))
}

/** The cache key of a `slide.tsx`: the SHA-256 of its text and the transpiler's version. */
export function transpileKey(text: string): string {
  return `${sha256Hex(text)}:${TRANSPILER_VERSION}`
}

/* ------------------------------------------------------- source rewrites */

interface Edit {
  start: number
  end: number
  text: string
}

// biome-ignore lint/suspicious/noExplicitAny: Babel's AST nodes, read by their `type`
type Node = { type: string; start: number; end: number } & Record<string, any>

/** Every node of a Babel AST, depth first. */
function* nodes(value: unknown): Generator<Node> {
  if (Array.isArray(value)) {
    for (const item of value) yield* nodes(item)
    return
  }
  if (typeof value !== 'object' || value === null) return
  const node = value as Node
  if (typeof node.type === 'string') yield node
  for (const [key, child] of Object.entries(node)) {
    if (key === 'loc' || key === 'extra' || key === 'leadingComments' || key === 'trailingComments' || key === 'innerComments') continue
    if (typeof child === 'object' && child !== null) yield* nodes(child)
  }
}

const IDENTIFIER_NAME = /^[\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*$/u

/** `text` padded with spaces to `length` (when shorter), so columns after it stay put. */
function padTo(text: string, length: number): string {
  return text.length >= length ? text : text + ' '.repeat(length - text.length)
}

const newlines = (text: string) => (text.match(/\r\n|\r|\n/g) ?? []).length

/** The names a binding pattern declares (`const { a, b: [c] } = …` → a, c). */
function boundNames(pattern: Node | null | undefined): string[] {
  if (pattern === null || pattern === undefined) return []
  switch (pattern.type) {
    case 'Identifier':
      return [pattern.name]
    case 'ObjectPattern':
      return pattern.properties.flatMap((property: Node) =>
        boundNames(property.type === 'RestElement' ? property.argument : property.value),
      )
    case 'ArrayPattern':
      return pattern.elements.flatMap((element: Node | null) => boundNames(element?.type === 'RestElement' ? element.argument : element))
    case 'AssignmentPattern':
      return boundNames(pattern.left)
    case 'RestElement':
      return boundNames(pattern.argument)
    default:
      return []
  }
}

/** The value names an exported declaration of a namespace adds to it (none for types and `declare`d ones). */
function exportedValueNames(declaration: Node): string[] {
  if (declaration.declare) return []
  switch (declaration.type) {
    case 'VariableDeclaration':
      return declaration.declarations.flatMap((declarator: Node) => boundNames(declarator.id))
    case 'FunctionDeclaration':
    case 'ClassDeclaration':
    case 'TSEnumDeclaration':
      return declaration.id === null ? [] : [declaration.id.name]
    default:
      return []
  }
}

/**
 * A TypeScript namespace holding values, as TypeScript emits it:
 * `namespace N { export const a = 1 }` → `var N; (function (N) { const a = 1; N.a = a; })(N || (N = {}));`,
 * each rewrite on the line it replaces. `parent` is the enclosing
 * namespace when this one is exported from it. Sucrase would drop it.
 */
function namespaceEdits(statement: Node, edits: Edit[], parent: string | undefined): void {
  const exported = statement.type === 'ExportNamedDeclaration' && statement.declaration?.type === 'TSModuleDeclaration'
  const declaration: Node = exported ? statement.declaration : statement
  if (declaration.type !== 'TSModuleDeclaration' || declaration.declare || declaration.id?.type !== 'Identifier') return
  const chain: Node[] = [declaration]
  let block: Node = declaration.body
  while (block?.type === 'TSModuleDeclaration') {
    chain.push(block)
    block = block.body
  }
  if (block?.type !== 'TSModuleBlock') return
  const names: string[] = chain.map((node) => node.id.name)
  const name = names[names.length - 1]!
  edits.push({ start: statement.start, end: block.start + 1, text: names.map((n) => `var ${n}; (function (${n}) {`).join(' ') })
  const closing: string[] = []
  for (let i = names.length - 1; i >= 0; i--) {
    const n = names[i]!
    const outer = i > 0 ? names[i - 1] : exported ? parent : undefined
    closing.push(outer === undefined ? `})(${n} || (${n} = {}));` : `})(${n} = ${outer}.${n} || (${outer}.${n} = {}));`)
  }
  // Exported from the module itself: an ES export the imports transform handles.
  if (exported && parent === undefined) closing.push(`export { ${names[0]} };`)
  edits.push({ start: block.end - 1, end: block.end, text: closing.join(' ') })
  for (const inner of block.body as Node[]) {
    if (inner.type === 'ExportNamedDeclaration' && inner.declaration !== null && inner.declaration !== undefined) {
      if (inner.declaration.type === 'TSModuleDeclaration') {
        namespaceEdits(inner, edits, name)
        continue
      }
      edits.push({ start: inner.start, end: inner.declaration.start, text: '' })
      const values = exportedValueNames(inner.declaration)
      if (values.length > 0)
        edits.push({ start: inner.end, end: inner.end, text: `; ${values.map((v) => `${name}.${v} = ${v};`).join(' ')}` })
    } else if (inner.type === 'TSModuleDeclaration') {
      namespaceEdits(inner, edits, undefined)
    }
  }
}

/**
 * The source with the spots sucrase mishandles rewritten, and the
 * replacements to make in its output (markers standing for text JSX or an
 * identifier cannot hold). Every rewrite keeps the number of lines.
 */
function prepare(text: string, program: SlideTsxProgram, markerBase: string): { source: string; after: Array<[string, string]> } {
  const edits: Edit[] = []
  const after: Array<[string, string]> = []
  let markers = 0
  const marker = (final: string) => {
    const name = `${markerBase}${markers++}`
    after.push([name, final])
    return name
  }
  const nameOf = (node: Node) => `${node.namespace.name}:${node.name.name}`
  // A hashbang is a comment only at the very start of a file; the code runs inside the renderer's wrapper.
  const interpreter = (program as { interpreter?: Node | null }).interpreter
  if (interpreter !== null && interpreter !== undefined) edits.push({ start: interpreter.start, end: interpreter.start + 2, text: '//' })
  for (const statement of program.body as Node[]) namespaceEdits(statement, edits, undefined)
  for (const node of nodes(program)) {
    switch (node.type) {
      case 'JSXAttribute': {
        if (node.name.type !== 'JSXNamespacedName') break
        // `xlink:href="#a"` → `{...{"xlink:href": "#a"}}`: the same prop, written as JavaScript.
        const key = JSON.stringify(nameOf(node.name))
        const value: Node | null = node.value
        if (value === null || value === undefined) {
          edits.push({ start: node.start, end: node.end, text: `{...{${key}: true}}` })
          break
        }
        edits.push({ start: node.start, end: value.start, text: `{...{${key}: ` })
        if (value.type === 'StringLiteral') {
          const raw = text.slice(value.start, value.end)
          edits.push({ start: value.start, end: value.end, text: `${JSON.stringify(value.value)}${'\n'.repeat(newlines(raw))}` })
        } else if (value.type === 'JSXExpressionContainer') {
          edits.push({ start: value.start, end: value.start + 1, text: '' })
          edits.push({ start: value.end - 1, end: value.end, text: '' })
          if (value.expression.type === 'JSXEmptyExpression') edits.push({ start: value.end, end: value.end, text: 'undefined' })
        }
        edits.push({ start: node.end, end: node.end, text: '}}' })
        break
      }
      case 'JSXOpeningElement':
      case 'JSXClosingElement':
        // `<svg:rect>`: JSX cannot name a string tag with a colon in it; a marker tag stands in, replaced after.
        if (node.name.type === 'JSXNamespacedName') {
          const name = nameOf(node.name)
          const existing = after.find(([, final]) => final === name)
          edits.push({ start: node.name.start, end: node.name.end, text: existing?.[0] ?? marker(name) })
        }
        break
      case 'MetaProperty':
        // `import.meta` exists only in modules; the renderer passes an object by this name (same length).
        if (node.meta.name === 'import' && node.property.name === 'meta')
          edits.push({ start: node.start, end: node.end, text: '__impMeta__' })
        break
      case 'ImportSpecifier':
      case 'ExportSpecifier':
      case 'ExportNamespaceSpecifier': {
        const named: Node | undefined = node.type === 'ImportSpecifier' ? node.imported : node.exported
        if (named?.type !== 'StringLiteral') break
        const raw = text.slice(named.start, named.end)
        const value = named.value as string
        // `"default"` → `default`; a name no identifier can spell gets a marker, put back as `["…"]` after.
        edits.push({
          start: named.start,
          end: named.end,
          text: IDENTIFIER_NAME.test(value) ? padTo(value, raw.length) : marker(JSON.stringify(value)),
        })
        break
      }
    }
  }
  edits.sort((a, b) => a.start - b.start || a.end - b.end)
  let source = ''
  let at = 0
  for (const edit of edits) {
    source += text.slice(at, edit.start) + edit.text
    at = edit.end
  }
  source += text.slice(at)
  return { source, after }
}

/** Puts back in the output what the markers stand for: a property access `.m` becomes `["…"]`, a quoted `'m'` the text. */
function restore(code: string, after: Array<[string, string]>): string {
  let out = code
  for (const [name, final] of after) {
    if (final.startsWith('"')) {
      out = out.replace(new RegExp(`\\.\\s*${name}\\b`, 'g'), `[${final}]`)
      out = out.replace(new RegExp(`(['"])${name}\\1`, 'g'), final)
      out = out.replace(new RegExp(`\\b${name}\\b`, 'g'), final)
    } else {
      out = out.replace(new RegExp(`\\b${name}\\b`, 'g'), final)
    }
  }
  return out
}

/* ------------------------------------------------------------- transpile */

function problemAt(line: number, column: number, message: string): TranspileFailure {
  return { ok: false, problem: { file: 'slide.tsx', line: Math.max(1, line), column: Math.max(1, column), message } }
}

/**
 * Transpiles one `slide.tsx`. Pure: the same text gives the same result.
 * Never runs the code.
 */
export function transpileSlideTsx(text: string): TranspileResult {
  const parsed = parseSlideTsx(text)
  if (!parsed.ok) return { ok: false, problem: parsed.problem }
  const missing = defaultExportProblem(parsed.program)
  if (missing !== undefined) return { ok: false, problem: missing }
  const { source, after } = prepare(text, parsed.program, `jsx_${sha256Hex(text).slice(0, 10)}_`)
  let output: ReturnType<typeof transform>
  try {
    output = transform(source, SUCRASE_OPTIONS)
  } catch (error) {
    const loc = (error as { loc?: { line?: number; column?: number } }).loc
    const message = String((error as Error)?.message ?? error).replace(/\s*\(\d+:\d+\)$/, '')
    return problemAt(loc?.line ?? 1, (loc?.column ?? 0) + 1, `could not be transpiled: ${message}`)
  }
  const code = restore(output.code, after)
  const problem = runnableCodeProblem(code)
  if (problem !== undefined) return problemAt(problem.line, problem.column, problem.message)
  return { ok: true, code, mappings: exactMappings(output.sourceMap?.mappings ?? '', code, text) }
}

/**
 * The map made exact for `slidePositionOf` (`client/errors.ts`): sucrase
 * maps where each source token starts, and a position between two segments
 * is read as that many columns past the first, which holds only where the
 * code between them is the source's text. So each mapped line gets a
 * segment at its end (the code written for a line's last token, such as an
 * import declaration with no `;` after it, had no end), and where the code
 * between two segments is the transpiler's own but as long as the source's
 * (`  import { a } from 'x'` and `  var _x = require('x');` are both 24
 * characters), a segment one column on splits it: afterwards a span as long
 * as its source is the source's text, and any other is the transpiler's.
 */
function exactMappings(mappings: string, code: string, text: string): string {
  if (mappings === '') return mappings
  const codeLines = code.split('\n')
  const textLines = text.split('\n')
  return encode(
    decode(mappings).map((segments, index) => {
      const generated = codeLines[index] ?? ''
      const source = textLines[index] ?? ''
      const mapped = segments.filter((segment) => segment.length >= 4 && segment[2] === index)
      if (mapped.length !== segments.length || mapped.length === 0) return segments
      const last = mapped.at(-1)!
      const ends: typeof segments =
        generated.length > last[0] && source.length >= last[3]! ? [[generated.length, last[1]!, index, source.length]] : []
      const all = [...mapped, ...ends]
      const exact: typeof segments = []
      for (const [at, segment] of all.entries()) {
        exact.push(segment)
        const next = all[at + 1]
        if (next === undefined) continue
        const [g0, , , s0] = segment as [number, number, number, number]
        const [g1, , , s1] = next as [number, number, number, number]
        if (g1 - g0 === s1 - s0 && g1 - g0 > 1 && generated.slice(g0, g1) !== source.slice(s0, s1))
          exact.push([g0 + 1, segment[1]!, index, s0])
      }
      return exact
    }),
  )
}

/** Lines of the renderer's wrapper before the code's first: a line of the code is a line of `slide.tsx`. */
const WRAPPER_LINES = SLIDE_SCRIPT_PREFIX.split('\n').length - 1

/**
 * Where transpiled `code` would not run as the emulator read it, or
 * `undefined`. It is parsed exactly as a worker loads it: inside the
 * renderer's wrapper (`SLIDE_SCRIPT_PREFIX` … `SLIDE_SCRIPT_SUFFIX`), as a
 * classic script. Refused: a syntax error; code that is not wholly the
 * body of the wrapper's async function (it would have closed the wrapper
 * and run beside it); a body that is not strict, as a module is; an
 * HTML-like comment or a `<!--` or `-->` outside a string, template,
 * regular expression or comment (`src/model/classic-script.ts`: what a
 * classic script reads as a comment, a module reads as code); a dynamic
 * `import()` or `import.meta` (a slide imports through `require`, which the
 * renderer answers; the renderer's CSP refuses module loading as well).
 * Lines are the code's (so `slide.tsx`'s), columns the code's.
 */
export function runnableCodeProblem(code: string): { line: number; column: number; message: string } | undefined {
  const script = SLIDE_SCRIPT_PREFIX + code + SLIDE_SCRIPT_SUFFIX
  const at = (line: number, column: number, message: string) => ({ line: line - WRAPPER_LINES, column, message })
  const suspect = HTML_LIKE_COMMENT.test(code)
  let file: ReturnType<typeof parseScript>
  try {
    file = parseScript(script, { sourceType: 'script', tokens: suspect })
  } catch (error) {
    const loc = (error as { loc?: { line?: number; column?: number } }).loc
    return at(
      loc?.line ?? WRAPPER_LINES + 1,
      (loc?.column ?? 0) + 1,
      `could not be transpiled: ${(error as Error).message.replace(/\s*\(\d+:\d+\)$/, '')}`,
    )
  }
  for (const comment of file.comments ?? []) {
    if (script.startsWith('//', comment.start ?? 0) || script.startsWith('/*', comment.start ?? 0)) continue
    const token = script.startsWith('<!--', comment.start ?? 0) ? '<!--' : '-->'
    return at(comment.loc?.start.line ?? 1, (comment.loc?.start.column ?? 0) + 1, htmlCommentMessage(token))
  }
  if (suspect) {
    const classic = classicReadingProblem(script, (file.tokens ?? []) as SourceToken[])
    if (classic !== undefined) return at(classic.line, classic.column, htmlCommentMessage(classic.token))
  }
  const body = wrapperBody(file.program as unknown as Node)
  const open = SLIDE_SCRIPT_PREFIX.lastIndexOf('{')
  const close = SLIDE_SCRIPT_PREFIX.length + code.length + SLIDE_SCRIPT_SUFFIX.indexOf('}')
  if (body === undefined || body.start !== open || body.end !== close + 1) {
    return at(
      WRAPPER_LINES + 1,
      1,
      'could not be transpiled: the transpiled code does not stay inside the function the renderer runs it in',
    )
  }
  if (!(body.directives as Node[]).some((directive) => directive.value?.value === 'use strict')) {
    return at(WRAPPER_LINES + 1, 1, 'could not be transpiled: the transpiled code is not strict mode code, as a module is')
  }
  if (code.includes('import')) {
    for (const node of nodes(body)) {
      const call = node.type === 'ImportExpression' || (node.type === 'CallExpression' && node.callee?.type === 'Import')
      const meta = node.type === 'MetaProperty' && node.meta?.name === 'import'
      if (!call && !meta) continue
      const loc = node.loc?.start ?? { line: WRAPPER_LINES + 1, column: 0 }
      return at(
        loc.line,
        loc.column + 1,
        call
          ? 'slide.tsx loads a module with import() where the browser would run it; a slide imports only through import declarations (react, react/jsx-runtime, ./slide.content.json, ./slide.controls.json)'
          : 'slide.tsx reads import.meta where the browser would run it, which a slide cannot',
      )
    }
  }
  return undefined
}

/** The body of the wrapper's async arrow function (`__slideModule = function (…) { return (async () => {…})() }`), if the program is exactly that. */
function wrapperBody(program: Node): Node | undefined {
  if (program.body.length !== 1 || program.directives?.length > 0) return undefined
  const statement: Node = program.body[0]
  const assignment: Node | undefined = statement.type === 'ExpressionStatement' ? statement.expression : undefined
  if (assignment?.type !== 'AssignmentExpression' || assignment.left.type !== 'Identifier' || assignment.left.name !== '__slideModule')
    return undefined
  const fn: Node = assignment.right
  if (fn.type !== 'FunctionExpression' || fn.body.body.length !== 1 || fn.body.body[0].type !== 'ReturnStatement') return undefined
  const call: Node | null = fn.body.body[0].argument
  if (call?.type !== 'CallExpression' || call.arguments.length !== 0) return undefined
  const arrow: Node = call.callee
  if (arrow.type !== 'ArrowFunctionExpression' || !arrow.async || arrow.body.type !== 'BlockStatement') return undefined
  return arrow.body
}

/** How much a transpiler has done: slides transpiled, and answers from its cache. */
export interface TranspilerStats {
  transpiled: number
  cached: number
}

/**
 * Transpiles with a cache keyed by `transpileKey` (SHA-256 of the text and
 * the transpiler's version), least recently used dropped first. One per
 * emulator: nothing is shared between emulators.
 */
export class SlideTranspiler {
  readonly #cache = new Map<string, TranspileResult>()
  readonly #stats: TranspilerStats = { transpiled: 0, cached: 0 }

  constructor(private readonly capacity = 2_000) {}

  /** The result for `text`, from the cache when this text was transpiled before. */
  transpile(text: string): TranspileResult & { key: string } {
    const key = transpileKey(text)
    const cached = this.#cache.get(key)
    if (cached !== undefined) {
      this.#stats.cached++
      this.#cache.delete(key)
      this.#cache.set(key, cached)
      return { ...cached, key }
    }
    const result = transpileSlideTsx(text)
    this.#stats.transpiled++
    this.#cache.set(key, result)
    if (this.#cache.size > this.capacity) this.#cache.delete(this.#cache.keys().next().value!)
    return { ...result, key }
  }

  get stats(): TranspilerStats {
    return { ...this.#stats }
  }
}
