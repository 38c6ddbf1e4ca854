/**
 * The dashboard at `/_emulator`: teams, keys, credits, projects, jobs,
 * faults and the request journal, live, with buttons and small forms for
 * every control-plane action (the script is `client/dashboard.ts`; it calls
 * the control plane with `fetch` and JSON bodies, never a form post).
 *
 * The server renders each part as a named section; the live page receives
 * the sections again over server-sent events whenever one changes.
 */
import { fail } from '../../src/core/errors.js'
import type { Faults } from '../../src/core/faults.js'
import { credentialFingerprint, type Journal, type JournalEntry } from '../../src/core/journal.js'
import { clientReport } from '../../src/model/client-report/index.js'
import { eventStreamResponse } from '../../src/core/server-sent-events.js'
import type { ClockResponse } from '../../src/control/schemas.js'
import type { SlideCheckResultsReader } from '../../src/model/check-results.js'
import type { Urls } from '../../src/model/urls.js'
import { OPERATION_IDS } from '../../src/schemas/index.js'
import type { ProjectRecord, SlideRecord } from '../../src/store/records.js'
import type { Change } from '../../src/store/table.js'
import type { World } from '../../src/store/world.js'
import { VERSION } from '../../src/version.js'
import { type ProjectChecks, projectChecks } from './check-badge.js'
import { escapeHtml, htmlDocument } from './html.js'
import { maskKey } from './key-mask.js'

/** What the dashboard shows and follows: read-only views of the emulator's parts. */
export interface DashboardSource {
  readonly world: World
  readonly urls: Urls
  readonly faults: Faults
  readonly journal: Journal
  readonly seed: number
  readonly control: { clock(): ClockResponse }
  exclusive<T>(task: () => Promise<T> | T): Promise<T>
  /** Subscribes to every change of the world; returns the unsubscribe function. */
  onChange(listener: (change: Change<unknown> | { table: '*' }) => void): () => void
  /** The last check result of each slide (the projects' badges): read only, so the dashboard never starts a check. */
  readonly slideCheckResults: SlideCheckResultsReader
}

/** Which journal entries the requests table shows. */
export interface JournalFilter {
  operationId?: string
  /** An exact status (`404`) or a class (`4xx`). */
  status?: string
  keyId?: string
  /** How many entries at most (1–500, default 50). */
  limit: number
}

export const DEFAULT_JOURNAL_ROWS = 50
const MAX_JOURNAL_ROWS = 500
const MAX_ROWS = 100
const PROJECT_ROWS = 25
const JOB_ROWS = 20

/** Reads the journal filter of a dashboard URL's query; a bad value is a 400 naming it. */
export function parseJournalFilter(query: Record<string, string>): JournalFilter {
  const filter: JournalFilter = { limit: DEFAULT_JOURNAL_ROWS }
  const { operationId, status, keyId, limit } = query
  if (operationId !== undefined && operationId !== '') {
    if (!(OPERATION_IDS as string[]).includes(operationId)) throw fail.validation(`operationId: not an operation id: ${operationId}`)
    filter.operationId = operationId
  }
  if (status !== undefined && status !== '') {
    if (!/^[1-5](?:xx|[0-9]{2})$/.test(status)) throw fail.validation('status: must be a status such as 404 or a class such as 4xx')
    filter.status = status
  }
  if (keyId !== undefined && keyId !== '') {
    if (keyId.length > 200) throw fail.validation('keyId: must be at most 200 characters long')
    filter.keyId = keyId
  }
  if (limit !== undefined && limit !== '') {
    const n = Number(limit)
    if (!/^[0-9]+$/.test(limit) || n < 1 || n > MAX_JOURNAL_ROWS)
      throw fail.validation(`limit: must be a whole number from 1 to ${MAX_JOURNAL_ROWS}`)
    filter.limit = n
  }
  return filter
}

