/**
 * Distinct problems: what every report opens with. A run can meet one
 * defect dozens of times (a page one item too long, answered to every list
 * request of a burst); a person acts on the defect, once. Findings of one
 * rule under one clause and level are one problem, with a count, the
 * scenarios and operations it appeared in, and one example exchange.
 * Inside one scenario, identical findings (same rule, wording, operation,
 * expected and actual) collapse into one with a count.
 */
import { FACTS } from '../facts/table.js'
import type { Finding, Problem, ScenarioResult } from '../types.js'

/** FNV-1a, 32 bits, as 8 hex digits: short, stable across runs and platforms. */
function hash(text: string): string {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h.toString(16).padStart(8, '0')
}

/**
 * The rule id of a check that is not a row of the table of facts: derived
 * from its clause and wording, with what changes from run to run (the run's
 * names, generated ids) taken out, so it is the same id in every run.
 */
export function derivedRule(clause: string, message: string, runId?: string): string {
  let text = message
  if (runId !== undefined) text = text.split(runId).join('RUN')
  text = text.replace(/\bconformance-[\w-]+/g, 'conformance-X').replace(/\b(job|sld|prj|ver|tpl|usr|team|key|req)_[A-Za-z0-9]+/g, '$1_X')
  return `check.${hash(`${clause}\n${text}`)}`
}

const FACT_STATEMENTS = new Map(FACTS.map((fact) => [fact.id, fact.statement]))

/** A finding's rule (findings built before rules existed get one derived from their wording). */
export const ruleOf = (finding: Finding): string => finding.rule ?? derivedRule(finding.clause, finding.message)

/** A finding and how many identical ones it stands for. */
export interface Collapsed {
  finding: Finding
  count: number
}

const identity = (f: Finding) =>
  JSON.stringify([ruleOf(f), f.level, f.clause, f.message, f.operationId ?? '', f.expected ?? '', f.actual ?? ''])

/** Identical findings (one scenario's) as one each, with a count; first occurrence first. */
export function collapse(findings: readonly Finding[]): Collapsed[] {
  const out = new Map<string, Collapsed>()
  for (const finding of findings) {
    const key = identity(finding)
    const seen = out.get(key)
    if (seen === undefined) out.set(key, { finding, count: 1 })
    else seen.count += 1
  }
  return [...out.values()]
}

/** The statement of a rule: the table of facts' wording, else the check's message. */
function statementOf(finding: Finding): string {
  return FACT_STATEMENTS.get(finding.rule ?? '') ?? finding.message
}

/**
 * The distinct problems of a run's scenarios (those that ran): MUST before
 * SHOULD, problems a baseline does not expect first, then the most frequent.
 */
export function problemsOf(scenarios: readonly ScenarioResult[]): Problem[] {
  const byKey = new Map<string, Problem & { order: number }>()
  for (const result of scenarios) {
    if (result.outcome === 'skip') continue
    const expected = result.outcome === 'expected-fail'
    for (const finding of [...result.failures, ...result.warnings]) {
      const rule = ruleOf(finding)
      const key = JSON.stringify([rule, finding.level, finding.clause])
      let problem = byKey.get(key)
      if (problem === undefined) {
        problem = {
          rule,
          level: finding.level,
          clause: finding.clause,
          ref: finding.ref,
          statement: statementOf(finding),
          count: 0,
          operations: [],
          scenarios: [],
          expected: true,
          example: finding,
          order: byKey.size,
        }
        byKey.set(key, problem)
      }
      problem.count += 1
      problem.expected &&= expected
      if (finding.operationId !== undefined && !problem.operations.includes(finding.operationId))
        problem.operations.push(finding.operationId)
      const at = problem.scenarios.find((s) => s.id === result.id)
      if (at === undefined) problem.scenarios.push({ id: result.id, count: 1 })
      else at.count += 1
      // The example: the first occurrence that shows an exchange, when one does.
      if (problem.example.exchange === undefined && finding.exchange !== undefined) problem.example = finding
    }
  }
  return [...byKey.values()]
    .sort(
      (a, b) =>
        Number(a.level === 'SHOULD') - Number(b.level === 'SHOULD') ||
        Number(a.expected) - Number(b.expected) ||
        b.count - a.count ||
        a.order - b.order,
    )
    .map(({ order: _order, ...problem }) => problem)
}

/** The scenarios a problem appeared in (the most frequent first, `×n` when more than once), as one line says it. */
export function whereText(problem: Problem, maxScenarios = 3): string {
  const byCount = [...problem.scenarios].sort((a, b) => b.count - a.count)
  const shown = byCount.slice(0, maxScenarios).map((s) => (s.count > 1 ? `${s.id} ×${s.count}` : s.id))
  const more = problem.scenarios.length - shown.length
  return `${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}`
}
