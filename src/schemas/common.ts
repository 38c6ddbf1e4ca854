import * as z from 'zod'

/**
 * Builds an object schema that is strict (unknown keys rejected) when used to
 * validate requests, and tolerant when used to check a server's responses.
 *
 * The emulator validates request bodies strictly, so a typo in a client is a
 * 400 naming the key; the conformance kit checks responses with the tolerant
 * variant, so a real deployment that adds fields is not reported as broken.
 */
export type Strictness = 'request' | 'response'

export function objectFor<Shape extends z.core.$ZodLooseShape>(strictness: Strictness, shape: Shape) {
  return strictness === 'request' ? z.strictObject(shape) : z.object(shape)
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/

/** The two-digit number at `at` in `text` (both characters known to be digits). */
function twoDigits(text: string, at: number): number {
  return (text.charCodeAt(at) - 48) * 10 + text.charCodeAt(at + 1) - 48
}

/** Days in `month` (1-12) of `year`, as `Date.UTC` counts them: years 0-99 are read as 1900-1999. */
function daysInMonth(year: number, month: number): number {
  if (month !== 2) return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31
  const y = year <= 99 ? year + 1900 : year
  return y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28
}

/**
 * Whether `text` is an RFC 3339 date-time (`2026-01-01T00:00:00Z`, any offset, optional fraction, leap second).
 * The shape is one regular expression test; the fields are then read by position, without a match
 * array or a `Date` (a state document has hundreds of thousands of dates).
 */
export function isRfc3339DateTime(text: string): boolean {
  if (!RFC3339.test(text)) return false
  const year = twoDigits(text, 0) * 100 + twoDigits(text, 2)
  const month = twoDigits(text, 5)
  const day = twoDigits(text, 8)
  const last = text.charCodeAt(text.length - 1)
  const zulu = last === 0x5a /* Z */ || last === 0x7a /* z */
  return (
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth(year, month) &&
    twoDigits(text, 11) <= 23 &&
    twoDigits(text, 14) <= 59 &&
    twoDigits(text, 17) <= 60 &&
    (zulu || (twoDigits(text, text.length - 5) <= 23 && twoDigits(text, text.length - 2) <= 59))
  )
}

/**
 * A date-time as every date of the API: RFC 3339 (`format: date-time`), with
 * any offset (`Z`, `+02:00`, `-05:30`). The emulator itself always answers in
 * UTC with milliseconds (`2026-01-01T00:00:00.000Z`).
 */
export const DateTime = z
  .string()
  .refine(isRfc3339DateTime, { error: 'must be an RFC 3339 date-time, such as 2026-01-01T00:00:00Z' })
  .meta({ format: 'date-time' })

/** An absolute URI (any scheme a `URL` parses). */
export const Uri = z.url()

/** An absolute `http:` or `https:` URL. */
export const HttpUrl = z.url({ protocol: /^https?$/ })

/** The error body of every non-2xx response. */
export const ErrorBody = z.object({
  error: z.string(),
  hint: z.string().optional(),
})
export type ErrorBody = z.infer<typeof ErrorBody>

/** `{ success: boolean }`, the answer of several state-changing operations. */
export const SuccessResponse = z.object({ success: z.boolean() })
export type SuccessResponse = z.infer<typeof SuccessResponse>

/**
 * A positive integer sent as a query-string value, for example `limit=20`.
 * Only plain decimal digits are accepted: `1e1`, `0x10` or ` 5` are 400.
 */
export function integerQuery(min: number, max: number) {
  return z
    .string()
    .regex(/^[0-9]+$/, { error: 'must be a whole number' })
    .transform(Number)
    .pipe(z.number().int().min(min).max(max))
}

/** The `limit` and `cursor` query of every cursor-paginated list. */
export function pageQuery(defaultLimit: number) {
  return {
    limit: integerQuery(1, 100).default(defaultLimit),
    cursor: z.string().min(1).optional(),
  }
}
