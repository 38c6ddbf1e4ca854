import * as z from 'zod'
import { DateTime, Uri, pageQuery } from './common.js'
import { ProjectConfig, ProjectConfigResponse } from './config.js'

/** Bounds of project names, from the spec's Limits table. */
export const PROJECT_NAME_MAX_ON_CREATE = 200
export const PROJECT_NAME_MAX_ON_RENAME = 191
export const DEFAULT_PROJECT_NAME = 'Untitled'

/** A project as the list returns it. */
export const ProjectListItem = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  publishedAt: DateTime.nullable(),
  updatedAt: DateTime,
  editorUrl: Uri,
})
export type ProjectListItem = z.infer<typeof ProjectListItem>

/** The version record embedded in a project's detail. */
export const VersionSummary = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: DateTime,
})
export type VersionSummary = z.infer<typeof VersionSummary>

/** A project as `GET /projects/{slug}` returns it. */
export const ProjectDetail = ProjectListItem.extend({
  createdAt: DateTime,
  publishedUrl: Uri.nullable(),
  latestVersion: VersionSummary.nullable(),
})
export type ProjectDetail = z.infer<typeof ProjectDetail>

/** Body of `POST /projects` (the body itself is optional). */
export const CreateProjectRequest = z.strictObject({
  name: z.string().min(1).max(PROJECT_NAME_MAX_ON_CREATE).optional(),
})
export type CreateProjectRequest = z.infer<typeof CreateProjectRequest>

export const CreateProjectResponse = z.object({
  projectId: z.string(),
  projectSlug: z.string(),
  projectVersionId: z.string(),
  editorUrl: Uri,
})
export type CreateProjectResponse = z.infer<typeof CreateProjectResponse>

/** Query of `GET /projects`. */
export const ListProjectsQuery = z.object({
  published: z.enum(['true', 'false']).optional(),
  ...pageQuery(20),
})
export type ListProjectsQuery = z.infer<typeof ListProjectsQuery>

export const ListProjectsResponse = z.object({
  projects: z.array(ProjectListItem),
  nextCursor: z.string().optional(),
})
export type ListProjectsResponse = z.infer<typeof ListProjectsResponse>

/** Body of `PATCH /projects/{slug}`. */
export const RenameProjectRequest = z.strictObject({
  name: z.string().min(1).max(PROJECT_NAME_MAX_ON_RENAME),
})
export type RenameProjectRequest = z.infer<typeof RenameProjectRequest>

export const RenameProjectResponse = z.object({
  success: z.boolean(),
  name: z.string(),
})
export type RenameProjectResponse = z.infer<typeof RenameProjectResponse>

export const GetProjectConfigResponse = z.object({ config: ProjectConfigResponse })
export type GetProjectConfigResponse = z.infer<typeof GetProjectConfigResponse>

/** Body of `PUT /projects/{slug}/config`: a partial config merged into the stored one. */
export const UpdateProjectConfigRequest = z.strictObject({ config: ProjectConfig })
export type UpdateProjectConfigRequest = z.infer<typeof UpdateProjectConfigRequest>

export const UpdateProjectConfigResponse = z.object({
  versionId: z.string(),
  config: ProjectConfigResponse,
})
export type UpdateProjectConfigResponse = z.infer<typeof UpdateProjectConfigResponse>

export const DuplicateProjectResponse = z.object({
  projectId: z.string(),
  projectSlug: z.string(),
  name: z.string(),
  editorUrl: Uri,
})
export type DuplicateProjectResponse = z.infer<typeof DuplicateProjectResponse>

export const PublishProjectResponse = z.object({
  success: z.boolean(),
  published: z.boolean(),
  publishedUrl: Uri.nullable(),
})
export type PublishProjectResponse = z.infer<typeof PublishProjectResponse>

export const UnpublishProjectResponse = z.object({
  success: z.boolean(),
  published: z.boolean(),
})
export type UnpublishProjectResponse = z.infer<typeof UnpublishProjectResponse>

/** `GET /projects/{slug}/url`: where the project is (or would be) published. */
export const ProjectUrlConfig = z.object({
  current: z.object({
    type: z.enum(['subdomain', 'domain']),
    hostname: z.string(),
    path: z.string(),
    subdomainId: z.string().optional(),
    domainId: z.string().optional(),
    projectSubdomainId: z.string().optional(),
    projectDomainId: z.string().optional(),
  }),
  availableSubdomains: z.array(z.object({ id: z.string(), subdomain: z.string(), isCustom: z.boolean() })),
  availableDomains: z.array(z.object({ id: z.string(), hostname: z.string() })),
})
export type ProjectUrlConfig = z.infer<typeof ProjectUrlConfig>
