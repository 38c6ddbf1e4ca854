import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Journal, type JournalRecord } from '../../core/journal.js'
import { CLIENT_RULES, type ClientRuleId, clientReport, refOfRule } from './index.js'

const KEY = 'pres_test_alice'
let clock = Date.UTC(2026, 0, 1)

/** A record as the pipeline would journal it, at `clock` (both clocks the same: a real clock). */
function record(journal: Journal, more: Partial<JournalRecord> & { operationId: string; path: string }): JournalRecord {
  const entry: JournalRecord = {
    id: journal.nextId(),
    time: clock,
    realTime: clock,
    clientGone: false,
    method: 'GET',
    query: '',
    status: 200,
    durationMs: 1,
    keyId: 'key_alice',
    userId: 'usr_alice',
    requestHeaders: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    requestBody: null,
    responseHeaders: {},
    responseBody: '{}',
    ...more,
  }
  journal.record(entry)
  return entry
}

const generate = (journal: Journal, status: number) =>
  record(journal, {
    operationId: 'generateProject',
    method: 'POST',
    path: '/v1/projects/generate',
    status,
    requestBody: new TextEncoder().encode('{"prompt":"x"}'),
  })
const rules = (journal: Journal, afterSequence = 0) =>
  clientReport(journal.snapshot(), { clock: 'real', afterSequence }).findings.map((finding) => finding.rule)

describe('client report rules', () => {
  it('point into the shipped reference at anchors it has', () => {
    const reference = readFileSync(join(import.meta.dirname, '..', '..', '..', 'reference', 'api.md'), 'utf8')
    for (const rule of Object.keys(CLIENT_RULES) as ClientRuleId[]) {
      const anchor = refOfRule(rule).split('#')[1]
      expect(reference, rule).toContain(`<a id="${anchor}"></a>`)
    }
  })

  it('hold a 402 against the next generate only when no credit change came in between', () => {
    const journal = new Journal()
    generate(journal, 402)
    journal.noteCreditChange({ teamId: 'team_alice', credits: 0, time: clock, realTime: clock })
    generate(journal, 402)
    expect(rules(journal)).toEqual([])
    generate(journal, 402)
    expect(rules(journal)).toEqual(['generate.after-402'])
  })

  it('never fire on a window whose start was dropped, and say so', () => {
    const journal = new Journal(3)
    // 60 calls in one minute, of which the journal keeps 3: the minute is not judged.
    for (let n = 0; n < 60; n++) record(journal, { operationId: 'listTeams', path: '/v1/teams' })
    const report = clientReport(journal.snapshot(), { clock: 'real' })
    expect(report.window.complete).toBe(false)
    expect(report.window.entries).toBe(3)
    expect(report.window.first?.id).toBe('req_58')
    expect(report.findings).toEqual([])
    // Since a request still kept, the window is complete.
    expect(clientReport(journal.snapshot(), { clock: 'real', afterSequence: 58 }).window.complete).toBe(true)
  })

  it('starts a report of everything kept at the last clear, complete', () => {
    const journal = new Journal()
    generate(journal, 200)
    generate(journal, 402)
    journal.clear()
    generate(journal, 200)
    expect(clientReport(journal.snapshot(), { clock: 'real' }).window).toMatchObject({ complete: true, entries: 1 })
    // Asked to start after req_1: req_2 of that window was cleared.
    expect(clientReport(journal.snapshot(), { clock: 'real', afterSequence: 1 }).window.complete).toBe(false)
  })

  it('take a generate again after a 502, or after its job failed, for a retry, not a duplicate', () => {
    const journal = new Journal()
    generate(journal, 502)
    const accepted = generate(journal, 200)
    accepted.responseBody = '{"jobId":"job_1","status":"processing"}'
    record(journal, { operationId: 'getJobStatus', path: '/v1/projects/jobs/job_1', responseBody: '{"jobId":"job_1","status":"failed"}' })
    generate(journal, 200)
    expect(rules(journal)).toEqual([])
    // Without reading that the job failed, the same body again is a duplicate.
    generate(journal, 200)
    expect(rules(journal)).toEqual(['generate.duplicate'])
  })

  it('judges calls after a mark only', () => {
    const journal = new Journal()
    generate(journal, 200)
    const { mark, after } = journal.mark()
    expect(after).toBe('req_1')
    generate(journal, 200)
    expect(rules(journal)).toEqual(['generate.duplicate'])
    expect(rules(journal, journal.markSequence(mark))).toEqual([])
  })

  it('judges calls in arrival order, as the journal ids give it', () => {
    const journal = new Journal()
    const first = { id: journal.nextId() }
    const second = { id: journal.nextId() }
    // The second arrived later but was answered first: the retry of an abandoned generate.
    record(journal, {
      ...second,
      operationId: 'generateProject',
      method: 'POST',
      path: '/v1/projects/generate',
      requestBody: new TextEncoder().encode('{"prompt":"y"}'),
    })
    record(journal, {
      ...first,
      operationId: 'generateProject',
      method: 'POST',
      path: '/v1/projects/generate',
      clientGone: true,
      requestBody: new TextEncoder().encode('{"prompt":"x"}'),
    })
    const report = clientReport(journal.snapshot(), { clock: 'real' })
    expect(report.findings.map((finding) => [finding.rule, finding.requestIds])).toEqual([['generate.abandoned-retry', ['req_1', 'req_2']]])
  })

  it('counts a poll a second apart as clean, and one sooner as too fast', () => {
    const journal = new Journal()
    const poll = () =>
      record(journal, { operationId: 'getJobStatus', path: '/v1/projects/jobs/job_1', responseBody: '{"status":"processing"}' })
    poll()
    clock += 1_000
    poll()
    clock += 995 // within the timers' slack
    poll()
    expect(rules(journal)).toEqual([])
    clock += 500
    poll()
    expect(rules(journal)).toEqual(['poll.too-fast'])
  })
})
