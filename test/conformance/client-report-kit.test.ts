/**
 * The conformance kit's own traffic under the client report: the kit tests a
 * server, so it breaks rules of good use on purpose (bad limits, refused
 * keys, bursts, the same invalid body twice). This shows that every finding
 * the report makes of it is what its rule says: each finding is checked
 * against the journal entries it names, by the rule's own definition.
 */
import { describe, expect, it } from 'vitest'
import { runConformance } from '../../conformance/index.js'
import type { JournalEntry } from '../../src/core/journal.js'
import { createEmulator } from '../../src/index.js'
import type { ClientFinding } from '../../src/model/client-report/index.js'

const isJson = (type: string | undefined) => /^\s*application\/(?:[\w.+-]*\+)?json\s*(?:;|$)/i.test(type ?? '')

/** What each rule says of the calls a finding names (docs/guides/client-report.md), checked on the journal. */
function holds(finding: ClientFinding, entries: JournalEntry[], all: JournalEntry[]): string | undefined {
  const same = (key: (entry: JournalEntry) => unknown) => new Set(entries.map(key)).size === 1
  switch (finding.rule) {
    case 'pagination.limit-out-of-range':
      return entries.every((entry) => {
        const limit = new URLSearchParams(entry.query).get('limit')
        return limit !== null && !(/^[0-9]+$/.test(limit) && Number(limit) >= 1 && Number(limit) <= 100)
      })
        ? undefined
        : 'a call with a limit in range'
    case 'auth.key-refused':
      return entries.length >= 2 && entries.every((entry) => entry.status === 401) && same((entry) => entry.keyFingerprint)
        ? undefined
        : 'not two 401s of one credential'
    case 'errors.repeated-400':
      return entries.length === 2 &&
        entries.every((entry) => entry.status === 400) &&
        same((entry) => `${entry.keyFingerprint} ${entry.method} ${entry.path}?${entry.query} ${entry.request.body}`)
        ? undefined
        : 'not the same request answered 400 twice'
    case 'request.content-type':
      return entries.every((entry) => entry.request.bodySize > 0 && !isJson(entry.request.headers['content-type']))
        ? undefined
        : 'a call without a body or with a JSON type'
    case 'rate.exceeded': {
      const user = entries[0]!.userId
      const minute = (entry: JournalEntry) => Math.floor(Date.parse(entry.time) / 60_000)
      return entries.every((entry) => all.filter((other) => other.userId === user && minute(other) === minute(entry)).length > 50)
        ? undefined
        : 'a call in a minute of at most 50 calls of its user'
    }
    case 'rate.retry-before-reset':
      return entries.every((entry) =>
        all.some(
          (refused) =>
            refused.status === 429 &&
            refused.userId === entry.userId &&
            Date.parse(refused.time) <= Date.parse(entry.time) &&
            Number(refused.response.headers['x-ratelimit-reset']) * 1000 > Date.parse(entry.time),
        ),
      )
        ? undefined
        : 'a call that follows no 429 whose reset it came before'
    case 'generate.duplicate':
      return entries.length === 2 &&
        entries.every((entry) => entry.operationId === 'generateProject' && entry.status === 200) &&
        same((entry) => entry.request.body) &&
        Math.abs(Date.parse(entries[1]!.realTime) - Date.parse(entries[0]!.realTime)) < 60_000
        ? undefined
        : 'not two accepted generates with one body within 60 s'
    case 'generate.after-402':
      return entries.every((entry) => entry.operationId === 'generateProject' && entry.status === 402) ? undefined : 'not a 402'
    case 'pagination.cursor-repeated':
      return entries.every((entry) => new URLSearchParams(entry.query).get('cursor') !== null) ? undefined : 'a call without a cursor'
    case 'editing.never-updated': {
      // Pairs of set and clear of one slide, with no update of it by the same credential in between.
      const seq = (entry: JournalEntry) => Number(entry.id.slice(4))
      for (let i = 0; i + 1 < entries.length; i += 2) {
        const [set, clear] = [entries[i]!, entries[i + 1]!]
        const slide = set.path.replace(/\/editing$/, '')
        if (set.operationId !== 'startSlideEditing' || clear.operationId !== 'stopSlideEditing' || clear.path !== set.path)
          return 'not a set and a clear'
        const updated = all.some(
          (other) =>
            other.operationId === 'updateSlide' &&
            other.status === 200 &&
            other.path === slide &&
            other.keyFingerprint === set.keyFingerprint &&
            seq(other) > seq(set) &&
            seq(other) < seq(clear),
        )
        if (updated) return 'the slide was updated in between'
      }
      return entries.length % 2 === 0 ? undefined : 'a set without its clear'
    }
    case 'poll.too-fast':
    case 'poll.after-done':
      return entries.every((entry) => entry.operationId === 'getJobStatus') ? undefined : 'not a job poll'
    default:
      return `a rule this test does not know how to check: ${finding.message}`
  }
}

describe('the client report of the conformance kit’s own traffic', () => {
  it('flags only what the kit does on purpose, each finding as its rule says', { timeout: 600_000 }, async () => {
    // Room for every call of the run: the report judges all of it.
    const emulator = createEmulator({ seed: 3, journalSize: 200_000, journalBytes: 512 * 1024 * 1024 })
    await emulator.ready()
    const server = await emulator.listen({ port: 0 })
    try {
      await runConformance({
        baseUrl: `${server.origin}/v1`,
        controlUrl: `${server.origin}/_emulator`,
        emulatorChecks: false,
        allowWrites: true,
        allowGeneration: true,
      })
      const report = await emulator.control.clientReport()
      const all = emulator.control.listRequests({ bodyLimit: 4096 }).requests
      const byId = new Map(all.map((entry) => [entry.id, entry]))
      expect(report.window.complete).toBe(true)
      const wrong: string[] = []
      for (const finding of report.findings) {
        const entries = finding.requestIds.map((id) => byId.get(id)!)
        entries.sort((a, b) => Number(a.id.slice(4)) - Number(b.id.slice(4)))
        const problem = holds(finding, entries, all)
        if (problem !== undefined) wrong.push(`${finding.rule} (${finding.requestIds.join(', ')}): ${problem}`)
      }
      expect(wrong).toEqual([])
      // What the kit does on purpose shows up, so the check above is not empty.
      expect(report.findings.length).toBeGreaterThan(0)
    } finally {
      await emulator.close()
    }
  })
})
