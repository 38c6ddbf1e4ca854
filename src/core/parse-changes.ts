import type * as z from 'zod'

/**
 * What parsing with a schema can do to a value it accepts: nothing (an
 * equal value: zod builds new objects and arrays, in the schema's key
 * order); only fill in defaults for absent values (looked for in the value,
 * along the parts that have them); or anything (a transform, a pipe, a
 * catch, a non-strict object that drops keys, a part this reading does not
 * know).
 */
const Change = { None: 0, Defaults: 1, Any: 2 } as const
type Change = (typeof Change)[keyof typeof Change]

const changes = new WeakMap<z.core.$ZodType, Change>()

function worst(a: Change, b: Change): Change {
  return a > b ? a : b
}

/** What parsing with `schema` can change, read off its definition once. */
function changeOf(schema: z.core.$ZodType): Change {
  const known = changes.get(schema)
  if (known !== undefined) return known
  const def = schema._zod.def as unknown as { type: string; checks?: Array<{ _zod: { def: { check: string } } }> } & Record<string, unknown>
  let change: Change
  switch (def.type) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'null':
    case 'literal':
    case 'enum':
    case 'undefined':
    case 'bigint':
      change = Change.None
      break
    case 'optional':
    case 'nullable':
    case 'nonoptional':
      change = changeOf(def.innerType as z.core.$ZodType)
      break
    case 'default':
      change = worst(Change.Defaults, changeOf(def.innerType as z.core.$ZodType))
      break
    case 'array':
      change = changeOf(def.element as z.core.$ZodType)
      break
    case 'object': {
      // A strict object keeps every key it accepts; a plain one drops unknown keys, so its output may differ.
      const catchall = def.catchall as z.core.$ZodType | undefined
      change = catchall === undefined || catchall._zod.def.type !== 'never' ? Change.Any : Change.None
      for (const part of Object.values(def.shape as Record<string, z.core.$ZodType>)) change = worst(change, changeOf(part))
      break
    }
    case 'union': {
      // Which option answers is the parse's business: an option that changes anything makes the union "any".
      const options = (def.options as z.core.$ZodType[]).map(changeOf)
      change = options.every((option) => option === Change.None) ? Change.None : Change.Any
      break
    }
    default:
      change = Change.Any
  }
  // A check that rewrites the value (`.trim()`, `.toLowerCase()`, `z.overwrite`) changes it.
  if (def.checks?.some((check) => check._zod.def.check === 'overwrite')) change = Change.Any
  changes.set(schema, change)
  return change
}

type DefaultCheck = (value: unknown) => boolean
const defaultChecks = new WeakMap<z.core.$ZodType, DefaultCheck | null>()

/**
 * A function telling whether a default of `schema` applies somewhere in a
 * value `schema` accepts, built once per schema; null where no default can
 * apply. It looks only along the parts that have defaults (for a project
 * record: its config's tokens), so it costs a few reads per record.
 */
function defaultCheckOf(schema: z.core.$ZodType): DefaultCheck | null {
  const known = defaultChecks.get(schema)
  if (known !== undefined) return known
  let check: DefaultCheck | null = null
  if (changeOf(schema) !== Change.None) {
    const def = schema._zod.def as unknown as { type: string } & Record<string, unknown>
    switch (def.type) {
      case 'default': {
        const inner = defaultCheckOf(def.innerType as z.core.$ZodType)
        check = inner === null ? (value) => value === undefined : (value) => value === undefined || inner(value)
        break
      }
      case 'optional':
      case 'nullable':
      case 'nonoptional': {
        const inner = defaultCheckOf(def.innerType as z.core.$ZodType)
        if (inner !== null) check = (value) => value !== undefined && value !== null && inner(value)
        break
      }
      case 'array': {
        const inner = defaultCheckOf(def.element as z.core.$ZodType)
        if (inner !== null) {
          check = (value) => {
            const items = value as unknown[]
            for (let i = 0; i < items.length; i++) if (inner(items[i])) return true
            return false
          }
        }
        break
      }
      case 'object': {
        const parts: Array<[string, DefaultCheck]> = []
        for (const [key, part] of Object.entries(def.shape as Record<string, z.core.$ZodType>)) {
          const inner = defaultCheckOf(part)
          if (inner !== null) parts.push([key, inner])
        }
        if (parts.length > 0) {
          check = (value) => {
            const record = value as Record<string, unknown>
            for (let i = 0; i < parts.length; i++) if (parts[i]![1](record[parts[i]![0]])) return true
            return false
          }
        }
        break
      }
      default:
        check = () => true
    }
  }
  defaultChecks.set(schema, check)
  return check
}

/**
 * Whether parsing `value` with `schema` (which accepts it: `schema.validate`
 * said so) could give a value with other content than `value` itself: a
 * default that fills an absent key, or any part of the schema whose output
 * is not its input (then always true). False means `value` can be kept as
 * the parse's result, without the copy a parse makes (only the order of
 * keys may differ: a parse writes them in the schema's order).
 */
export function parseChanges(schema: z.core.$ZodType, value: unknown): boolean {
  const change = changeOf(schema)
  return change === Change.Any || (change === Change.Defaults && defaultCheckOf(schema)!(value))
}
