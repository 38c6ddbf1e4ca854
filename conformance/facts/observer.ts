/**
 * A passive observer: exchanges in, verdicts out. It evaluates every spec
 * row of the table of facts on each exchange, against what the exchanges
 * before taught it, then learns from the exchange. It sends nothing, so the
 * kit's scenarios, the walks and a proxy over real traffic all judge with it.
 *
 * @example
 * const observer = new Observer({ prefix: 'pres_' })
 * for (const exchange of recorded) for (const v of observer.observe(observe(exchange, baseUrl))) if (!v.holds) console.log(v)
 */
import { emptyModel, learn, type Model, type Settings } from './model.js'
import type { Observed } from './observed.js'
import { type Miss, SPEC_FACTS, type SpecFact } from './table.js'

/** One fact evaluated on one exchange. */
export interface Verdict {
  fact: SpecFact
  /** The heading the fact names for this exchange. */
  clause: string
  holds: boolean
  /** What did not hold, when it did not. */
  miss?: Miss
}

const NOBODY: Settings = { prefix: undefined, isolated: () => false, revoked: new Set(), extensions: false, judgeLists: true }

export class Observer {
  model: Model = emptyModel()
  readonly settings: Settings

  constructor(settings: Partial<Settings> = {}) {
    this.settings = { ...NOBODY, ...settings }
  }

  /** Evaluates every fact on `ex`, then learns from it. */
  observe(ex: Observed): Verdict[] {
    const verdicts: Verdict[] = []
    for (const fact of SPEC_FACTS) {
      const result = fact.evaluate(ex, this.model, this.settings)
      if (result === undefined) continue
      const clause = fact.clauseOf?.(ex) ?? fact.clause
      for (const outcome of Array.isArray(result) ? result : [result])
        verdicts.push(outcome === true ? { fact, clause, holds: true } : { fact, clause, holds: false, miss: outcome })
    }
    learn(this.model, ex)
    return verdicts
  }

  /**
   * Forgets what something outside the API may have changed: `lists` (teams
   * and templates, after a control plane made some), or `all` (after the
   * world was reset).
   */
  forget(what: 'lists' | 'all'): void {
    if (what === 'all') {
      this.model = emptyModel()
      return
    }
    this.model.teams.clear()
    this.model.templates.clear()
  }
}

export type { Settings }
