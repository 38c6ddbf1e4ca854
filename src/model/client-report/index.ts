/**
 * The client report: how well an app or agent uses the API, judged from the
 * request journal (docs/guides/client-report.md). `clientReport` is a pure
 * function of a journal snapshot: it reads the kept records once, in
 * arrival order, and every rule keeps a little state per key.
 */
import { type JournalRecord, type JournalSnapshot, fingerprintOf } from '../../core/journal.js'
import { judge, type JudgedRecord } from './rules.js'
import type { ClientKeySummary, ClientReport, ClientReportWindow } from './types.js'

export { CLIENT_RULES, type ClientRuleId, POLL_FLOOR_MS, refOfRule, SPEC_RATE_LIMIT } from './rules.js'
export type { ClientFinding, ClientKeySummary, ClientReport, ClientReportWindow, ClientSeverity } from './types.js'

export interface ClientReportOptions {
  clock: 'real' | 'manual'
  /** The emulator clock now (epoch ms): the indicator rule measures from it. Default: the newest call's time. */
  now?: number
  /** Only calls that presented this credential (its fingerprint, `JournalEntry.keyFingerprint`). */
  keyFingerprint?: string
  /** Only calls recorded after the request with this sequence number (0: all). */
  afterSequence?: number
  /** How the start was asked for (`req_12`, `mark_3`), for the window. */
  since?: string
  /** The team a key is scoped to, when the world still knows it (credit changes are per team). */
  teamOf?(keyId: string): string | undefined
}

const sequenceOf = (id: string): number => Number(id.slice(id.indexOf('_') + 1))

const bound = (record: JournalRecord) => ({
  id: record.id,
  time: new Date(record.time).toISOString(),
  realTime: new Date(record.realTime).toISOString(),
})

/** The report over `snapshot`: findings, a summary per credential, and the window it covers. */
export function clientReport(snapshot: JournalSnapshot, options: ClientReportOptions): ClientReport {
  const after = options.afterSequence ?? 0
  // Records are kept in the order they were answered; the rules read them in the order they arrived.
  const judged: JudgedRecord[] = []
  const fingerprints = new Map<string | undefined, string | null>()
  let sorted = true
  for (const record of snapshot.records) {
    const sequence = sequenceOf(record.id)
    if (sequence <= after) continue
    const authorization = record.requestHeaders.authorization
    let fingerprint = fingerprints.get(authorization)
    if (fingerprint === undefined) {
      fingerprint = fingerprintOf(record)
      fingerprints.set(authorization, fingerprint)
    }
    if (options.keyFingerprint !== undefined && fingerprint !== options.keyFingerprint) continue
    if (judged.length > 0 && judged[judged.length - 1]!.sequence > sequence) sorted = false
    judged.push({ record, sequence, fingerprint })
  }
  if (!sorted) judged.sort((a, b) => a.sequence - b.sequence)

  // Complete when nothing after the start was dropped; with no start asked, a clear of the journal is where it starts.
  const complete = snapshot.droppedThrough <= (after === 0 ? snapshot.clearedThrough : after)
  const window: ClientReportWindow = {
    since: options.since ?? null,
    first: judged.length === 0 ? null : bound(judged[0]!.record),
    last: judged.length === 0 ? null : bound(judged[judged.length - 1]!.record),
    entries: judged.length,
    complete,
  }
  const findings = judge(judged, {
    clock: options.clock,
    creditChanges: snapshot.creditChanges,
    creditChangesDroppedThrough: snapshot.creditChangesDroppedThrough,
    teamOf: options.teamOf ?? (() => undefined),
    complete,
    now: options.now ?? (judged.length === 0 ? 0 : judged[judged.length - 1]!.record.time),
  })

  const keys = new Map<string | null, ClientKeySummary>()
  for (const { record, fingerprint } of judged) {
    let summary = keys.get(fingerprint)
    if (summary === undefined) {
      summary = { keyFingerprint: fingerprint, keyId: null, userId: null, requests: 0, errors: 0, warnings: 0 }
      keys.set(fingerprint, summary)
    }
    summary.requests += 1
    summary.keyId ??= record.keyId
    summary.userId ??= record.userId
  }
  let errors = 0
  let warnings = 0
  for (const finding of findings) {
    const summary = keys.get(finding.keyFingerprint)
    if (finding.severity === 'error') {
      errors += 1
      if (summary !== undefined) summary.errors += 1
    } else {
      warnings += 1
      if (summary !== undefined) summary.warnings += 1
    }
  }
  return { window, clock: options.clock, keys: [...keys.values()], findings, errors, warnings }
}
