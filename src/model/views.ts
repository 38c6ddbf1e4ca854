import type { ProjectDetail, ProjectListItem, ProjectUrlConfig, Team, Template } from '../schemas/index.js'
import type { ProjectRecord, TeamRecord, TemplateRecord } from '../store/records.js'
import type { World } from '../store/world.js'
import { siteAddress, type Urls } from './urls.js'

/** The API representations of records: each built field by field, so no internal field leaks. */

export function projectListItem(project: ProjectRecord, urls: Urls): ProjectListItem {
  return {
    id: project.id,
    slug: project.slug,
    name: project.name,
    publishedAt: project.publishedAt,
    updatedAt: project.updatedAt,
    editorUrl: urls.editor(project.slug),
  }
}

export function projectDetail(world: World, project: ProjectRecord, urls: Urls): ProjectDetail {
  const version = project.latestVersionId === null ? undefined : world.versions.get(project.latestVersionId)
  return {
    ...projectListItem(project, urls),
    createdAt: project.createdAt,
    publishedUrl: urls.published(world, project),
    latestVersion: version === undefined ? null : { id: version.id, name: version.name, createdAt: version.createdAt },
  }
}

export function teamView(team: TeamRecord): Team {
  return { id: team.id, slug: team.slug, name: team.name, isPersonal: team.personalOf !== null }
}

export function templateView(template: TemplateRecord): Template {
  return {
    id: template.id,
    name: template.name,
    screenshotUrl: template.screenshotUrl,
    updatedAt: template.updatedAt,
  }
}

/**
 * Where the project is published (`current`) and where it could be: its own
 * subdomain, the team's custom subdomains, and the team's custom domains.
 */
export function projectUrlConfig(world: World, project: ProjectRecord): ProjectUrlConfig {
  const { placement } = project
  const { hostname, path } = siteAddress(world, project)
  const current: ProjectUrlConfig['current'] =
    placement.type === 'subdomain'
      ? { type: 'subdomain', hostname, path, subdomainId: placement.subdomainId, projectSubdomainId: placement.linkId }
      : { type: 'domain', hostname, path, domainId: placement.domainId, projectDomainId: placement.linkId }
  const own = world.subdomains.get(project.subdomainId)!
  const custom = world
    .subdomainsOfTeam(project.teamId)
    .filter((subdomain) => subdomain.isCustom)
    .sort((a, b) => a.subdomain.localeCompare(b.subdomain))
  return {
    current,
    availableSubdomains: [own, ...custom].map((s) => ({ id: s.id, subdomain: s.subdomain, isCustom: s.isCustom })),
    availableDomains: world
      .domainsOfTeam(project.teamId)
      .sort((a, b) => a.hostname.localeCompare(b.hostname))
      .map((d) => ({ id: d.id, hostname: d.hostname })),
  }
}
