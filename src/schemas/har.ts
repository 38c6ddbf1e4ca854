/**
 * HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), the subset the
 * emulator's journal export writes, the conformance proxy records and replay
 * reads. Objects are loose (`z.object`): a HAR exported by Chromium's or
 * Firefox's devtools carries more fields (`_initiator`, `_resourceType`,
 * `pages`…), which are kept and ignored.
 *
 * Our writers mark a body they cut with `comment: "truncated: …"` on the
 * `postData` or `content` object (HAR has no field for it), and keep the
 * whole body's size in `bodySize` / `content.size`.
 */
import * as z from 'zod'

export const HarHeader = z.object({ name: z.string(), value: z.string() })
export type HarHeader = z.infer<typeof HarHeader>

export const HarQueryParam = z.object({ name: z.string(), value: z.string() })

export const HarPostData = z.object({
  mimeType: z.string(),
  text: z.string().optional(),
  comment: z.string().optional(),
})

export const HarRequest = z.object({
  method: z.string().min(1),
  url: z.string().min(1),
  httpVersion: z.string(),
  cookies: z.array(z.unknown()),
  headers: z.array(HarHeader),
  queryString: z.array(HarQueryParam),
  postData: HarPostData.optional(),
  headersSize: z.number(),
  bodySize: z.number(),
  comment: z.string().optional(),
})
export type HarRequest = z.infer<typeof HarRequest>

export const HarContent = z.object({
  size: z.number(),
  mimeType: z.string(),
  text: z.string().optional(),
  encoding: z.string().optional(),
  comment: z.string().optional(),
})

export const HarResponse = z.object({
  status: z.number().int(),
  statusText: z.string(),
  httpVersion: z.string(),
  cookies: z.array(z.unknown()),
  headers: z.array(HarHeader),
  content: HarContent,
  redirectURL: z.string(),
  headersSize: z.number(),
  bodySize: z.number(),
  comment: z.string().optional(),
})
export type HarResponse = z.infer<typeof HarResponse>

export const HarEntry = z.object({
  startedDateTime: z.string(),
  time: z.number(),
  request: HarRequest,
  response: HarResponse,
  cache: z.object({}),
  timings: z.object({ send: z.number(), wait: z.number(), receive: z.number() }),
  comment: z.string().optional(),
})
export type HarEntry = z.infer<typeof HarEntry>

export const Har = z.object({
  log: z.object({
    version: z.string(),
    creator: z.object({ name: z.string(), version: z.string() }),
    entries: z.array(z.unknown()),
    comment: z.string().optional(),
  }),
})
/** A HAR document; its entries are read one by one (`HarEntry`), so one entry that cannot be understood spoils no other. */
export type Har = z.infer<typeof Har>

/** The comment our writers put on a body they cut. */
export const TRUNCATED = 'truncated'

/** A `postData` or `content` comment saying the body was cut after `kept` of `size` bytes. */
export function truncatedComment(kept: number, size: number): string {
  return `${TRUNCATED}: the first ${kept} of ${size} bytes are kept`
}

/** Whether a `postData` or `content` object holds a cut body (our mark, or content shorter than its declared size). */
export function isTruncated(body: { comment?: string | undefined } | undefined): boolean {
  return body?.comment?.startsWith(TRUNCATED) === true
}

/** Headers as a HAR list, in the order given. */
export function harHeaders(headers: Record<string, string>): HarHeader[] {
  return Object.entries(headers).map(([name, value]) => ({ name, value }))
}

/** The query of a URL as a HAR list. */
export function harQuery(url: string): Array<{ name: string; value: string }> {
  return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }))
}
