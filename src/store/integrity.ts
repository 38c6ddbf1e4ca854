import type { ProjectRecord } from './records.js'
import type { StateDocument, World } from './world.js'
import { placementKey, TABLE_NAMES } from './world.js'

/** Where a project is served (a hostname and a path), as a problem names it: two projects cannot share one. */
function placementLabel(placement: ProjectRecord['placement']): string {
  return placement.type === 'subdomain'
    ? `subdomain ${placement.subdomainId} ${placement.path}`
    : `domain ${placement.domainId} ${placement.path}`
}

/**
 * Problems a schema cannot see in a state document: duplicate ids and
 * unique values (the world indexes them, so a duplicate would hide a
 * record), references to records that do not exist, versions referred
 * to by a project (or publication) other than their own, and a published
 * project without its publication (or a publication of an unpublished
 * one). An empty list means the document can be loaded.
 *
 * `loaded`, a world built from this very document (`World.fromState`, which
 * refuses duplicate ids), spares indexing it again: its tables hold the ids,
 * and its unique indexes, when they hold as many values as there are
 * records, prove those values unique. Only a count that differs is looked
 * into, to name the duplicates.
 */
export function integrityProblems(doc: StateDocument, loaded?: World): string[] {
  const problems: string[] = []
  const world = loaded !== undefined && TABLE_NAMES.every((name) => loaded.table(name).size === doc[name].length) ? loaded : undefined
  const ids = {} as Record<(typeof TABLE_NAMES)[number], { has(id: string): boolean }>
  for (const name of TABLE_NAMES) {
    if (world !== undefined) {
      const table = world.table(name)
      ids[name] = { has: (id) => table.get(id) !== undefined }
      continue
    }
    const seen = new Set<string>()
    const records = doc[name]
    for (let index = 0; index < records.length; index++) {
      const id = records[index]!.id
      if (seen.has(id)) problems.push(`${name}[${index}].id: duplicate id "${id}"`)
      seen.add(id)
    }
    ids[name] = seen
  }
  const counts = world?.uniqueValueCounts()
  const unique = <R>(
    table: string,
    records: readonly R[],
    field: string,
    keyOf: (record: R) => string,
    indexed?: number,
    labelOf: (record: R) => string = keyOf,
  ) => {
    if (indexed === records.length) return
    const seen = new Set<string>()
    for (let index = 0; index < records.length; index++) {
      const key = keyOf(records[index]!)
      if (seen.has(key)) problems.push(`${table}[${index}].${field}: duplicate value "${labelOf(records[index]!)}"`)
      seen.add(key)
    }
  }
  unique('teams', doc.teams, 'slug', (t) => t.slug)
  unique('memberships', doc.memberships, 'userId+teamId', (m) => `${m.userId}|${m.teamId}`)
  unique('apiKeys', doc.apiKeys, 'key', (k) => k.key, counts?.apiKeyValues)
  unique('projects', doc.projects, 'slug', (p) => p.slug, counts?.projectSlugs)
  unique(
    'projects',
    doc.projects,
    'placement',
    (p) => placementKey(p.placement),
    counts?.projectPlacements,
    (p) => placementLabel(p.placement),
  )
  unique('subdomains', doc.subdomains, 'subdomain', (s) => s.subdomain, counts?.subdomainLabels)
  unique('domains', doc.domains, 'hostname', (d) => d.hostname, counts?.domainHostnames)
  unique('publications', doc.publications, 'projectId', (p) => p.projectId, counts?.publicationProjects)

  // Paths are built only for a problem, and nothing is allocated per reference
  // otherwise: a valid document of 100,000 projects has over a million of them.
  /** Whether `id` (when not null) names a record of `table`; a problem otherwise. */
  const ref = (table: (typeof TABLE_NAMES)[number], id: string | null, at: string, index: number, field: string): boolean => {
    if (id === null || ids[table].has(id)) return true
    problems.push(`${at}[${index}].${field}: no ${table} record "${id}"`)
    return false
  }
  /** A version that exists must be one of `projectId`'s versions. */
  let projectOfVersion: { get(versionId: string): string | undefined }
  if (world !== undefined) {
    projectOfVersion = { get: (versionId) => world.versions.get(versionId)?.projectId }
  } else {
    const owners = new Map<string, string>()
    for (const version of doc.versions) owners.set(version.id, version.projectId)
    projectOfVersion = owners
  }
  /** A problem when a version that exists (its project is `owner`) is not one of `projectId`'s versions. */
  const ownVersion = (projectId: string, versionId: string | null, owner: string | undefined, at: string, index: number, field: string) => {
    if (versionId !== null && owner !== undefined && owner !== projectId) {
      problems.push(`${at}[${index}].${field}: version "${versionId}" belongs to project "${owner}", not "${projectId}"`)
    }
  }
  /** The project of a version, undefined when there is no such version (or no version: null). */
  const ownerOf = (versionId: string | null) => (versionId === null ? undefined : projectOfVersion.get(versionId))
  /** A reference to a version, by its owner as `ownerOf` found it (one lookup serves both checks). */
  const versionRef = (versionId: string | null, owner: string | undefined, at: string, index: number, field: string) => {
    if (versionId !== null && owner === undefined) problems.push(`${at}[${index}].${field}: no versions record "${versionId}"`)
  }
  const members = new Set(doc.memberships.map((m) => `${m.userId}|${m.teamId}`))
  for (const [i, t] of doc.teams.entries()) ref('users', t.personalOf, 'teams', i, 'personalOf')
  doc.memberships.forEach((m, i) => {
    ref('users', m.userId, 'memberships', i, 'userId')
    ref('teams', m.teamId, 'memberships', i, 'teamId')
  })
  doc.apiKeys.forEach((k, i) => {
    ref('users', k.userId, 'apiKeys', i, 'userId')
    ref('teams', k.teamId, 'apiKeys', i, 'teamId')
    if (!members.has(`${k.userId}|${k.teamId}`)) problems.push(`apiKeys[${i}]: user "${k.userId}" is not a member of team "${k.teamId}"`)
  })
  for (let i = 0; i < doc.subdomains.length; i++) ref('teams', doc.subdomains[i]!.teamId, 'subdomains', i, 'teamId')
  for (const [i, d] of doc.domains.entries()) ref('teams', d.teamId, 'domains', i, 'teamId')
  for (let i = 0; i < doc.projects.length; i++) {
    const p = doc.projects[i]!
    ref('teams', p.teamId, 'projects', i, 'teamId')
    ref('users', p.createdBy, 'projects', i, 'createdBy')
    const ownSubdomain = ref('subdomains', p.subdomainId, 'projects', i, 'subdomainId')
    const latestOwner = ownerOf(p.latestVersionId)
    const publishedOwner = ownerOf(p.publishedVersionId)
    versionRef(p.latestVersionId, latestOwner, 'projects', i, 'latestVersionId')
    versionRef(p.publishedVersionId, publishedOwner, 'projects', i, 'publishedVersionId')
    ownVersion(p.id, p.latestVersionId, latestOwner, 'projects', i, 'latestVersionId')
    ownVersion(p.id, p.publishedVersionId, publishedOwner, 'projects', i, 'publishedVersionId')
    if (p.placement.type === 'domain') ref('domains', p.placement.domainId, 'projects', i, 'placement.domainId')
    // Most projects are placed on their own subdomain, found just above.
    else if (!(ownSubdomain && p.placement.subdomainId === p.subdomainId))
      ref('subdomains', p.placement.subdomainId, 'projects', i, 'placement.subdomainId')
    for (let j = 0; j < p.collaborators.length; j++) ref('users', p.collaborators[j]!, 'projects', i, `collaborators[${j}]`)
  }
  for (let i = 0; i < doc.versions.length; i++) ref('projects', doc.versions[i]!.projectId, 'versions', i, 'projectId')
  for (const [i, s] of doc.slides.entries()) ref('projects', s.projectId, 'slides', i, 'projectId')
  for (const [i, t] of doc.templates.entries()) ref('teams', t.teamId, 'templates', i, 'teamId')
  doc.jobs.forEach((j, i) => {
    ref('teams', j.teamId, 'jobs', i, 'teamId')
    ref('users', j.userId, 'jobs', i, 'userId')
    ref('apiKeys', j.keyId, 'jobs', i, 'keyId')
    ref('projects', j.projectId, 'jobs', i, 'projectId')
    ref('templates', j.templateId, 'jobs', i, 'templateId')
  })
  doc.publications.forEach((p, i) => {
    ref('projects', p.projectId, 'publications', i, 'projectId')
    const owner = ownerOf(p.versionId)
    versionRef(p.versionId, owner, 'publications', i, 'versionId')
    ownVersion(p.projectId, p.versionId, owner, 'publications', i, 'versionId')
  })
  // A published project's site serves its publication (the snapshot taken when it was published), which
  // unpublishing removes: a project published without one would answer 404 at its publishedUrl.
  const publishedIds = new Set(doc.publications.map((p) => p.projectId))
  doc.projects.forEach((p, i) => {
    if (p.publishedAt !== null && !publishedIds.has(p.id))
      problems.push(`projects[${i}].publishedAt: published, but no publications record is of it`)
  })
  const unpublishedIds = new Set(doc.projects.filter((p) => p.publishedAt === null).map((p) => p.id))
  doc.publications.forEach((p, i) => {
    if (unpublishedIds.has(p.projectId)) problems.push(`publications[${i}].projectId: project "${p.projectId}" is not published`)
  })
  return problems
}
