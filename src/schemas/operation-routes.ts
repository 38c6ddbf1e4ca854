/**
 * Every operation of the Presentation Service: method, path, summary and
 * documented error statuses, keyed by operation id. This table has no
 * runtime dependency (no zod), so the typed client can use it; the schemas
 * of each operation are added in `operations.ts`.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/** How an operation is called. */
export interface RouteSpec {
  method: HttpMethod
  /** Path relative to the base URL (which ends in `/v1`), with `{param}` placeholders. */
  path: string
  summary: string
  /** Whether a request without a body is a 400 (otherwise it is treated as `{}`). */
  bodyRequired?: boolean
  /**
   * Error statuses this operation documents besides 401, 429 and 500, which
   * every operation can answer.
   */
  errors: readonly number[]
  /** True for operations the spec refers to but does not show (emulator extensions). */
  extension?: boolean
  /**
   * True when the spec says this operation's error statuses are "not shown":
   * `errors` is then the emulator's choice, which a deployment need not share.
   */
  errorsNotShown?: boolean
}

export const routes = {
  generateProject: {
    method: 'POST',
    path: '/projects/generate',
    summary: 'Start an asynchronous generation job from a prompt',
    bodyRequired: true,
    errors: [400, 402, 404, 502],
  },
  getJobStatus: {
    method: 'GET',
    path: '/projects/jobs/{jobId}',
    summary: 'Read the status of a generation job',
    errors: [404],
  },
  createProject: {
    method: 'POST',
    path: '/projects',
    summary: 'Create an empty project under the key’s team',
    errors: [400],
  },
  listProjects: {
    method: 'GET',
    path: '/projects',
    summary: 'List the projects the caller can access',
    errors: [400],
  },
  listTemplates: {
    method: 'GET',
    path: '/projects/templates',
    summary: 'List the templates of the key’s team',
    errors: [400],
  },
  getProject: {
    method: 'GET',
    path: '/projects/{slug}',
    summary: 'Read a project',
    errors: [404],
  },
  renameProject: {
    method: 'PATCH',
    path: '/projects/{slug}',
    summary: 'Rename a project (slug and URLs unchanged)',
    bodyRequired: true,
    errors: [400, 404],
  },
  getProjectConfig: {
    method: 'GET',
    path: '/projects/{slug}/config',
    summary: 'Read a project’s configuration',
    errors: [404],
  },
  updateProjectConfig: {
    method: 'PUT',
    path: '/projects/{slug}/config',
    summary: 'Merge a partial configuration into a project’s configuration',
    bodyRequired: true,
    errors: [400, 404],
  },
  duplicateProject: {
    method: 'POST',
    path: '/projects/{slug}/duplicate',
    summary: 'Copy a project with its slides under a new slug and URL',
    errors: [404],
  },
  publishProject: {
    method: 'POST',
    path: '/projects/{slug}/publish',
    summary: 'Publish the latest version of a project',
    errors: [404],
  },
  unpublishProject: {
    method: 'DELETE',
    path: '/projects/{slug}/publish',
    summary: 'Unpublish a project',
    errors: [404],
  },
  getProjectUrl: {
    method: 'GET',
    path: '/projects/{slug}/url',
    summary: 'Read where a project is published',
    errors: [404],
  },
  listTeams: {
    method: 'GET',
    path: '/teams',
    summary: 'List the teams of the key’s owner',
    errors: [],
    errorsNotShown: true,
  },
  listSlides: {
    method: 'GET',
    path: '/projects/{slug}/slides',
    summary: 'List the slides of a project in presentation order',
    errors: [404],
    errorsNotShown: true,
  },
  createSlide: {
    method: 'POST',
    path: '/projects/{slug}/slides',
    summary: 'Append a slide to a project',
    errors: [400, 404],
    extension: true,
    errorsNotShown: true,
  },
  getSlideGuide: {
    method: 'GET',
    path: '/projects/{slug}/slides/guide',
    summary: 'Read the token naming rules and slide file conventions',
    errors: [404],
    extension: true,
    errorsNotShown: true,
  },
  getSlideFiles: {
    method: 'GET',
    path: '/projects/{slug}/slides/{slideId}/files',
    summary: 'Read a slide’s three source files, in the shape `PUT` takes them',
    errors: [404],
    extension: true,
    errorsNotShown: true,
  },
  updateSlide: {
    method: 'PUT',
    path: '/projects/{slug}/slides/{slideId}',
    summary: 'Update some of a slide’s source files, validated before saving',
    bodyRequired: true,
    errors: [400, 404],
    errorsNotShown: true,
  },
  startSlideEditing: {
    method: 'POST',
    path: '/projects/{slug}/slides/{slideId}/editing',
    summary: 'Show the editing indicator on a slide',
    errors: [400, 404],
    errorsNotShown: true,
  },
  stopSlideEditing: {
    method: 'DELETE',
    path: '/projects/{slug}/slides/{slideId}/editing',
    summary: 'Clear the editing indicator of a slide',
    errors: [404],
    errorsNotShown: true,
  },
} as const satisfies Record<string, RouteSpec>

export type Routes = typeof routes

/** The names of the `{param}` placeholders of a route path: `'slug' | 'slideId'` for `/projects/{slug}/slides/{slideId}`. */
type ParamNames<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}` ? Name | ParamNames<Rest> : never

/** The path parameters of a route, typed from its path string (`{}` for a path without any). */
export type PathParams<Path extends string> = { readonly [Name in ParamNames<Path>]: string }
/** The id of an operation, as the contract names it (`listProjects`, `generateProject`, …). */
export type OperationId = keyof Routes

/** Every operation id, in the table's order. */
export const OPERATION_IDS = Object.keys(routes) as OperationId[]

/** Statuses every operation can answer besides its own: missing or invalid key, rate limit, internal error. */
export const COMMON_ERROR_STATUSES = [401, 429, 500] as const
