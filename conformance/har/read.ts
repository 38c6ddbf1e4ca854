/**
 * Reading a HAR file (ours, the emulator's journal export, or one saved by
 * Chromium's or Firefox's devtools): the document must be JSON and HAR
 * (`log.entries`), and each entry is read on its own, so one that cannot be
 * understood is listed with its reason and spoils no other.
 */
import { Har, HarEntry, isTruncated } from '../../src/schemas/index.js'
import type { Recorded } from '../facts/observed.js'

export class HarError extends Error {}

/** One entry of a HAR file: understood (`recorded`), or not (`problem`). */
export interface ReadEntry {
  /** Its position in the file, from 1 (as a report names it). */
  index: number
  entry: HarEntry | undefined
  recorded: Recorded | undefined
  /** Why it cannot be used, when it cannot. */
  problem: string | undefined
  /** A body the recording cut or left out (a request's or a response's). */
  cut: boolean
}

const headersOf = (list: ReadonlyArray<{ name: string; value: string }>) => {
  const out: Record<string, string> = {}
  // HTTP/2 pseudo-headers (`:authority`) in a devtools HAR are not headers of the request.
  for (const { name, value } of list) if (!name.startsWith(':')) out[name.toLowerCase()] = value
  return out
}

/** The entries of a HAR document's text; throws `HarError` for text that is not JSON or not HAR. */
export function readHar(text: string, source = 'the file'): ReadEntry[] {
  let json: unknown
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ''))
  } catch (error) {
    throw new HarError(`${source} is not JSON (${(error as Error).message})`)
  }
  const har = Har.safeParse(json)
  if (!har.success) {
    const issue = har.error.issues[0]
    throw new HarError(
      `${source} is not a HAR file: ${issue?.path.join('.') || '(document)'}: ${issue?.message} (expected {log: {version, creator, entries: [...]}})`,
    )
  }
  return har.data.log.entries.map((raw, i) => {
    const index = i + 1
    const parsed = HarEntry.safeParse(raw)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      return {
        index,
        entry: undefined,
        recorded: undefined,
        cut: false,
        problem: `not a HAR entry: ${issue?.path.join('.') || '(entry)'}: ${issue?.message}`,
      }
    }
    const entry = parsed.data
    try {
      new URL(entry.request.url)
    } catch {
      return { index, entry, recorded: undefined, cut: false, problem: `its URL is not absolute: ${entry.request.url}` }
    }
    const { request, response } = entry
    const requestCut =
      request.postData !== undefined && (isTruncated(request.postData) || (request.postData.text === undefined && request.bodySize > 0))
    const responseCut = isTruncated(response.content) || (response.content.text === undefined && response.content.size > 0)
    const base64 = response.content.encoding === 'base64' && response.content.text !== undefined
    return {
      index,
      entry,
      cut: requestCut || responseCut,
      problem: undefined,
      recorded: {
        method: request.method.toUpperCase(),
        url: request.url,
        requestHeaders: headersOf(request.headers),
        requestBody: request.postData?.text,
        status: response.status,
        responseHeaders: headersOf(response.headers),
        responseBody: base64 ? Buffer.from(response.content.text!, 'base64').toString('utf8') : (response.content.text ?? ''),
      },
    }
  })
}
