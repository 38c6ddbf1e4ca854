import fc from 'fast-check'
import type { z } from 'zod'

/**
 * fast-check arbitraries generated from the zod schemas (inputs *from* the
 * schemas) and mutations of them (inputs *around* the schemas: wrong types,
 * missing and extra keys, bounds ± 1, huge and odd unicode strings, deep
 * nesting, duplicate keys, text that is not JSON).
 *
 * No maintained library turns zod 4 schemas into arbitraries (zod-fast-check
 * targets zod 3), so `fromSchema` walks the schema's own definition. It
 * covers the kinds our request schemas use; refinements are not solved, so
 * some generated values are rejected, which is a valid input too.
 */

type Def = { type: string; [key: string]: any }
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def
const isOptional = (schema: z.ZodType) => (schema as unknown as { _zod: { optin?: string } })._zod.optin === 'optional'

interface Bounds {
  min?: number
  max?: number
  minExclusive?: boolean
  maxExclusive?: boolean
  int?: boolean
  pattern?: RegExp
  format?: string
}

function boundsOf(def: Def): Bounds {
  const bounds: Bounds = {}
  if (def.format !== undefined) bounds.format = def.format
  for (const check of def.checks ?? []) {
    const c = check._zod.def as Def & Record<string, any>
    if (c.check === 'min_length') bounds.min = c.minimum
    else if (c.check === 'max_length') bounds.max = c.maximum
    else if (c.check === 'length_equals') bounds.min = bounds.max = c.length
    else if (c.check === 'greater_than') {
      bounds.min = c.value
      bounds.minExclusive = !c.inclusive
    } else if (c.check === 'less_than') {
      bounds.max = c.value
      bounds.maxExclusive = !c.inclusive
    } else if (c.check === 'number_format' && /int/.test(c.format)) bounds.int = true
    else if (c.check === 'string_format') {
      if (c.format === 'regex') bounds.pattern = c.pattern
      else bounds.format = c.format
    }
  }
  if (def.format === 'safeint') bounds.int = true
  return bounds
}

function stringArbitrary(bounds: Bounds): fc.Arbitrary<string> {
  if (bounds.pattern !== undefined) {
    const pattern = bounds.pattern
    return fc
      .stringMatching(pattern)
      .filter((s) => (bounds.min === undefined || s.length >= bounds.min) && (bounds.max === undefined || s.length <= bounds.max))
  }
  if (bounds.format === 'url') return fc.webUrl()
  if (bounds.format === 'datetime')
    return fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString())
  const minLength = bounds.min ?? 0
  const maxLength = Math.max(minLength, Math.min(bounds.max ?? 40, 40))
  return fc.oneof(
    { weight: 3, arbitrary: fc.string({ minLength, maxLength }) },
    { weight: 1, arbitrary: fc.string({ minLength, maxLength, unit: 'grapheme' }) },
  )
}

function numberArbitrary(bounds: Bounds): fc.Arbitrary<number> {
  if (bounds.int) {
    const min = Math.max(bounds.min ?? -1_000_000, Number.MIN_SAFE_INTEGER) + (bounds.minExclusive ? 1 : 0)
    const max = Math.min(bounds.max ?? 1_000_000, Number.MAX_SAFE_INTEGER) - (bounds.maxExclusive ? 1 : 0)
    return fc.integer({ min, max })
  }
  return fc.double({
    min: bounds.min ?? -1e6,
    max: bounds.max ?? 1e6,
    noNaN: true,
    noDefaultInfinity: true,
    minExcluded: bounds.minExclusive,
    maxExcluded: bounds.maxExclusive,
  })
}