function matches(entry: JournalEntry, filter: JournalFilter): boolean {
  if (filter.keyId !== undefined && entry.keyId !== filter.keyId) return false
  if (filter.status !== undefined) {
    const status = String(entry.status)
    if (filter.status.endsWith('xx') ? status[0] !== filter.status[0] : status !== filter.status) return false
  }
  return true
}

const e = escapeHtml

/** `2026-01-01T00:00:05.123Z` → `2026-01-01 00:00:05`. */
function shortTime(iso: string): string {
  return iso.length >= 19 ? `${iso.slice(0, 10)} ${iso.slice(11, 19)}` : iso
}

function count(shown: number, total: number, noun: string): string {
  if (total === 0) return `no ${noun}`
  return shown < total ? `newest ${shown.toLocaleString('en')} of ${total.toLocaleString('en')}` : `${total.toLocaleString('en')} ${noun}`
}

function table(headers: Array<string | [string, string]>, rows: string[][], empty: string): string {
  if (rows.length === 0) return `<p class="empty">${e(empty)}</p>`
  const th = headers.map((h) => (typeof h === 'string' ? `<th>${e(h)}</th>` : `<th class="${h[1]}">${e(h[0])}</th>`)).join('')
  return `<div class="table-wrap"><table class="data"><thead><tr>${th}</tr></thead><tbody>${rows.map((row) => `<tr>${row.join('')}</tr>`).join('')}</tbody></table></div>`
}

const td = (html: string, cls?: string) => `<td${cls === undefined ? '' : ` class="${cls}"`}>${html}</td>`

/** The newest `n` projects (by `updatedAt`, then id), in one pass. */
function newestProjects(world: World, n: number): ProjectRecord[] {
  const newer = (a: ProjectRecord, b: ProjectRecord) => (a.updatedAt !== b.updatedAt ? a.updatedAt > b.updatedAt : a.id < b.id)
  const top: ProjectRecord[] = []
  for (const project of world.projects.all()) {
    if (top.length === n && !newer(project, top[n - 1]!)) continue
    let at = top.length
    while (at > 0 && newer(project, top[at - 1]!)) at--
    top.splice(at, 0, project)
    if (top.length > n) top.pop()
  }
  return top
}

/** A project's badges: the last check of each slide whose files and config are still those checked (none started here). */
function checksOf(results: SlideCheckResultsReader, project: ProjectRecord, slides: readonly SlideRecord[]): string {
  const checked: ProjectChecks['checked'] = []
  slides.forEach((slide, index) => {
    const result = results.current(project.id, slide.id, slide.files, project.config)
    if (result !== undefined) checked.push({ position: index + 1, name: slide.name, result })
  })
  return projectChecks({ slides: slides.length, checked })
}

