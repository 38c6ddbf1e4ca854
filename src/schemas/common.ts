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

/** An ISO 8601 date-time with a `Z` or numeric offset, as every date of the API. */
export const DateTime = z.iso.datetime({ offset: true })

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
