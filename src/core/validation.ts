import type * as z from 'zod'
import { fail } from './errors.js'

type Issue = z.core.$ZodRawIssue

function describeValue(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'object') return 'an object'
  if (typeof value === 'string') return 'a string'
  if (typeof value === 'number') return Number.isNaN(value) ? 'NaN' : 'a number'
  if (typeof value === 'boolean') return 'a boolean'
  return typeof value
}

function unit(origin: unknown, count: number | bigint): string {
  const n = Number(count)
  if (origin === 'string') return `${n} character${n === 1 ? '' : 's'}`
  if (origin === 'array' || origin === 'set') return `${n} item${n === 1 ? '' : 's'}`
  return String(n)
}

/**
 * Plain-English messages for zod issues, used at parse time so a hint says
 * what the rule is: `must be at most 191 characters`, `must be one of: fast, quality`.
 * Schema-level messages (given with `{ error }`) take precedence.
 */
export function issueMessage(issue: Issue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined
        ? 'is required'
        : issue.expected === 'int' && typeof issue.input === 'number'
          ? `must be a whole number, got ${String(issue.input)}`
          : `must be ${issue.expected === 'object' ? 'an object' : issue.expected === 'array' ? 'an array' : issue.expected === 'int' ? 'a whole number' : `a ${issue.expected}`}, got ${describeValue(issue.input)}`
    case 'too_big': {
      const bound = unit(issue.origin, issue.maximum as number)
      if (issue.origin === 'array') return `must have at most ${bound}`
      if (issue.origin === 'string') return `must be at most ${bound} long`
      return issue.inclusive === false ? `must be less than ${bound}` : `must be at most ${bound}`
    }
    case 'too_small': {
      const bound = unit(issue.origin, issue.minimum as number)
      if (issue.origin === 'array') return `must have at least ${bound}`
      if (issue.origin === 'string') {
        return Number(issue.minimum) === 1 ? 'must not be empty' : `must be at least ${bound} long`
      }
      return issue.inclusive === false ? `must be greater than ${bound}` : `must be at least ${bound}`
    }
    case 'invalid_format': {
      if (issue.format === 'regex' && 'pattern' in issue) return `must match ${String(issue.pattern)}`
      if (issue.format === 'url') return 'must be an absolute http(s) URL'
      if (issue.format === 'datetime') return 'must be an ISO 8601 date-time'
      return `must be a valid ${issue.format}`
    }
    case 'invalid_value':
      if (issue.input === undefined) return 'is required'
      return `must be one of: ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`
    case 'unrecognized_keys':
      return `unknown key${issue.keys.length === 1 ? '' : 's'} ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}`
    case 'invalid_union':
      return 'does not match any allowed shape'
    default:
      return undefined
  }
}

/** `['config', 'tokens', 'palette', 0, 'name']` → `config.tokens.palette[0].name`. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = ''
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`
    else if (typeof key === 'string' && /^[A-Za-z_$][\w$]*$/.test(key)) out += out === '' ? key : `.${key}`
    else out += `[${JSON.stringify(String(key))}]`
  }
  return out
}

/**
 * One line per issue, `path: message`, for a 400 `hint` or a fixtures/state
 * loading error. At most `max` issues are listed.
 */
export function describeIssues(issues: ReadonlyArray<z.core.$ZodIssue>, prefix: ReadonlyArray<PropertyKey> = [], max = 5): string {
  const lines = issues.slice(0, max).map((issue) => {
    const path = formatPath([...prefix, ...issue.path])
    return path === '' ? issue.message : `${path}: ${issue.message}`
  })
  if (issues.length > max) lines.push(`(${issues.length - max} more)`)
  return lines.join('; ')
}

/** Parses `value` with `schema` using the emulator's messages; `undefined` on success means no issues. */
export function safeParse<S extends z.ZodType>(schema: S, value: unknown) {
  return schema.safeParse(value, { error: issueMessage })
}

/**
 * Validates request input: returns the parsed value, or throws a 400
 * `VALIDATION_ERROR` whose hint names the field and the rule.
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, prefix: ReadonlyArray<PropertyKey> = []): z.output<S> {
  const result = safeParse(schema, value)
  if (!result.success) throw fail.validation(describeIssues(result.error.issues, prefix))
  return result.data
}