/** Every live section of the dashboard, by name: the page has an element `data-section="name"` for each. */
export function dashboardSections(
  source: DashboardSource,
  filter: JournalFilter = { limit: DEFAULT_JOURNAL_ROWS },
): Record<string, string> {
  const world = source.world
  const clock = source.control.clock()
  const userName = (id: string) => world.users.get(id)?.name ?? id
  const teamName = (id: string) => world.teams.get(id)?.name ?? id

  const allTeams = world.teams.all()
  const teams = allTeams.slice(-MAX_ROWS).reverse()
  const teamRows = teams.map((team) => [
    td(`<strong>${e(team.name)}</strong>`),
    td(`<span class="mono">${e(team.id)}</span>`, 'hide-narrow'),
    td(team.personalOf === null ? 'shared' : 'personal', 'hide-narrow'),
    td(String(team.credits), 'num'),
    td(e([...world.memberIdsOf(team.id)].map(userName).join(', ')), 'hide-narrow'),
    td(
      `<button type="button" class="btn btn-small" data-action="prefill-credits" data-team-id="${e(team.id)}" data-credits="${team.credits}">Set credits…</button>`,
      'actions',
    ),
  ])

  const allKeys = world.apiKeys.all()
  const keys = allKeys.slice(-MAX_ROWS).reverse()
  const keyRows = keys.map((key) => {
    const active = key.revokedAt === null
    return [
      td(`<code class="key-value" data-key-id="${e(key.id)}" data-masked="${e(maskKey(key.key))}">${e(maskKey(key.key))}</code>`, 'nowrap'),
      td(`${e(key.name)}<div class="muted mono">${e(key.id)}</div>`),
      td(e(userName(key.userId)), 'hide-narrow'),
      td(e(teamName(key.teamId)), 'hide-narrow'),
      td(
        active
          ? '<span class="badge badge-active">active</span>'
          : `<span class="badge badge-revoked" title="${e(key.revokedAt!)}">revoked</span>`,
      ),
      td(
        `<button type="button" class="btn btn-small" data-action="key-reveal" data-key-id="${e(key.id)}" aria-pressed="false">Reveal</button><button type="button" class="btn btn-small" data-action="key-copy" data-key-id="${e(key.id)}">Copy</button>${
          active
            ? `<button type="button" class="btn btn-small btn-danger" data-action="key-revoke" data-key-id="${e(key.id)}">Revoke</button>`
            : ''
        }`,
        'actions',
      ),
    ]
  })

  const projects = newestProjects(world, PROJECT_ROWS)
  const projectRows = projects.map((project) => {
    const slides = world.slidesOf(project.id)
    const published = source.urls.published(world, project)
    const sitePath = published === null ? null : new URL(published).pathname
    return [
      td(
        `<a href="/editor/${encodeURIComponent(project.slug)}" target="_blank" rel="noopener">${e(project.name)}</a><div class="muted mono">${e(project.slug)}</div>`,
      ),
      td(e(teamName(project.teamId)), 'hide-narrow'),
      td(String(slides.length), 'num'),
      td(checksOf(source.slideCheckResults, project, slides) || '<span class="muted">not checked</span>', 'checks'),
      td(sitePath === null ? '<span class="muted">no</span>' : `<a href="${e(sitePath)}" target="_blank" rel="noopener">site ↗</a>`),
      td(e(shortTime(project.updatedAt)), 'nowrap hide-narrow'),
    ]
  })

  const allJobs = world.jobs.all()
  const jobs = allJobs.slice(-JOB_ROWS).reverse()
  const jobRows = jobs.map((job) => {
    const project = world.projects.get(job.projectId)
    return [
      td(`<span class="mono">${e(job.id)}</span>`, 'hide-narrow'),
      td(
        `<span class="badge badge-${e(job.status)}">${e(job.status)}</span>${job.error === null ? '' : `<div class="muted">${e(job.error)}</div>`}`,
      ),
      td(
        project === undefined
          ? e(job.projectId)
          : `<a href="/editor/${encodeURIComponent(project.slug)}" target="_blank" rel="noopener">${e(project.name)}</a>`,
      ),
      td(e(job.prompt.length > 80 ? `${job.prompt.slice(0, 80)}…` : job.prompt), 'hide-narrow'),
      td(e(shortTime(job.finishedAt ?? job.dueAt)), 'nowrap hide-narrow'),
      td(
        job.status === 'processing'
          ? `<button type="button" class="btn btn-small" data-action="job-complete" data-job-id="${e(job.id)}">Complete</button><button type="button" class="btn btn-small btn-danger" data-action="job-fail" data-job-id="${e(job.id)}">Fail</button>`
          : '',
        'actions',
      ),
    ]
  })

  const faults = source.faults.list()
  const faultRows = faults.map((fault) => [
    td(`<span class="mono">${e(fault.id)}</span>`),
    td(e(fault.operationId)),
    td(
      fault.status === null
        ? '<span class="muted">delay only</span>'
        : `<span class="status status-${String(fault.status)[0]}">${fault.status}</span>`,
    ),
    td(fault.remaining === null ? 'until removed' : String(fault.remaining), 'hide-narrow'),
    td(fault.delayMs === 0 ? '' : `${fault.delayMs} ms`, 'num hide-narrow'),
    td(
      fault.apiKey === null
        ? '<span class="muted">any</span>'
        : `<span class="mono">${e(fault.apiKey.startsWith('pres_') ? maskKey(fault.apiKey) : fault.apiKey)}</span>`,
      'hide-narrow',
    ),
    td(String(fault.hits), 'num'),
    td(`<button type="button" class="btn btn-small" data-action="fault-remove" data-fault-id="${e(fault.id)}">Remove</button>`, 'actions'),
  ])

  // The journal: filtered by operation in the journal itself, by status and key here.
  const filtered = filter.status !== undefined || filter.keyId !== undefined
  const candidates = source.journal.list(
    filter.operationId === undefined ? (filtered ? {} : { limit: filter.limit }) : { operationId: filter.operationId },
  )
  const matching = filtered ? candidates.filter((entry) => matches(entry, filter)) : candidates
  const shown = matching.slice(0, filter.limit)
  const total = source.journal.size
  const anyFilter = filtered || filter.operationId !== undefined
  const matchingCount = anyFilter ? matching.length : total
  const requestRows = shown.map((entry) => [
    td(e(entry.time.slice(11, 23)), 'nowrap mono hide-narrow'),
    td(`<span class="mono">${e(entry.method)} ${e(entry.path)}</span>`),
    td(`<span class="status status-${String(entry.status)[0]}">${entry.status}</span>`),
    td(e(entry.operationId ?? '—'), 'hide-narrow'),
    td(`<span class="mono">${e(entry.keyId ?? '—')}</span>`, 'hide-narrow'),
    td(`${entry.durationMs.toFixed(1)} ms`, 'num hide-narrow'),
    td(
      `<button type="button" class="btn btn-small" data-action="request-details" data-request-id="${e(entry.id)}" data-entry="${e(JSON.stringify(entry))}">Details</button>`,
      'actions',
    ),
  ])
  const requestsCount = anyFilter
    ? `${shown.length < matchingCount ? `newest ${shown.length} of ` : ''}${matchingCount.toLocaleString('en')} matching · ${total.toLocaleString('en')} in the journal`
    : count(shown.length, total, total === 1 ? 'request' : 'requests')

  // The client report beside the journal: of the key the journal is filtered by, else of every key.
  const reportKey = filter.keyId === undefined ? undefined : world.apiKeys.get(filter.keyId)
  const report = clientReport(source.journal.snapshot(), {
    clock: clock.mode,
    now: Date.parse(clock.now),
    keyFingerprint: filter.keyId === undefined ? undefined : reportKey === undefined ? 'none' : credentialFingerprint(reportKey.key),
    teamOf: (keyId) => world.apiKeys.get(keyId)?.teamId,
  })
  const findingRows = report.findings.map((finding) => [
    td(`<span class="status status-${finding.severity === 'error' ? '5' : '4'}">${e(finding.severity)}</span>`),
    td(`<span class="mono" title="${e(finding.clause)} (${e(finding.ref)})">${e(finding.rule)}</span>`),
    td(`<span class="mono">${e(finding.keyId ?? finding.keyFingerprint ?? '—')}</span>`, 'hide-narrow'),
    td(e(finding.message)),
    td(
      `<span class="mono">${e(finding.requestIds.slice(0, 5).join(' '))}${finding.count > 5 ? ` (${finding.count})` : ''}</span>`,
      'hide-narrow',
    ),
  ])
  const reportCount =
    report.findings.length === 0
      ? `clean · ${report.window.entries.toLocaleString('en')} calls`
      : `${report.errors} error${report.errors === 1 ? '' : 's'} · ${report.warnings} warning${report.warnings === 1 ? '' : 's'}${report.window.complete ? '' : ' · older calls dropped'}`

  const option = (value: string, label: string) => `<option value="${e(value)}">${e(label)}</option>`
  const lists = [
    `<datalist id="dl-users">${world.users
      .all()
      .slice(-200)
      .map((user) => option(user.id, user.name))
      .join('')}</datalist>`,
    `<datalist id="dl-teams">${teams.map((team) => option(team.id, team.name)).join('')}</datalist>`,
    `<datalist id="dl-keys">${keys.map((key) => option(key.id, `${key.name} (${userName(key.userId)})`)).join('')}</datalist>`,
  ].join('')

  return {
    clock: `<span class="chip" title="Emulator clock">${e(shortTime(clock.now))} UTC · ${e(clock.mode)} clock · time scale ${clock.timeScale}</span>`,
    'teams-count': e(count(teams.length, allTeams.length, allTeams.length === 1 ? 'team' : 'teams')),
    teams: table(
      ['Team', ['Id', 'hide-narrow'], ['Kind', 'hide-narrow'], 'Credits', ['Members', 'hide-narrow'], ''],
      teamRows,
      'No teams.',
    ),
    'keys-count': e(count(keys.length, allKeys.length, allKeys.length === 1 ? 'key' : 'keys')),
    keys: table(['Key', 'Name', ['Owner', 'hide-narrow'], ['Team', 'hide-narrow'], 'State', ''], keyRows, 'No API keys.'),
    'projects-count': e(count(projects.length, world.projects.size, world.projects.size === 1 ? 'project' : 'projects')),
    projects: table(
      ['Project', ['Team', 'hide-narrow'], 'Slides', 'Last checks', 'Published', ['Updated', 'hide-narrow']],
      projectRows,
      'No projects.',
    ),
    'jobs-count': e(count(jobs.length, allJobs.length, allJobs.length === 1 ? 'job' : 'jobs')),
    jobs: table(
      [['Job', 'hide-narrow'], 'Status', 'Project', ['Prompt', 'hide-narrow'], ['Due / finished', 'hide-narrow'], ''],
      jobRows,
      'No generation jobs yet.',
    ),
    'faults-count': e(faults.length === 0 ? 'none' : `${faults.length} active`),
    faults: table(
      ['Id', 'Operation', 'Status', ['Remaining', 'hide-narrow'], ['Delay', 'hide-narrow'], ['Key', 'hide-narrow'], 'Hits', ''],
      faultRows,
      'No faults: every call answers normally.',
    ),
    'requests-count': e(requestsCount),
    requests: table(
      [['Time', 'hide-narrow'], 'Request', 'Status', ['Operation', 'hide-narrow'], ['Key', 'hide-narrow'], ['Duration', 'hide-narrow'], ''],
      requestRows,
      anyFilter ? 'No request matches the filters.' : 'No /v1 request yet.',
    ),
    'client-report-count': e(reportCount),
    'client-report': table(
      ['Severity', 'Rule', ['Key', 'hide-narrow'], 'Finding', ['Calls', 'hide-narrow']],
      findingRows,
      report.window.entries === 0 ? 'No /v1 call to judge yet.' : 'No finding: these calls use the API as the rules ask.',
    ),
    lists,
  }
}

