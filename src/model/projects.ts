import { hashToken, slugify } from '../store/ids.js'
import type { ProjectConfig, SlideFiles } from '../schemas/index.js'
import type { ProjectRecord, SlideRecord, SubdomainRecord, VersionRecord } from '../store/records.js'
import type { World } from '../store/world.js'

/**
 * The config of a project made by `POST /projects`: empty (no theme, no
 * tokens; docs/emulator-choices.md, "a new project's config"). The CLI's
 * `check` styles slides on disk with it unless given `--config`.
 */
export function newProjectConfig(): ProjectConfig {
  return {}
}

/** A slug for a new project: its name's words and a short token, unique in the world. */
export function uniqueSlug(world: World, name: string, id: string): string {
  const base = slugify(name)
  for (let attempt = 0; ; attempt++) {
    const slug = `${base}-${hashToken(`${id}:${attempt}`, 6)}`
    if (world.projectBySlug(slug) === undefined) return slug
  }
}

/** A subdomain label not yet taken: `label`, else `label-2`, `label-3`, … */
export function uniqueSubdomainLabel(world: World, label: string): string {
  if (world.subdomainByLabel(label) === undefined) return label
  for (let n = 2; ; n++) {
    const candidate = `${label}-${n}`
    if (world.subdomainByLabel(candidate) === undefined) return candidate
  }
}

/** Creates the project's own (non-custom) subdomain, named after its slug. */
export function createOwnSubdomain(world: World, teamId: string, slug: string): SubdomainRecord {
  return world.subdomains.insert({
    id: world.ids('sub'),
    teamId,
    subdomain: uniqueSubdomainLabel(world, slug),
    isCustom: false,
  })
}

export interface NewProject {
  teamId: string
  createdBy: string
  name: string
  config: ProjectConfig
  /** Creation time (ISO). */
  at: string
  /** Last update time (ISO), when it is not the creation time (fixtures). */
  updatedAt?: string
  /** Name of the first version. */
  versionName: string
  /** Fixed slug (fixtures); generated from the name otherwise. */
  slug?: string
  /** Fixed id (fixtures). */
  id?: string
  /** Publish under this custom domain (by id) instead of the project's own subdomain. */
  domainId?: string
  collaborators?: string[]
}

/**
 * Creates a project with its own subdomain and a first version; it starts
 * unpublished and without slides.
 */
export function createProject(world: World, input: NewProject): { project: ProjectRecord; version: VersionRecord } {
  const id = input.id ?? world.ids('prj')
  const slug = input.slug ?? uniqueSlug(world, input.name, id)
  const subdomain = createOwnSubdomain(world, input.teamId, slug)
  const version = world.versions.insert({
    id: world.ids('ver'),
    projectId: id,
    number: 1,
    name: input.versionName,
    createdAt: input.at,
  })
  const project = world.projects.insert({
    id,
    slug,
    name: input.name,
    teamId: input.teamId,
    createdBy: input.createdBy,
    createdAt: input.at,
    updatedAt: input.updatedAt ?? input.at,
    config: input.config,
    subdomainId: subdomain.id,
    placement:
      input.domainId === undefined
        ? { type: 'subdomain', subdomainId: subdomain.id, linkId: world.ids('psd'), path: '/' }
        : { type: 'domain', domainId: input.domainId, linkId: world.ids('pdm'), path: `/${slug}` },
    latestVersionId: version.id,
    publishedAt: null,
    publishedVersionId: null,
    collaborators: input.collaborators ?? [],
  })
  return { project, version }
}

/**
 * Records a new version of a project: the version becomes `latestVersion`,
 * `updatedAt` moves to `at`, and `mutate` (if any) changes the project in
 * the same write.
 */
export function addVersion(
  world: World,
  projectId: string,
  name: string,
  at: string,
  mutate?: (draft: ProjectRecord) => void,
): { project: ProjectRecord; version: VersionRecord } {
  const current = world.projects.get(projectId)!
  const previous = current.latestVersionId === null ? undefined : world.versions.get(current.latestVersionId)
  const version = world.versions.insert({
    id: world.ids('ver'),
    projectId,
    number: (previous?.number ?? 0) + 1,
    name,
    createdAt: at,
  })
  const project = world.projects.update(projectId, (draft) => {
    mutate?.(draft)
    draft.latestVersionId = version.id
    draft.updatedAt = at
  })
  return { project, version }
}

/** Appends slides to a project after its existing ones, in order. */
export function appendSlides(
  world: World,
  projectId: string,
  slides: ReadonlyArray<{ name: string; files: SlideFiles }>,
  at: string,
): SlideRecord[] {
  if (slides.length === 0) return []
  const existing = world.slidesOf(projectId)
  let position = existing.length === 0 ? 0 : existing[existing.length - 1]!.position + 1
  const created: SlideRecord[] = []
  for (const slide of slides) {
    created.push(
      world.slides.insert({
        id: world.ids('sld'),
        projectId,
        position: position++,
        name: slide.name,
        files: { ...slide.files },
        editing: null,
        createdAt: at,
        updatedAt: at,
      }),
    )
  }
  return created
}
