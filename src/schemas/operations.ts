import type * as z from 'zod'
import { routes, type OperationId, type PathParams, type RouteSpec } from './operation-routes.js'
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
  SlideFilesResponse,
  SlideGuideResponse,
  StartSlideEditingRequest,
  UpdateSlideRequest,
  UpdateSlideResponse,
} from './slide.js'
import { ListTeamsResponse, ListTemplatesQuery, ListTemplatesResponse } from './team.js'

export {
  routes,
  OPERATION_IDS,
  COMMON_ERROR_STATUSES,
  type HttpMethod,
  type OperationId,
  type PathParams,
  type RouteSpec,
} from './operation-routes.js'

/** One operation of the API: how it is called (its route) and its schemas. */
export interface OperationSpec extends RouteSpec {
  /** Schema of the query string (values are strings). */
  query?: z.ZodType
  /** Schema of the JSON body. */
  body?: z.ZodType
  /** Schema of the 200 response body. */
  response: z.ZodType
}

/**
 * Every operation of the Presentation Service, keyed by operation id: its
 * route (`operation-routes.ts`) and its schemas.
 *
 * This table is the one description of the API: the emulator routes with it,
 * validates requests and responses with it, and the conformance kit, the
 * typed client and the OpenAPI document are derived from it.
 */
export const operations = {
  generateProject: {
    ...routes.generateProject,
    body: GenerateProjectRequest,
    response: GenerateProjectResponse,
  },
  getJobStatus: {
    ...routes.getJobStatus,
    response: JobStatusResponse,
  },
  createProject: {
    ...routes.createProject,
    body: CreateProjectRequest,
    response: CreateProjectResponse,
  },
  listProjects: {
    ...routes.listProjects,
    query: ListProjectsQuery,
    response: ListProjectsResponse,
  },
  listTemplates: {
    ...routes.listTemplates,
    query: ListTemplatesQuery,
    response: ListTemplatesResponse,
  },
  getProject: {
    ...routes.getProject,
    response: ProjectDetail,
  },
  renameProject: {
    ...routes.renameProject,
    body: RenameProjectRequest,
    response: RenameProjectResponse,
  },
  getProjectConfig: {
    ...routes.getProjectConfig,
    response: GetProjectConfigResponse,
  },
  updateProjectConfig: {
    ...routes.updateProjectConfig,
    body: UpdateProjectConfigRequest,
    response: UpdateProjectConfigResponse,
  },
  duplicateProject: {
    ...routes.duplicateProject,
    response: DuplicateProjectResponse,
  },
  publishProject: {
    ...routes.publishProject,
    response: PublishProjectResponse,
  },
  unpublishProject: {
    ...routes.unpublishProject,
    response: UnpublishProjectResponse,
  },
  getProjectUrl: {
    ...routes.getProjectUrl,
    response: ProjectUrlConfig,
  },
  listTeams: {
    ...routes.listTeams,
    response: ListTeamsResponse,
  },
  listSlides: {
    ...routes.listSlides,
    response: ListSlidesResponse,
  },
  createSlide: {
    ...routes.createSlide,
    body: CreateSlideRequest,
    response: CreateSlideResponse,
  },
  getSlideGuide: {
    ...routes.getSlideGuide,
    response: SlideGuideResponse,
  },
  getSlideFiles: {
    ...routes.getSlideFiles,
    response: SlideFilesResponse,
  },
  updateSlide: {
    ...routes.updateSlide,
    body: UpdateSlideRequest,
    response: UpdateSlideResponse,
  },
  startSlideEditing: {
    ...routes.startSlideEditing,
    body: StartSlideEditingRequest,
    response: SuccessResponse,
  },
  stopSlideEditing: {
    ...routes.stopSlideEditing,
    response: SuccessResponse,
  },
} as const satisfies Record<OperationId, OperationSpec>

export type Operations = typeof operations

type SchemaOutput<S> = S extends z.ZodType ? z.output<S> : undefined
type SchemaInput<S> = S extends z.ZodType ? z.input<S> : undefined

/** The validated body an operation receives. */
export type OperationBody<Id extends OperationId> = Operations[Id] extends { body: infer B } ? SchemaOutput<B> : undefined
/** The body a client may send (server defaults optional). */
export type OperationBodyInput<Id extends OperationId> = Operations[Id] extends { body: infer B } ? SchemaInput<B> : undefined
/** The validated query an operation receives. */
export type OperationQuery<Id extends OperationId> = Operations[Id] extends { query: infer Q } ? SchemaOutput<Q> : undefined
/** The decoded path parameters an operation receives, named by its route's `{param}` placeholders. */
export type OperationParams<Id extends OperationId> = PathParams<Operations[Id]['path']>
/** The 200 body an operation answers. */
export type OperationResult<Id extends OperationId> = z.output<Operations[Id]['response']>
