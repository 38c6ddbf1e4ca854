/**
 * The client report over a full journal (10,000 entries, the default
 * capacity) against listing the same entries through
 * `GET /_emulator/requests?limit=10000`, both through the control plane's
 * route (`emulator.handle`), in turn, in one process: the report reads the
 * journal once, so it should take no longer than the listing.
 */
import { createEmulator, type EmulatorRequest } from 'presentation-emulator'
import { KEY } from './lib/list-fetch.js'
import { ratio, type Row } from './lib/row.js'
import { alternate, fmt, median } from './lib/stats.js'

const ENTRIES = 10_000

const get = (path: string, query = ''): EmulatorRequest => ({ method: 'GET', path, query, headers: {}, body: null })

/** Milliseconds of one answer of `request`, checked to be a 200. */
async function timed(emulator: ReturnType<typeof createEmulator>, request: EmulatorRequest): Promise<number> {
  const started = performance.now()
  const response = await emulator.handle(request)
  const ms = performance.now() - started
  if (response.status !== 200) throw new Error(`${request.path} answered ${response.status}: ${response.body}`)
  return ms
}

/** A journal of 10,000 calls of an app: lists (paged), job polls, generates, slide reads and writes. */
async function fill(emulator: ReturnType<typeof createEmulator>): Promise<void> {
  const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }
  const encoder = new TextEncoder()
  const { jobId } = JSON.parse(
    (
      await emulator.handle({
        method: 'POST',
        path: '/v1/projects/generate',
        query: '',
        headers,
        body: encoder.encode('{"prompt":"Bench"}'),
      })
    ).body!,
  ) as { jobId: string }
  for (let n = 0; n < ENTRIES - 1; n++) {
    const kind = n % 4
    await emulator.handle(
      kind === 0
        ? { method: 'GET', path: '/v1/projects', query: 'limit=5', headers, body: null }
        : kind === 1
          ? { method: 'GET', path: `/v1/projects/jobs/${jobId}`, query: '', headers, body: null }
          : kind === 2
            ? { method: 'GET', path: '/v1/teams', query: '', headers, body: null }
            : { method: 'PATCH', path: '/v1/projects/welcome-deck', query: '', headers, body: encoder.encode(`{"name":"Renamed ${n}"}`) },
    )
  }
}

export async function clientReportRows(options: { rounds: number }): Promise<Row[]> {
  const emulator = createEmulator({ clock: 'manual', rateLimit: 0 })
  await emulator.ready()
  await fill(emulator)
  const report = get('/_emulator/client-report')
  const listing = get('/_emulator/requests', `limit=${ENTRIES}`)
  await timed(emulator, report)
  await timed(emulator, listing)
  const runs = await alternate(options.rounds * 3, { report: () => timed(emulator, report), listing: () => timed(emulator, listing) })
  await emulator.close()
  const r = median(runs.report)
  const l = median(runs.listing)
  return [
    {
      measure: `client report over a full journal (${fmt(ENTRIES)} entries), \`GET /_emulator/client-report\`, ms`,
      emulator: fmt(r, 1),
      baseline: `listing the same entries, \`GET /_emulator/requests?limit=${ENTRIES}\`: ${fmt(l, 1)}`,
      ratio: ratio(r / l),
      target: '≤ 1x',
      met: r / l <= 1,
    },
  ]
}
