import type * as z from 'zod'
import { SuccessResponse } from './common.js'
import { GenerateProjectRequest, GenerateProjectResponse, JobStatusResponse } from './job.js'
import {
  CreateProjectRequest,
  CreateProjectResponse,
  DuplicateProjectResponse,
  GetProjectConfigResponse,
  ListProjectsQuery,
  ListProjectsResponse,
  ProjectDetail,
  ProjectUrlConfig,
  PublishProjectResponse,
  RenameProjectRequest,
  RenameProjectResponse,
  UnpublishProjectResponse,
  UpdateProjectConfigRequest,
  UpdateProjectConfigResponse,
} from './project.js'
import {
  CreateSlideRequest,
  CreateSlideResponse,
  ListSlidesResponse,
  SlideGuideResponse,
  StartSlideEditingRequest,
  UpdateSlideRequest,
  UpdateSlideResponse,
} from './slide.js'
import { ListTeamsResponse, ListTemplatesQuery, ListTemplatesResponse } from './team.js'

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/** One operation of the API: how it is called and what it answers. */
export interface OperationSpec {
  method: HttpMethod
  /** Path relative to the base URL (which ends in `/v1`), with `{param}` placeholders. */
  path: string
  summary: string
  /** Schema of the query string (values are strings). */
  query?: z.ZodType
  /** Schema of the JSON body. */
  body?: z.ZodType
  /** Whether a request without a body is a 400 (otherwise it is treated as `{}`). */
  bodyRequired?: boolean
  /** Schema of the 200 response body. */
  response: z.ZodType
  /**
   * Error statuses this operation documents besides 401, 429 and 500, which
   * every operation can answer.
   */
  errors: readonly number[]
  /** True for operations the spec refers to but does not show (emulator extensions). */
  extension?: boolean
}

/**
 * Every operation of the Presentation Service, keyed by operation id.
 *
 * This table is the one description of the API: the emulator routes with it,
 * validates requests and responses with it, and the conformance kit and the
 * OpenAPI document are derived from it.
 */
export const operations = {
  generateProject: {
    method: 'POST',
    path: '/projects/generate',
    summary: 'Start an asynchronous generation job from a prompt',
    body: GenerateProjectRequest,
    bodyRequired: true,
    response: GenerateProjectResponse,
    errors: [400, 402, 404, 502],
  },
  getJobStatus: {
    method: 'GET',
    path: '/projects/jobs/{jobId}',
    summary: 'Read the status of a generation job',
    response: JobStatusResponse,
    errors: [404],
  },
  createProject: {
    method: 'POST',
    path: '/projects',
    summary: 'Create an empty project under the key’s team',
    body: CreateProjectRequest,
    response: CreateProjectResponse,
    errors: [400],
  },
  listProjects: {
    method: 'GET',
    path: '/projects',
    summary: 'List the projects the caller can access',
    query: ListProjectsQuery,
    response: ListProjectsResponse,
    errors: [400],
  },
  listTemplates: {
    method: 'GET',
    path: '/projects/templates',
    summary: 'List the templates of the key’s team',
    query: ListTemplatesQuery,
    response: ListTemplatesResponse,
    errors: [400],
  },
  getProject: {
    method: 'GET',
    path: '/projects/{slug}',
    summary: 'Read a project',
    response: ProjectDetail,
    errors: [404],
  },
  renameProject: {
    method: 'PATCH',
    path: '/projects/{slug}',
    summary: 'Rename a project (slug and URLs unchanged)',
    body: RenameProjectRequest,
    bodyRequired: true,
    response: RenameProjectResponse,
    errors: [400, 404],
  },
  getProjectConfig: {
    method: 'GET',
    path: '/projects/{slug}/config',
    summary: 'Read a project’s configuration',
    response: GetProjectConfigResponse,
    errors: [404],
  },
  updateProjectConfig: {
    method: 'PUT',
    path: '/projects/{slug}/config',
    summary: 'Merge a partial configuration into a project’s configuration',
    body: UpdateProjectConfigRequest,
    bodyRequired: true,
    response: UpdateProjectConfigResponse,
    errors: [400, 404],
  },
  duplicateProject: {
    method: 'POST',
    path: '/projects/{slug}/duplicate',
    summary: 'Copy a project with its slides under a new slug and URL',
    response: DuplicateProjectResponse,
    errors: [404],
  },
  publishProject: {
    method: 'POST',
    path: '/projects/{slug}/publish',
    summary: 'Publish the latest version of a project',
    response: PublishProjectResponse,
    errors: [404],
  },
  unpublishProject: {
    method: 'DELETE',
    path: '/projects/{slug}/publish',
    summary: 'Unpublish a project',
    response: UnpublishProjectResponse,
    errors: [404],
  },
  getProjectUrl: {
    method: 'GET',
    path: '/projects/{slug}/url',
    summary: 'Read where a project is published',
    response: ProjectUrlConfig,
    errors: [404],
  },
  listTeams: {
    method: 'GET',
    path: '/teams',
    summary: 'List the teams of the key’s owner',
    response: ListTeamsResponse,
    errors: [],
  },
  listSlides: {
    method: 'GET',
    path: '/projects/{slug}/slides',
    summary: 'List the slides of a project in presentation order',
    response: ListSlidesResponse,
    errors: [404],
  },
  createSlide: {
    method: 'POST',
    path: '/projects/{slug}/slides',
    summary: 'Append a slide to a project',
    body: CreateSlideRequest,
    response: CreateSlideResponse,
    errors: [400, 404],
    extension: true,
  },
  getSlideGuide: {
    method: 'GET',
    path: '/projects/{slug}/slides/guide',
    summary: 'Read the token naming rules and slide file conventions',
    response: SlideGuideResponse,
    errors: [404],
    extension: true,
  },
  updateSlide: {
    method: 'PUT',
    path: '/projects/{slug}/slides/{slideId}',
    summary: 'Update some of a slide’s source files, validated before saving',
    body: UpdateSlideRequest,
    bodyRequired: true,
    response: UpdateSlideResponse,
    errors: [400, 404],
  },
  startSlideEditing: {
    method: 'POST',
    path: '/projects/{slug}/slides/{slideId}/editing',
    summary: 'Show the editing indicator on a slide',
    body: StartSlideEditingRequest,
    response: SuccessResponse,
    errors: [400, 404],
  },
  stopSlideEditing: {
    method: 'DELETE',
    path: '/projects/{slug}/slides/{slideId}/editing',
    summary: 'Clear the editing indicator of a slide',
    response: SuccessResponse,
    errors: [404],
  },
} as const satisfies Record<string, OperationSpec>

export type Operations = typeof operations
export type OperationId = keyof Operations

/** Every operation id, in the table's order. */
export const OPERATION_IDS = Object.keys(operations) as OperationId[]

type SchemaOutput<S> = S extends z.ZodType ? z.output<S> : undefined

/** The validated body an operation receives. */
export type OperationBody<Id extends OperationId> = Operations[Id] extends { body: infer B }
  ? SchemaOutput<B>
  : undefined
/** The validated query an operation receives. */
export type OperationQuery<Id extends OperationId> = Operations[Id] extends { query: infer Q }
  ? SchemaOutput<Q>
  : undefined
/** The 200 body an operation answers. */
export type OperationResult<Id extends OperationId> = z.output<Operations[Id]['response']>
