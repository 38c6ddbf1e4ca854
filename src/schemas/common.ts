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

export function objectFor<Shape extends z.core.$ZodLooseShape>(
  strictness: Strictness,
  shape: Shape,
) {
  return strictness === 'request' ? z.strictObject(shape) : z.object(shape)
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/

/** Whether `text` is an RFC 3339 date-time (`2026-01-01T00:00:00Z`, any offset, optional fraction, leap second). */
export function isRfc3339DateTime(text: string): boolean {
  const match = RFC3339.exec(text)
  if (match === null) return false
  const [, year, month, day, hour, minute, second, offsetHour, offsetMinute] = match.map(Number) as number[]
  const daysInMonth = new Date(Date.UTC(year!, month!, 0)).getUTCDate()
  return (
    month! >= 1 && month! <= 12 && day! >= 1 && day! <= daysInMonth &&
    hour! <= 23 && minute! <= 59 && second! <= 60 &&
    (Number.isNaN(offsetHour) || (offsetHour! <= 23 && offsetMinute! <= 59))
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
