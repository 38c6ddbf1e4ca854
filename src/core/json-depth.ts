/**
 * The nesting bound of every JSON value the emulator accepts: request
 * bodies, slide files (`slide.content.json`, `slide.controls.json`), state
 * documents and fixtures. Pages and `JSON.stringify` recurse over what they
 * show, so a value nested thousands of levels deep, once stored, would
 * overflow the stack on every render. It is refused at the door instead.
 *
 * Neither check recurses without bound, whatever the input: the text check
 * is one loop, the value check stops at the bound.
 */

/** The deepest nesting accepted: `[[…]]` with 64 brackets is fine, 65 is refused. */
export const MAX_JSON_DEPTH = 64

/**
 * The offset (in UTF-16 code units) of the bracket that takes JSON `text`
 * deeper than `max` levels, or -1 when it stays within. Brackets inside
 * strings do not count. The text need not be valid JSON: only brackets and
 * strings are looked at, in one pass.
 */
export function jsonTextDepthExceeded(text: string, max = MAX_JSON_DEPTH): number {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (inString) {
      if (code === 0x5c /* \ */) i++
      else if (code === 0x22 /* " */) inString = false
    } else if (code === 0x22) inString = true
    else if (code === 0x5b /* [ */ || code === 0x7b /* { */) {
      depth++
      if (depth > max) return i
    } else if (code === 0x5d /* ] */ || code === 0x7d /* } */) depth--
  }
  return -1
}

/**
 * Whether `value` holds an array or object at depth `remaining` or more
 * below it (the value itself at depth 0). Recursive, but at most
 * `remaining + 1` calls deep, whatever the input: it stops at the bound.
 * Nothing is allocated, so a 137 MB state document is checked in a fraction
 * of what a walk that keeps a path for every value costs.
 */
function nestsDeeper(value: object, remaining: number): boolean {
  if (remaining === 0) return true
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i]
      if (typeof item === 'object' && item !== null && nestsDeeper(item, remaining - 1)) return true
    }
    return false
  }
  for (const key of Object.keys(value)) {
    const item: unknown = (value as Record<string, unknown>)[key]
    if (typeof item === 'object' && item !== null && nestsDeeper(item, remaining - 1)) return true
  }
  return false
}

/**
 * The path (`users[0].teams.x`) of the first place where `value` is nested
 * deeper than `max` levels of arrays and objects, or undefined when it
 * stays within. Never recurses deeper than `max`: a bounded check first,
 * then, only for a value that fails it, a walk with an explicit stack that
 * names the place.
 */
export function valueDepthExceeded(value: unknown, max = MAX_JSON_DEPTH): string | undefined {
  if (typeof value !== 'object' || value === null || !nestsDeeper(value, max)) return undefined
  return deepPath(value, max)
}

/** The path of the first place (in the order of an explicit-stack walk) where `value` nests deeper than `max`. */
function deepPath(value: object, max: number): string | undefined {
  interface Entry {
    value: unknown
    depth: number
    key: string | number | undefined
    parent: Entry | undefined
  }
  const stack: Entry[] = [{ value, depth: 0, key: undefined, parent: undefined }]
  while (stack.length > 0) {
    const entry = stack.pop()!
    const current = entry.value
    if (typeof current !== 'object' || current === null) continue
    if (entry.depth + 1 > max) return pathOf(entry)
    if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) {
        stack.push({ value: current[i], depth: entry.depth + 1, key: i, parent: entry })
      }
    } else {
      for (const key of Object.keys(current)) {
        stack.push({ value: (current as Record<string, unknown>)[key], depth: entry.depth + 1, key, parent: entry })
      }
    }
  }
  return undefined

  function pathOf(entry: Entry): string {
    const segments: string[] = []
    for (let e: Entry | undefined = entry; e !== undefined && e.key !== undefined; e = e.parent) {
      const key = e.key
      segments.push(typeof key === 'number' ? `[${key}]` : /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`)
    }
    const path = segments.reverse().join('')
    return path === '' ? '(top level)' : path.replace(/^\./, '')
  }
}
