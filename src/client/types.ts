/**
 * The client's types, derived from the zod schemas (type-only imports: the
 * client has no runtime dependency). Inputs are the schemas' input types,
 * so anything the server defaults is optional; outputs are the responses.
 */
import type { z } from 'zod'
import type { Operations, OperationBodyInput, OperationResult } from '../schemas/operations.js'
import type { OperationId, Routes } from '../schemas/operation-routes.js'

export type { OperationId } from '../schemas/operation-routes.js'

/** Names of the `{param}` placeholders of a path, in order. */
type ParamNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | ParamNames<Rest> : never

/** The path parameters of an operation, by name. */
export type PathParams<Id extends OperationId> = { [K in ParamNames<Routes[Id]['path']>]: string }

type QueryValue<K, V> = [V] extends ['true' | 'false'] ? boolean | V : K extends 'limit' ? number | V : V

/** The query of an operation as a client gives it: `limit` as a number, `published` as a boolean. */
export type QueryInput<Id extends OperationId> = Operations[Id] extends { query: infer Q extends z.ZodType }
  ? { [K in keyof z.input<Q>]?: QueryValue<K, Exclude<z.input<Q>[K], undefined>> }
  : undefined

/** The JSON body an operation takes (server defaults optional). */
export type BodyInput<Id extends OperationId> = OperationBodyInput<Id>

/** The 200 body an operation answers. */
export type Output<Id extends OperationId> = OperationResult<Id>

/** Everything a call of one operation takes, as plain data. */
export type OperationInput<Id extends OperationId> = (ParamNames<Routes[Id]['path']> extends never
  ? { params?: undefined }
  : { params: PathParams<Id> }) &
  (QueryInput<Id> extends undefined ? { query?: undefined } : { query?: QueryInput<Id> }) &
  (BodyInput<Id> extends undefined ? { body?: undefined } : { body?: BodyInput<Id> })

// Named types of every request input and response, for applications.
export type GenerateProjectInput = BodyInput<'generateProject'>
export type GenerateProjectResult = Output<'generateProject'>
export type JobStatus = Output<'getJobStatus'>
export type CreateProjectInput = BodyInput<'createProject'>
export type CreateProjectResult = Output<'createProject'>
export type ListProjectsQuery = QueryInput<'listProjects'>
export type ListProjectsResult = Output<'listProjects'>
export type ProjectListItem = ListProjectsResult['projects'][number]
export type ListTemplatesQuery = QueryInput<'listTemplates'>
export type ListTemplatesResult = Output<'listTemplates'>
export type Template = ListTemplatesResult['templates'][number]
export type ProjectDetail = Output<'getProject'>
export type RenameProjectInput = BodyInput<'renameProject'>
export type RenameProjectResult = Output<'renameProject'>
export type ProjectConfigResult = Output<'getProjectConfig'>
export type ProjectConfig = ProjectConfigResult['config']
export type UpdateProjectConfigInput = BodyInput<'updateProjectConfig'>
/** A partial configuration as a client sends it (token arrays optional). */
export type ProjectConfigInput = UpdateProjectConfigInput['config']
export type UpdateProjectConfigResult = Output<'updateProjectConfig'>
export type DuplicateProjectResult = Output<'duplicateProject'>
export type PublishProjectResult = Output<'publishProject'>
export type UnpublishProjectResult = Output<'unpublishProject'>
export type ProjectUrlConfig = Output<'getProjectUrl'>
export type ListTeamsResult = Output<'listTeams'>
export type Team = ListTeamsResult['teams'][number]
export type ListSlidesResult = Output<'listSlides'>
export type SlideListItem = ListSlidesResult['slides'][number]
export type CreateSlideInput = BodyInput<'createSlide'>
export type CreateSlideResult = Output<'createSlide'>
export type SlideGuide = Output<'getSlideGuide'>
export type SlideFilesResult = Output<'getSlideFiles'>
export type UpdateSlideInput = BodyInput<'updateSlide'>
export type UpdateSlideResult = Output<'updateSlide'>
export type SlideFiles = UpdateSlideResult['files']
export type StartSlideEditingInput = BodyInput<'startSlideEditing'>
export type SuccessResult = Output<'startSlideEditing'>
