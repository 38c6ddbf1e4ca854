/**
 * The client report's shapes: what the emulator finds about how an app or
 * agent uses the API (docs/guides/client-report.md). A finding has the
 * conformance kit's shape (`rule`, `level`, `clause`, `ref`, `message`,
 * `operationId`), plus the severity the report is judged by and the journal
 * ids of the calls that show it.
 */

/** `error`: costs money, data or the rate budget against the real service; `warning`: waste. */
export type ClientSeverity = 'error' | 'warning'

export interface ClientFinding {
  /** The rule's stable id (`poll.too-fast`). */
  rule: string
  severity: ClientSeverity
  /** The kit's level: `MUST` for an error, `SHOULD` for a warning. */
  level: 'MUST' | 'SHOULD'
  /** The spec's section heading the rule rests on. */
  clause: string
  /** The section of the shipped reference that states it: `reference/api.md#<anchor>`. */
  ref: string
  /** One plain sentence. */
  message: string
  /** The operation of the calls, when they share one. */
  operationId?: string
  /** The credential the calls presented (see `JournalEntry.keyFingerprint`). */
  keyFingerprint: string | null
  /** The key's id when it was authenticated at least once in the window. */
  keyId: string | null
  /** How many times the rule was broken (a call, or a call and the one it repeats); `requestIds` lists the first `MAX_IDS` calls. */
  count: number
  /** Journal ids (`req_<n>`) of the calls that show it, oldest first. */
  requestIds: string[]
}

/** The entries a report covers. */
export interface ClientReportWindow {
  /** What the report was asked to start after: a request id or a mark; null for everything kept. */
  since: string | null
  /** The oldest and newest entry judged; null when the window holds none. */
  first: { id: string; time: string; realTime: string } | null
  last: { id: string; time: string; realTime: string } | null
  /** How many entries were judged (after the key filter). */
  entries: number
  /**
   * False when entries of the asked window were dropped (the journal keeps
   * its newest 10,000, within its byte cap, and `DELETE /_emulator/requests`
   * clears it): the report then judges only what was kept, and no rule fires
   * on state that began in the dropped part.
   */
  complete: boolean
}

/** The calls of one credential in the window. */
export interface ClientKeySummary {
  keyFingerprint: string | null
  keyId: string | null
  userId: string | null
  requests: number
  errors: number
  warnings: number
}

export interface ClientReport {
  window: ClientReportWindow
  /** The clock the emulator runs on: polling rules count differently under `manual`. */
  clock: 'real' | 'manual'
  keys: ClientKeySummary[]
  findings: ClientFinding[]
  errors: number
  warnings: number
}

/** A finding lists at most this many request ids (and counts them all). */
export const MAX_IDS = 20
