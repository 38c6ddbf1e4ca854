import type { ProjectRecord } from './records.js'
import type { StateDocument } from './world.js'
import { TABLE_NAMES } from './world.js'

/** Where a project is served (a hostname and a path): two projects cannot share one. */
function placementKey(placement: ProjectRecord['placement']): string {
  return placement.type === 'subdomain'
    ? `subdomain ${placement.subdomainId} ${placement.path}`
    : `domain ${placement.domainId} ${placement.path}`
}

/**
 * Problems a schema cannot see in a state document: duplicate ids and
 * unique values (the world indexes them, so a duplicate would hide a
 * record), references to records that do not exist, and versions referred
 * to by a project (or publication) other than their own. An empty list
 * means the document can be loaded.
 */
export function integrityProblems(doc: StateDocument): string[] {
  const problems: string[] = []
  const ids = {} as Record<(typeof TABLE_NAMES)[number], Set<string>>
  for (const name of TABLE_NAMES) {
    const seen = new Set<string>()
    doc[name].forEach((record, index) => {
      if (seen.has(record.id)) problems.push(`${name}[${index}].id: duplicate id "${record.id}"`)
      seen.add(record.id)
    })
    ids[name] = seen
  }
  const unique = (table: string, values: string[], field: string) => {
    const seen = new Set<string>()
    values.forEach((value, index) => {
      if (seen.has(value)) problems.push(`${table}[${index}].${field}: duplicate value "${value}"`)
      seen.add(value)
    })
  }
  unique('teams', doc.teams.map((t) => t.slug), 'slug')
  unique('memberships', doc.memberships.map((m) => `${m.userId}|${m.teamId}`), 'userId+teamId')
  unique('apiKeys', doc.apiKeys.map((k) => k.key), 'key')
  unique('projects', doc.projects.map((p) => p.slug), 'slug')
  unique('projects', doc.projects.map((p) => placementKey(p.placement)), 'placement')
  unique('subdomains', doc.subdomains.map((s) => s.subdomain), 'subdomain')
  unique('domains', doc.domains.map((d) => d.hostname), 'hostname')
  unique('publications', doc.publications.map((p) => p.projectId), 'projectId')

  // Paths are built only for a problem: a valid document of 100,000 projects has over a million references.
  const ref = (path: () => string, table: (typeof TABLE_NAMES)[number], id: string | null) => {
    if (id !== null && !ids[table].has(id)) problems.push(`${path()}: no ${table} record "${id}"`)
  }
  /** A version that exists must be one of `projectId`'s versions. */
  const projectOfVersion = new Map(doc.versions.map((v) => [v.id, v.projectId]))
  const ownVersion = (path: () => string, projectId: string, versionId: string | null) => {
    if (versionId === null) return
    const owner = projectOfVersion.get(versionId)
    if (owner !== undefined && owner !== projectId) {
      problems.push(`${path()}: version "${versionId}" belongs to project "${owner}", not "${projectId}"`)
    }
  }
  const members = new Set(doc.memberships.map((m) => `${m.userId}|${m.teamId}`))
  doc.teams.forEach((t, i) => ref(() => `teams[${i}].personalOf`, 'users', t.personalOf))
  doc.memberships.forEach((m, i) => {
    ref(() => `memberships[${i}].userId`, 'users', m.userId)
    ref(() => `memberships[${i}].teamId`, 'teams', m.teamId)
  })
  doc.apiKeys.forEach((k, i) => {
    ref(() => `apiKeys[${i}].userId`, 'users', k.userId)
    ref(() => `apiKeys[${i}].teamId`, 'teams', k.teamId)
    if (!members.has(`${k.userId}|${k.teamId}`)) problems.push(`apiKeys[${i}]: user "${k.userId}" is not a member of team "${k.teamId}"`)
  })
  doc.subdomains.forEach((s, i) => ref(() => `subdomains[${i}].teamId`, 'teams', s.teamId))
  doc.domains.forEach((d, i) => ref(() => `domains[${i}].teamId`, 'teams', d.teamId))
  doc.projects.forEach((p, i) => {
    ref(() => `projects[${i}].teamId`, 'teams', p.teamId)
    ref(() => `projects[${i}].createdBy`, 'users', p.createdBy)
    ref(() => `projects[${i}].subdomainId`, 'subdomains', p.subdomainId)
    ref(() => `projects[${i}].latestVersionId`, 'versions', p.latestVersionId)
    ref(() => `projects[${i}].publishedVersionId`, 'versions', p.publishedVersionId)
    ownVersion(() => `projects[${i}].latestVersionId`, p.id, p.latestVersionId)
    ownVersion(() => `projects[${i}].publishedVersionId`, p.id, p.publishedVersionId)
    if (p.placement.type === 'subdomain') ref(() => `projects[${i}].placement.subdomainId`, 'subdomains', p.placement.subdomainId)
    else ref(() => `projects[${i}].placement.domainId`, 'domains', p.placement.domainId)
    p.collaborators.forEach((u, j) => ref(() => `projects[${i}].collaborators[${j}]`, 'users', u))
  })
  doc.versions.forEach((v, i) => ref(() => `versions[${i}].projectId`, 'projects', v.projectId))
  doc.slides.forEach((s, i) => ref(() => `slides[${i}].projectId`, 'projects', s.projectId))
  doc.templates.forEach((t, i) => ref(() => `templates[${i}].teamId`, 'teams', t.teamId))
  doc.jobs.forEach((j, i) => {
    ref(() => `jobs[${i}].teamId`, 'teams', j.teamId)
    ref(() => `jobs[${i}].userId`, 'users', j.userId)
    ref(() => `jobs[${i}].keyId`, 'apiKeys', j.keyId)
    ref(() => `jobs[${i}].projectId`, 'projects', j.projectId)
    ref(() => `jobs[${i}].templateId`, 'templates', j.templateId)
  })
  doc.publications.forEach((p, i) => {
    ref(() => `publications[${i}].projectId`, 'projects', p.projectId)
    ref(() => `publications[${i}].versionId`, 'versions', p.versionId)
    ownVersion(() => `publications[${i}].versionId`, p.projectId, p.versionId)
  })
  return problems
}
