/**
 * Turning what a worker reports into a message a person can act on: where
 * in `slide.tsx` an error happened (from the stack and the transpiled
 * code's source map), and React's production error codes spelled out.
 */
import { decode } from '@jridgewell/sourcemap-codec'

/** A 1-based position in `slide.tsx`. */
export interface SlidePosition {
  line: number
  column: number
}

/**
 * The position in `slide.tsx` of a 1-based position in the worker's
 * script, whose first `offset` lines are the renderer's own (React, the
 * worker's start): the transpiled code's lines are `slide.tsx`'s, and the
 * column comes from the source map when it covers that spot.
 *
 * The map has a segment where a source token starts, and one at each
 * line's end (`exactMappings` in `transpile.ts`). Between two segments whose
 * spans differ in length the transpiler wrote code of its own (an import
 * declaration becomes `var _x = require('x'); ...`, JSX becomes calls): a
 * spot in there is at the first segment's token (the `import` keyword, the
 * `<`), not as many columns past it as the generated code is long.
 */
export function slidePositionOf(scriptLine: number, scriptColumn: number, mappings: string, offset: number): SlidePosition | undefined {
  const line = scriptLine - offset
  if (!Number.isInteger(line) || line < 1) return undefined
  let column = Math.max(1, scriptColumn)
  try {
    const segments = (decode(mappings)[line - 1] ?? []).filter((segment) => segment.length >= 4)
    let at = -1
    for (const [index, segment] of segments.entries()) if (segment[0]! <= scriptColumn - 1) at = index
    const best = segments[at]
    const next = segments[at + 1]
    if (best !== undefined && best[2] === line - 1) {
      const generated = next !== undefined && next[2] === best[2] && next[0]! - best[0]! !== next[3]! - best[3]!
      column = best[3]! + 1 + (generated ? 0 : scriptColumn - 1 - best[0]!)
    }
  } catch {
    // A malformed map: the line is still right.
  }
  return { line, column }
}

/** The first frame of a V8 stack that is in the worker's script (`url`), as a position in `slide.tsx`. */
export function slidePositionInStack(stack: string, url: string, mappings: string, offset: number): SlidePosition | undefined {
  for (const line of stack.split('\n').slice(0, 50)) {
    const at = line.lastIndexOf(url)
    if (at === -1) continue
    const match = /^:(\d+):(\d+)/.exec(line.slice(at + url.length))
    if (match === null) continue
    const position = slidePositionOf(Number(match[1]), Number(match[2]), mappings, offset)
    if (position !== undefined) return position
  }
  return undefined
}

/** React's production builds name errors by number; the ones a slide meets, spelled out (`%s` takes the error's arguments in turn). */
const REACT_ERRORS: Record<string, string> = {
  '31': 'Objects are not valid as a React child (found: %s). If you meant to render a collection of children, use an array instead.',
  '62': 'The `style` prop expects a mapping from style properties to values, not a string. For example, style={{marginRight: spacing + "em"}} when using JSX.',
  '60': 'Can only set one of `children` or `props.dangerouslySetInnerHTML`.',
  '61': '`props.dangerouslySetInnerHTML` must be in the form `{__html: ...}`.',
  '130':
    'Element type is invalid: expected a string (for built-in components) or a class/function (for composite components) but got: %s.%s',
  '137': '%s is a void element tag and must neither have `children` nor use `dangerouslySetInnerHTML`.',
  '301': 'Too many re-renders. React limits the number of renders to prevent an infinite loop.',
  '321': 'Invalid hook call. Hooks can only be called inside of the body of a function component.',
  '399': 'The component suspended (a promise, `lazy` or `use`) while rendering, and a static render cannot wait for it.',
  '426': 'A component suspended while rendering, and a static render cannot wait for it.',
  '462': 'Unexpected SuspendedOnImmediate.',
}

/** A React production error message (`Minified React error #31; visit …?args[]=…`) spelled out; any other message as it is. */
export function readableReactError(message: string): string {
  const match = /Minified React error #(\d+); visit (\S+) for the full message/.exec(message)
  if (match === null) return message
  const template = REACT_ERRORS[match[1]!]
  if (template === undefined) return `React error #${match[1]} (described at https://react.dev/errors/${match[1]}).`
  let args: string[] = []
  try {
    args = new URL(match[2]!).searchParams.getAll('args[]')
  } catch {
    // No arguments then.
  }
  let index = 0
  return template.replace(/%s/g, () => args[index++] ?? '')
}