/** The sections as one HTML fragment (`/_emulator/dashboard/fragment`), each in its `data-section` element. */
export function dashboardFragment(source: DashboardSource, filter?: JournalFilter): string {
  return Object.entries(dashboardSections(source, filter))
    .map(([name, html]) => `<div data-section="${name}">${html}</div>`)
    .join('\n')
}

function card(id: string, title: string, sections: Record<string, string>, extra = '', actions = ''): string {
  return `<section class="card" id="${id}-card" aria-labelledby="${id}-title"><div class="card-head"><h2 id="${id}-title">${e(title)}</h2><span class="count" data-section="${id}-count">${sections[`${id}-count`]}</span>${
    actions === '' ? '' : `<div class="actions">${actions}</div>`
  }</div>${extra}<div data-section="${id}">${sections[id]}</div></section>`
}

const field = (label: string, input: string) => `<label class="field">${e(label)}${input}</label>`

/** The dashboard page. `eventsUrl` and `fragmentUrl` carry `?token=` when an admin token is set. */
export function dashboardPage(source: DashboardSource, options: { eventsUrl: string; filter?: JournalFilter }): string {
  const filter = options.filter ?? { limit: DEFAULT_JOURNAL_ROWS }
  const sections = dashboardSections(source, filter)
  const ops = OPERATION_IDS.map((id) => `<option value="${id}"${filter.operationId === id ? ' selected' : ''}>${id}</option>`).join('')
  const statusOptions = ['', '2xx', '4xx', '5xx', '400', '401', '402', '404', '429', '500', '502']
    .map((s) => `<option value="${s}"${(filter.status ?? '') === s ? ' selected' : ''}>${s === '' ? 'any' : s}</option>`)
    .join('')
  const limitOptions = [20, 50, 100, 500].map((n) => `<option value="${n}"${filter.limit === n ? ' selected' : ''}>${n}</option>`).join('')

  const actions = `<aside class="dash-actions" aria-label="Actions">
<section class="card"><h2>World</h2><div class="card-body form">
<p class="hint">Back to the seeded world: clock, faults, journal and rate limits cleared.</p>
<div class="form-row"><button type="button" class="btn btn-danger" data-action="reset" data-testid="reset">Reset world</button><button type="button" class="btn" data-action="download-state">Download state</button></div>
</div></section>
<section class="card"><h2>Clock</h2><form class="card-body form" id="form-advance" data-testid="form-advance">
<div class="form-row">${field('Advance by (seconds)', '<input name="seconds" type="number" min="0" max="31622400" step="any" value="60" required>')}<button class="btn btn-primary" type="submit">Advance</button></div>
<p class="hint">Due jobs complete; rate-limit windows roll over.</p>
</form></section>
<section class="card"><h2>Credits</h2><form class="card-body form" id="form-credits">
<div class="form-row">${field('Team id', '<input name="teamId" list="dl-teams" required autocomplete="off" placeholder="team_…">')}${field('Credits', '<input name="credits" type="number" min="0" step="1" required>')}</div>
<div class="form-row"><button class="btn btn-primary" type="submit">Set credits</button></div>
</form></section>
<section class="card"><h2>Create an API key</h2><form class="card-body form" id="form-key">
<div class="form-row">${field('User id', '<input name="userId" list="dl-users" required autocomplete="off" placeholder="usr_…">')}${field('Team id (optional)', '<input name="teamId" list="dl-teams" autocomplete="off" placeholder="personal team">')}</div>
<div class="form-row">${field('Name', '<input name="name" autocomplete="off" placeholder="API key">')}<button class="btn btn-primary" type="submit">Create key</button></div>
</form></section>
<section class="card"><h2>Faults</h2><form class="card-body form" id="form-fault">
<div class="form-row">${field('Operation', `<select name="operationId"><option value="*">* (every operation)</option>${OPERATION_IDS.map((id) => `<option value="${id}">${id}</option>`).join('')}</select>`)}</div>
<div class="form-row">${field('Status', '<input name="status" type="number" min="400" max="599" value="500">')}${field('Times (0 = until removed)', '<input name="times" type="number" min="0" step="1" value="1">')}</div>
<div class="form-row">${field('Delay (ms)', '<input name="delayMs" type="number" min="0" max="120000" step="1" value="0">')}${field('Only for key (optional)', '<input name="apiKey" list="dl-keys" autocomplete="off" placeholder="key_… or pres_…">')}</div>
<div class="form-row">${field('Error text (optional)', '<input name="error" autocomplete="off">')}</div>
<div class="form-row"><button class="btn btn-primary" type="submit">Add fault</button><button type="button" class="btn" data-action="faults-clear">Clear all faults</button></div>
</form></section>
<section class="card"><h2>Results</h2><div class="card-body"><div id="results" class="results" aria-live="polite"><p class="hint">The answer of each action shows here.</p></div></div></section>
</aside>`

  const jobsExtra = `<div class="filters">${field('Failure message (for Fail)', '<input id="fail-message" autocomplete="off" placeholder="Generation failed">')}</div>`
  const filters = `<form class="filters" id="journal-filters" data-testid="journal-filters">
${field('Operation', `<select name="operationId"><option value="">any</option>${ops}</select>`)}
${field('Status', `<select name="status">${statusOptions}</select>`)}
${field('Key id', `<input name="keyId" list="dl-keys" autocomplete="off" value="${e(filter.keyId ?? '')}" placeholder="any">`)}
${field('Show', `<select name="limit">${limitOptions}</select>`)}
</form>`

  const data = `<div class="dash-data">
${card('jobs', 'Generation jobs', sections, jobsExtra)}
${card('requests', 'Requests', sections, filters, '<button type="button" class="btn btn-small" data-action="journal-clear">Clear journal</button>')}
<div id="request-details" class="card details" hidden><h3>Request <span id="request-details-id"></span></h3><pre id="request-details-body"></pre></div>
${card('client-report', 'Client report', sections, '<p class="hint">How these calls use the API: polling, the rate limit, generate, 401s, pagination, the editing indicator, bodies (the key filter above applies). <code>GET /_emulator/client-report</code>; the rules in docs/guides/client-report.md.</p>')}
${card('faults', 'Faults', sections)}
${card('keys', 'API keys', sections)}
${card('teams', 'Teams and credits', sections)}
${card('projects', 'Projects', sections)}
</div>`

  return htmlDocument({
    title: 'Presentation emulator · Dashboard',
    bodyClass: 'dashboard-page',
    bodyData: { events: options.eventsUrl },
    scripts: ['dashboard.js'],
    body: `<header class="dash-top"><h1>Presentation emulator</h1><div class="meta"><span class="chip">v${e(VERSION)}</span><span class="chip">seed ${source.seed}</span><span data-section="clock">${sections.clock}</span></div><span class="spacer"></span><span id="live" class="live-dot" role="status">Connecting…</span></header>
<main class="dash">${actions}${data}</main>
<div hidden data-section="lists">${sections.lists}</div>`,
  })
}