/** Values that satisfy `schema`'s structure (refinements aside). */
export function fromSchema(schema: z.ZodType, depth = 0): fc.Arbitrary<unknown> {
  const def = defOf(schema)
  switch (def.type) {
    case 'string':
      return stringArbitrary(boundsOf(def))
    case 'number':
      return numberArbitrary(boundsOf(def))
    case 'boolean':
      return fc.boolean()
    case 'null':
      return fc.constant(null)
    case 'enum':
      return fc.constantFrom(...(Object.values(def.entries) as unknown[]))
    case 'literal':
      return fc.constantFrom(...(def.values as unknown[]))
    case 'array': {
      const bounds = boundsOf(def)
      const minLength = bounds.min ?? 0
      return fc.array(fromSchema(def.element, depth + 1), { minLength, maxLength: Math.max(minLength, Math.min(bounds.max ?? 3, 3)) })
    }
    case 'object': {
      const shape = def.shape as Record<string, z.ZodType>
      const model: Record<string, fc.Arbitrary<unknown>> = {}
      const requiredKeys: string[] = []
      for (const [key, value] of Object.entries(shape)) {
        model[key] = fromSchema(value, depth + 1)
        if (!isOptional(value)) requiredKeys.push(key)
      }
      return fc.record(model, { requiredKeys })
    }
    case 'optional':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
      return fromSchema(def.innerType, depth)
    case 'nullable':
      return fc.option(fromSchema(def.innerType, depth), { nil: null, freq: 4 })
    case 'union':
      return fc.oneof(...(def.options as z.ZodType[]).map((option) => fromSchema(option, depth)))
    case 'pipe':
      return fromSchema(def.in, depth)
    case 'record':
      return fc.dictionary(fromSchema(def.keyType, depth + 1) as fc.Arbitrary<string>, fromSchema(def.valueType, depth + 1), { maxKeys: 3 })
    case 'lazy':
      return depth > 4 ? fc.constant(null) : fromSchema(def.getter(), depth + 1)
    default:
      return fc.jsonValue({ maxDepth: 2 })
  }
}

/** A value of another JSON type than the one expected (and some JavaScript-only oddities JSON drops). */
export const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.constantFrom(0, -1, 1.5, -0, 1e308, -1e308, 2 ** 53, Number.MAX_SAFE_INTEGER + 2),
  fc.string({ maxLength: 10 }),
  fc.constant(''),
  fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
)

/** Strings that have broken parsers elsewhere: huge, control characters, lone surrogates, RTL, zero-width. */
export const oddString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.constantFrom(
    '\u0000',
    '\uD800',
    '\uDFFF',
    'a\u202Eb',
    '\u200B',
    '👩‍👩‍👧‍👦',
    'ﷺ',
    '\r\n',
    '%',
    '%00',
    '../..',
    '<script>alert(1)</script>',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a template placeholder as plain text is the input under test
    '${x}',
    '__proto__',
  ),
  fc.integer({ min: 190, max: 210 }).map((n) => 'x'.repeat(n)),
  fc.constantFrom(20_000, 200_000).map((n) => 'é'.repeat(n)),
)

/** Keys worth adding where none is expected. */
export const extraKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '', ' ', 'files', 'name', 'extra'),
  fc.string({ maxLength: 8 }),
)

/** Numbers at and beside the bounds the schemas use. */
export const boundaryNumber: fc.Arbitrary<number> = fc.constantFrom(
  -1,
  0,
  1,
  0.49,
  0.5,
  0.51,
  1.99,
  2,
  2.01,
  19,
  20,
  21,
  99,
  100,
  101,
  199,
  200,
  201,
  399,
  400,
  599,
  600,
  120_000,
  120_001,
  1_000_000,
  1_000_001,
  10_000,
  10_001,
  31_622_400_000,
  31_622_400_001,
  0.1,
  -0.5,
)

type Path = Array<string | number>

function pathsOf(value: unknown, path: Path = [], out: Path[] = [], depth = 0): Path[] {
  out.push(path)
  if (depth > 6 || typeof value !== 'object' || value === null) return out
  if (Array.isArray(value)) for (const [i, item] of value.entries()) pathsOf(item, [...path, i], out, depth + 1)
  else for (const [key, item] of Object.entries(value)) pathsOf(item, [...path, key], out, depth + 1)
  return out
}

function setAt(root: unknown, path: Path, update: (parent: any, key: string | number) => void): unknown {
  const copy = structuredClone(root)
  if (path.length === 0) return copy
  let parent: any = copy
  for (const key of path.slice(0, -1)) parent = parent[key]
  update(parent, path[path.length - 1]!)
  return copy
}

