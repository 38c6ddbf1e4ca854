/**
 * The 1-based line and column of `offset` in `text`. `\n`, `\r\n` and a
 * lone `\r` each end a line (what both JSON and JavaScript count as line
 * breaks, apart from JavaScript's U+2028/U+2029).
 *
 * Its own module, not the slide parsers': the record schemas use it to place
 * a nesting error, and every entry loads those schemas, while the parsers
 * (Babel's, ~400 KB) load only when a slide is written.
 */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const end = Math.max(0, Math.min(offset, text.length))
  let line = 1
  let lineStart = 0
  for (let i = 0; i < end; i++) {
    const code = text.charCodeAt(i)
    if (code === 0x0a || (code === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) {
      line++
      lineStart = i + 1
    }
  }
  return { line, column: end - lineStart + 1 }
}