/** How often the dashboard's stream looks for changes outside the world (journal, faults, a manual clock). */
const POLL_MS = 500

/**
 * The dashboard's live updates: a `state` event `{sections}` with the
 * sections that changed, at once and then whenever one changes. World
 * changes arrive through the change hook; the journal, the faults and the
 * clock are compared every half second. Everything stops with the stream.
 */
export function dashboardEvents(source: DashboardSource, filter: JournalFilter) {
  return eventStreamResponse((sink) => {
    const last: Record<string, string> = {}
    let worldChanges = 0
    let seen = ''
    let rendering = false
    const revision = () => {
      const clock = source.control.clock()
      const newest = source.journal.list({ limit: 1 })[0]?.id ?? ''
      const faults = source.faults
        .list()
        .map((fault) => `${fault.id}:${fault.remaining}:${fault.hits}`)
        .join(',')
      // A real clock is shown to the second.
      return `${worldChanges}|${source.slideCheckResults.version}|${newest}|${source.journal.size}|${faults}|${clock.mode === 'manual' ? clock.now : clock.now.slice(0, 19)}`
    }
    const render = async () => {
      if (rendering || sink.closed) return
      rendering = true
      try {
        const current = revision()
        if (current === seen) return
        seen = current
        const sections = await source.exclusive(() => dashboardSections(source, filter))
        const changed: Record<string, string> = {}
        for (const [name, html] of Object.entries(sections)) {
          if (last[name] !== html) changed[name] = last[name] = html
        }
        if (Object.keys(changed).length > 0) sink.send(JSON.stringify({ sections: changed }), 'state')
      } catch (error) {
        console.error('[presentation-emulator] the dashboard’s live update failed:', error)
        sink.end()
      } finally {
        rendering = false
      }
    }
    let timer: ReturnType<typeof setTimeout> | undefined
    const unsubscribe = source.onChange(() => {
      worldChanges += 1
      if (timer === undefined) {
        timer = setTimeout(() => {
          timer = undefined
          void render()
        }, 50)
      }
    })
    const poll = setInterval(() => void render(), POLL_MS)
    ;(poll as { unref?: () => void }).unref?.()
    void render()
    return () => {
      unsubscribe()
      clearInterval(poll)
      if (timer !== undefined) clearTimeout(timer)
    }
  })
}
