/**
 * The URLs a piece of CSS makes the browser load, read from its tokens
 * (`@csstools/css-tokenizer`, which follows CSS Syntax 3 as the browser's
 * own tokenizer does) after escapes are undone: `u\72l(…)`, `URL(…)`,
 * `im\61ge-set(…)`, `"\2f v1"` and a `\` before a newline in a string
 * read as the browser reads them. The sanitiser applies it to every
 * attribute value (a `style`, an SVG `fill` or `mask`, any other), to each
 * declaration and rule of a `<style>` element, and to the whole text it
 * leaves.
 *
 * A text passes only if each URL it names is allowed:
 *
 * - every `url(…)` (a URL token, or the function with a string), wherever
 *   it is: inside a `var()` fallback, an `if()`, a custom property's value;
 * - every string inside `src()`, `image-set()`, `-webkit-image-set()`,
 *   `image()`, `cross-fade()` (their strings are URLs), but in `type()`;
 * - the string of an `@import`.
 *
 * Inside those functions a value that is only known later is refused:
 * `image-set(var(--s) 1x)` would load whatever `--s` holds when the
 * declaration is used, so any function other than the image, gradient,
 * colour and maths functions (`var()`, `env()`, `attr()`, `if()`, a custom
 * `--function()`, and any function CSS adds later) refuses the text, as do
 * a `url(` or `src(` without a string and a URL token the tokenizer could
 * not read (a bad URL, dropped by the browser anyway). A custom property
 * is checked where it is declared (`--q: u\72l(/v1/x)` is refused there),
 * so `background-image: var(--q)` loads nothing a declaration did not pass.
 */
import { type CSSToken, TokenType, tokenize } from '@csstools/css-tokenizer'

/** Functions whose argument is a URL: a string (`url("…")`; `url(…)` unquoted is a URL token). */
const URL_FUNCTIONS = new Set(['url', 'src'])

/** Functions whose strings are URLs (`image-set("a.png" 1x)`). */
const IMAGE_FUNCTIONS = new Set(['image-set', '-webkit-image-set', 'image', '-webkit-image', 'cross-fade', '-webkit-cross-fade'])

/** Functions that may appear inside a URL or image function: they compute a value from what is written, and load nothing. */
const PLAIN_FUNCTIONS = new Set([
  'type',
  'linear-gradient',
  'radial-gradient',
  'conic-gradient',
  'repeating-linear-gradient',
  'repeating-radial-gradient',
  'repeating-conic-gradient',
  '-webkit-linear-gradient',
  '-webkit-radial-gradient',
  '-webkit-repeating-linear-gradient',
  '-webkit-repeating-radial-gradient',
  'rgb',
  'rgba',
  'hsl',
  'hsla',
  'hwb',
  'lab',
  'lch',
  'oklab',
  'oklch',
  'color',
  'color-mix',
  'light-dark',
  'calc',
  'min',
  'max',
  'clamp',
])

/** What a function or block open at a point is, for the tokens inside it. */
interface Open {
  /** The token that closes it. */
  closer: TokenType.CloseParen | TokenType.CloseSquare | TokenType.CloseCurly
  kind: 'url' | 'image' | 'type' | 'other'
  /** For `url(` and `src(`: its string has come. */
  argument?: boolean
  /** A `type()` inside a URL or image function (its strings are MIME types, not URLs). */
  mime?: boolean
}

const CLOSERS = {
  [TokenType.Function]: TokenType.CloseParen,
  [TokenType.OpenParen]: TokenType.CloseParen,
  [TokenType.OpenSquare]: TokenType.CloseSquare,
  [TokenType.OpenCurly]: TokenType.CloseCurly,
} as const

const isBlank = (token: CSSToken) => token[0] === TokenType.Whitespace || token[0] === TokenType.Comment

/**
 * Whether every URL `css` (a value, a declaration list, a rule or a
 * stylesheet) would load is one `allowed` accepts; `allowed` gets each URL
 * as written, escapes undone, and may allow a same-document `#fragment`.
 */
export function cssUrlsAllowed(css: string, allowed: (url: string) => boolean): boolean {
  const open: Open[] = []
  // How many of the open functions take URLs (`url`, `src`, the image functions), and how many are `type()` inside them.
  let urlContexts = 0
  let typeContexts = 0
  // After `@import`, until the rule's `;` or block: its string is a URL.
  let importing = false
  for (const token of tokenize({ css })) {
    const type = token[0]
    const top = open[open.length - 1]
    if (top?.kind === 'url' && !top.argument && !isBlank(token) && type !== TokenType.CloseParen) {
      // `url(` and `src(` take a string first, and nothing else: `src(var(--x))` is only known later.
      if (type !== TokenType.String) return false
      top.argument = true
    }
    switch (type) {
      case TokenType.URL:
        if (!allowed(token[4].value)) return false
        break
      case TokenType.BadURL:
        return false
      case TokenType.String:
        if ((urlContexts > 0 && typeContexts === 0) || importing) {
          if (!allowed(token[4].value)) return false
        }
        break
      case TokenType.BadString:
        if (urlContexts > 0 || importing) return false
        break
      case TokenType.AtKeyword:
        importing = token[4].value.toLowerCase() === 'import'
        break
      case TokenType.Semicolon:
        importing = false
        break
      case TokenType.Function: {
        const name = token[4].value.toLowerCase()
        const kind = URL_FUNCTIONS.has(name) ? 'url' : IMAGE_FUNCTIONS.has(name) ? 'image' : name === 'type' ? 'type' : 'other'
        if (urlContexts > 0 && kind === 'other' && !PLAIN_FUNCTIONS.has(name)) return false
        const mime = kind === 'type' && urlContexts > 0
        if (kind === 'url' || kind === 'image') urlContexts++
        if (mime) typeContexts++
        open.push({ closer: CLOSERS[type], kind, mime })
        break
      }
      case TokenType.OpenParen:
      case TokenType.OpenSquare:
      case TokenType.OpenCurly:
        if (type === TokenType.OpenCurly) importing = false
        open.push({ closer: CLOSERS[type], kind: 'other' })
        break
      case TokenType.CloseParen:
      case TokenType.CloseSquare:
      case TokenType.CloseCurly:
        // A closer closes only what it matches (a `]` inside a function is just a token).
        if (top !== undefined && top.closer === type) {
          open.pop()
          if (top.kind === 'url' && !top.argument) return false
          if (top.kind === 'url' || top.kind === 'image') urlContexts--
          if (top.mime) typeContexts--
        }
        break
    }
  }
  // What the text leaves open closes at its end, as the browser closes it: an unclosed `url(` without its string is refused.
  return !open.some((frame) => frame.kind === 'url' && !frame.argument)
}

/**
 * Whether an attribute value could make the browser load anything when
 * read as CSS: a URL token and a function both need a `(` as written (an
 * escaped `\(` is part of a name, never a parenthesis), so a value without
 * one is text. (`@import` loads only from a stylesheet, never from an
 * attribute.)
 */
export function mayHoldCssUrl(value: string): boolean {
  return value.includes('(')
}