export type Mutation =
  | { kind: 'replace'; value: unknown }
  | { kind: 'drop' }
  | { kind: 'extra'; key: string; value: unknown }
  | { kind: 'odd-string'; value: string }
  | { kind: 'boundary'; value: number }
  | { kind: 'deep'; levels: number }

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('replace' as const), value: wrongType }),
  fc.constant({ kind: 'drop' as const }),
  fc.record({ kind: fc.constant('extra' as const), key: extraKey, value: fc.jsonValue({ maxDepth: 1 }) }),
  fc.record({ kind: fc.constant('odd-string' as const), value: oddString }),
  fc.record({ kind: fc.constant('boundary' as const), value: boundaryNumber }),
  fc.record({ kind: fc.constant('deep' as const), levels: fc.constantFrom(63, 64, 65, 1_000) }),
)

function nestedArray(levels: number): unknown {
  let value: unknown = []
  for (let i = 1; i < levels; i++) value = [value]
  return value
}

/** Applies `m` at `path` of `value` (the root when the path is empty). */
export function applyMutation(value: unknown, path: Path, m: Mutation): unknown {
  const replaceWith = (next: unknown) => (path.length === 0 ? next : setAt(value, path, (parent, key) => (parent[key] = next)))
  switch (m.kind) {
    case 'replace':
      return replaceWith(m.value)
    case 'odd-string':
      return replaceWith(m.value)
    case 'boundary':
      return replaceWith(m.value)
    case 'deep':
      return replaceWith(nestedArray(m.levels))
    case 'drop':
      if (path.length === 0) return undefined
      return setAt(value, path, (parent, key) => {
        if (Array.isArray(parent)) parent.splice(Number(key), 1)
        else delete parent[key]
      })
    case 'extra': {
      const target = path.length === 0 ? value : path.reduce((node: any, key) => node?.[key], value)
      if (typeof target !== 'object' || target === null || Array.isArray(target)) return replaceWith({ [m.key]: m.value })
      const copy = structuredClone(value)
      const node: any = path.length === 0 ? copy : path.reduce((n: any, key) => n[key], copy)
      // defineProperty: `__proto__` becomes an own key, as JSON.parse makes it.
      Object.defineProperty(node, m.key, { value: m.value, enumerable: true, configurable: true, writable: true })
      return copy
    }
  }
}

/** Values around `valid`: one mutation at a random place of a valid value. */
export function around(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return valid.chain((value) => fc.tuple(fc.constantFrom(...pathsOf(value)), mutation).map(([path, m]) => applyMutation(value, path, m)))
}

/** How a body value goes on the wire: JSON, JSON with a duplicate key, broken JSON, or odd text. */
export type BodyText = string | null

export function serialise(value: unknown): fc.Arbitrary<BodyText> {
  const json = value === undefined ? null : JSON.stringify(value)
  const variants: Array<fc.Arbitrary<BodyText>> = [fc.constant(json)]
  if (json?.startsWith('{') && json.length > 2) {
    const firstKey = /^\{("(?:[^"\\]|\\.)*")/.exec(json)?.[1]
    if (firstKey !== undefined)
      variants.push(fc.jsonValue({ maxDepth: 1 }).map((v) => `{${firstKey}:${JSON.stringify(v)},${json.slice(1)}`))
    variants.push(fc.integer({ min: 1, max: json.length - 1 }).map((cut) => json.slice(0, cut)))
    variants.push(fc.constant(`\uFEFF${json}`))
  }
  variants.push(
    fc.constantFrom<BodyText>(
      '',
      ' ',
      'null',
      'not json',
      '[]',
      '"x"',
      '{"a":1}{',
      `${'['.repeat(70)}${']'.repeat(70)}`,
      `{"a":${'['.repeat(20_000)}${']'.repeat(20_000)}}`,
    ),
  )
  return fc.oneof({ weight: 6, arbitrary: variants[0]! }, ...variants.slice(1).map((arbitrary) => ({ weight: 1, arbitrary })))
}
