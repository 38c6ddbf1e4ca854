import type { Faults } from '../core/faults.js'
import type { Journal } from '../core/journal.js'
import type { ClockResponse } from '../control/schemas.js'
import type { Urls } from '../model/urls.js'
import type { World } from '../store/world.js'
import { escapeHtml, htmlDocument } from './html.js'

/** What the dashboard shows: read-only views of the emulator's parts. */
export interface DashboardSource {
  readonly world: World
  readonly urls: Urls
  readonly faults: Faults
  readonly journal: Journal
  readonly seed: number
  readonly control: { clock(): ClockResponse }
}

function table(headers: string[], rows: string[][]): string {
  if (rows.length === 0) return '<p class="notice">None.</p>'
  return `<table><thead><tr>${headers.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr></thead><tbody>${rows
    .map((row) => `<tr>${row.map((cell) => `<td>${cell}</td>`).join('')}</tr>`)
    .join('')}</tbody></table>`
}

/** The live part of the dashboard: every table. */
export function dashboardFragment(emulator: DashboardSource): string {
  const world = emulator.world
  const e = escapeHtml
  const teams = world.teams.all().map((team) => [
    e(team.name),
    e(team.id),
    team.personalOf === null ? 'team' : 'personal',
    String(team.credits),
    e([...world.memberIdsOf(team.id)].map((id) => world.users.get(id)?.name ?? id).join(', ')),
  ])
  const keys = world.apiKeys.all().map((key) => [
    `<code>${e(key.key)}</code>`,
    e(world.users.get(key.userId)?.name ?? key.userId),
    e(world.teams.get(key.teamId)?.name ?? key.teamId),
    key.revokedAt === null ? 'active' : `revoked ${e(key.revokedAt)}`,
  ])
  const projects = [...world.projects.all()]
    .sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : -1))
    .slice(0, 25)
    .map((project) => [
      `<a href="/editor/${encodeURIComponent(project.slug)}">${e(project.name)}</a>`,
      e(world.teams.get(project.teamId)?.name ?? project.teamId),
      String(world.slidesOf(project.id).length),
      project.publishedAt === null ? '' : emulator.urls.published(world, project) === null ? 'yes' : `<a href="${e(emulator.urls.published(world, project)!)}">published</a>`,
      e(project.updatedAt),
    ])
  const jobs = [...world.jobs.all()]
    .reverse()
    .slice(0, 20)
    .map((job) => [e(job.id), e(job.status), e(world.teams.get(job.teamId)?.name ?? job.teamId), e(job.prompt.slice(0, 80)), e(job.dueAt)])
  const faults = emulator.faults.list().map((fault) => [
    e(fault.id),
    e(fault.operationId),
    fault.status === null ? 'delay only' : String(fault.status),
    fault.remaining === null ? 'until removed' : String(fault.remaining),
    `${fault.delayMs} ms`,
    String(fault.hits),
  ])
  const requests = emulator.journal.list({ limit: 30 }).map((entry) => [
    e(entry.time),
    e(`${entry.method} ${entry.path}`),
    String(entry.status),
    e(entry.operationId ?? ''),
    e(entry.keyId ?? ''),
  ])
  const clock = emulator.control.clock()
  return `<p>Clock ${e(clock.now)} (${e(clock.mode)}, time scale ${clock.timeScale})</p>
<section class="panel"><h2>Teams</h2>${table(['Name', 'Id', 'Kind', 'Credits', 'Members'], teams)}</section>
<section class="panel"><h2>API keys</h2>${table(['Key', 'Owner', 'Team', 'State'], keys)}</section>
<section class="panel"><h2>Projects (${world.projects.size}, newest 25)</h2>${table(['Name', 'Team', 'Slides', 'Published', 'Updated'], projects)}</section>
<section class="panel"><h2>Jobs</h2>${table(['Id', 'Status', 'Team', 'Prompt', 'Due'], jobs)}</section>
<section class="panel"><h2>Faults</h2>${table(['Id', 'Operation', 'Status', 'Remaining', 'Delay', 'Hits'], faults)}</section>
<section class="panel"><h2>Requests (newest 30 of ${emulator.journal.size})</h2>${table(['Time', 'Request', 'Status', 'Operation', 'Key'], requests)}</section>`
}

/** The dashboard at `/_emulator`: teams, keys, credits, projects, jobs, faults and the journal, live. */
export function dashboardPage(emulator: DashboardSource, fragmentUrl: string): string {
  const script = `(() => {
  const main = document.getElementById('dashboard');
  setInterval(async () => {
    try {
      const response = await fetch(${JSON.stringify(fragmentUrl)}, { cache: 'no-store' });
      if (response.ok) main.innerHTML = await response.text();
    } catch {}
  }, 2000);
})();`
  return htmlDocument(
    'Presentation emulator',
    `<header class="bar"><h1>Presentation emulator</h1><span class="meta">seed ${emulator.seed} · <a style="color:inherit" href="/_emulator/state">state</a></span></header>
<main id="dashboard">${dashboardFragment(emulator)}</main>`,
    { script },
  )
}
