/**
 * Where an ES module and a classic script split the same text into tokens
 * differently: HTML-like comments (ECMAScript Annex B.1.1). In a classic
 * script `<!--` starts a comment that runs to the end of the line, and so
 * does `-->` at the start of a line; in a module both are operators
 * (`a <!--b` is `a < !(--b)`). A browser loads a slide's transpiled code as
 * a classic script (a worker's `importScripts`), while validation reads
 * `slide.tsx` as a module, so a slide could hide a line from validation in
 * a block comment and the browser would run it. In a module, the first
 * line `let label = "module" <!--label /` + `*` is a comparison followed by
 * the start of a block comment, which hides the next line and ends on the
 * third, `--> *` + `/`; in a classic script the first line's `<!--` makes
 * the rest of it a comment (the block comment never starts), the second
 * line runs, and the third is a comment again.
 *
 * The rule, applied to `slide.tsx` (so `PUT` refuses it, with its line and
 * column) and again to the transpiled code the browser runs
 * (`web/render/transpile.ts`): neither `<!--` nor `-->` may stand where
 * code is read, only inside a string, a template literal, a regular
 * expression, JSX text, a comment or the hashbang line, where both readings
 * agree it is text. Both ways of reading agree up to the first such token,
 * so with none, they agree on the whole text. `-->` in the middle of a line
 * (`x-->0`) would be read alike, and is refused all the same: a rule with no
 * exception about line starts (U+2028 and U+2029 end lines too) is one a
 * reader can check by eye; `x-- > 0` says the same.
 */

/** What a classic script would read as a comment and a module as code. */
export const HTML_LIKE_COMMENT = /<!--|-->/

/** Babel token types whose text both readings take as text, not code. */
const TEXT_TOKENS = new Set(['string', 'template', 'regexp', 'jsxText', '#!...', 'CommentLine', 'CommentBlock'])

/** A token of Babel's parser (`tokens: true`): its type (a label, or a comment's type name) and where it is. */
export interface SourceToken {
  type: string | { label: string }
  start: number
  end: number
  loc?: { start: { line: number; column: number } }
}

/** Where a classic script and a module would read `text` differently: the token, and its place. */
export interface ClassicReadingProblem {
  /** `<!--` or `-->`. */
  token: string
  offset: number
  /** 1-based line and column, counted as the parser counts them (U+2028 and U+2029 end lines too). */
  line: number
  column: number
  message: string
}

const label = (token: SourceToken) => (typeof token.type === 'string' ? token.type : token.type.label)

/** `\n`, `\r\n`, a lone `\r`, U+2028 and U+2029 each end a line, as in JavaScript. */
function jsLineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1
  let lineStart = 0
  for (let i = 0; i < offset; i++) {
    const code = text.charCodeAt(i)
    if (code === 0x0a || code === 0x2028 || code === 0x2029 || (code === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) {
      line++
      lineStart = i + 1
    }
  }
  return { line, column: offset - lineStart + 1 }
}

/** The message for an HTML-like comment token found where code is read. */
export function htmlCommentMessage(token: string): string {
  return token === '<!--'
    ? '`<!--` would start a comment where the browser runs the slide (a classic script) but is code in a module, so the two would read the slide differently; write `< !--` (with a space) or put it in a string'
    : '`-->` would start a comment at the start of a line where the browser runs the slide (a classic script) but is code in a module, so a slide may not use it outside strings and comments; write `-- >` (with a space)'
}

/**
 * The first `<!--` or `-->` of `text` that stands where code is read, given
 * the tokens a parser read it into (Babel's, `tokens: true`, comments
 * included), or `undefined` when every one is inside text (a string, a
 * template, a regular expression, JSX text, a comment, the hashbang).
 * A comment token counts as text only when it is a `//` or `/*` one: an
 * HTML-like comment a classic-script parser found is itself the problem.
 */
export function classicReadingProblem(text: string, tokens: readonly SourceToken[]): ClassicReadingProblem | undefined {
  if (!HTML_LIKE_COMMENT.test(text)) return undefined
  let i = 0
  for (const match of text.matchAll(/<!--|-->/g)) {
    const at = match.index
    while (i < tokens.length && tokens[i]!.end <= at) i++
    const token = tokens[i]
    if (token !== undefined && token.start <= at && TEXT_TOKENS.has(label(token))) {
      const comment = label(token).startsWith('Comment')
      if (!comment || text.startsWith('//', token.start) || text.startsWith('/*', token.start)) continue
    }
    const place =
      token !== undefined && token.start === at && token.loc !== undefined
        ? { line: token.loc.start.line, column: token.loc.start.column + 1 }
        : jsLineColumn(text, at)
    return { token: match[0], offset: at, ...place, message: htmlCommentMessage(match[0]) }
  }
  return undefined
}
