/**
 * How the facts compare JSON values: never by the order of an object's keys
 * (which the spec does not fix), always by the order of an array's items.
 */

/** JSON text of `value` with every object's keys sorted: equal values, equal text. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_, v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  )
}

/** Deep equality of JSON values, whatever the order of objects' keys. */
export function same(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b)
}

/** Whether `expected` is contained in `actual`: objects key by key (extra keys allowed), anything else equal. */
export function contains(actual: unknown, expected: unknown): boolean {
  if (typeof expected === 'object' && expected !== null && !Array.isArray(expected)) {
    if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return false
    return Object.entries(expected).every(([key, value]) => contains((actual as Record<string, unknown>)[key], value))
  }
  return same(actual, expected)
}

/** Two texts hold the same file: equal, or both JSON of equal values (a server may reformat JSON it saves). */
export function sameFileText(a: string, b: string): boolean {
  if (a === b) return true
  try {
    return same(JSON.parse(a), JSON.parse(b))
  } catch {
    return false
  }
}

/** A value shown in a report: JSON, cut to `max` characters. */
export function shown(value: unknown, max = 300): string {
  if (typeof value === 'string') return JSON.stringify(value).slice(0, max)
  try {
    const text = JSON.stringify(value)
    return text === undefined ? String(value) : text.length > max ? `${text.slice(0, max)}…` : text
  } catch {
    return String(value)
  }
}
