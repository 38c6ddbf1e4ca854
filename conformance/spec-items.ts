/**
 * The spec's checkable items, taken from its structure (`service-api.md`):
 * every field of every resource table and operation response, every status
 * of every endpoint, each numbered authentication rule, each limits row,
 * each transition row, each row of the error table, and the rules the
 * endpoints state. Each item says how the kit checks it, or why it cannot be
 * checked from outside (or both: checked against the emulator, not against
 * a deployment). `presentation-conformance coverage` prints the list; a test
 * fails for an item with neither, and holds every check named here to one
 * the kit really makes.
 */
import { type OperationId, routes } from '../src/client/index.js'
import { Clauses, endpoint } from './clauses.js'
import { SPEC_OPERATIONS } from './scenarios/support.js'

/** How an item is checked. */
export type Check =
  /** A scenario, and (optionally) a check it records whose message matches. */
  | { scenario: string; check?: RegExp }
  /** A row of the table of facts, judged on every exchange of the kit's spec scenarios and of the walks. */
  | { fact: string }
  /** The response schema of an operation requires the field (`projects[].slug`: in each item): the response.shape fact. */
  | { shape: OperationId; field: string }
  /** The coverage of an operation × status: a scenario's request is answered with it. */
  | { status: readonly [OperationId, number] }

export interface SpecItem {
  /** Stable: reports and baselines may name it. */
  id: string
  /** The spec's heading the item is under. */
  section: string
  text: string
  checks: Check[]
  /** Why it cannot be checked from outside a deployment (all of it, or the part the checks leave out). */
  unverifiable?: string
}

const item = (id: string, section: string, text: string, checks: Check[], unverifiable?: string): SpecItem => ({
  id,
  section,
  text,
  checks,
  ...(unverifiable === undefined ? {} : { unverifiable }),
})
const scenario = (id: string, check?: RegExp): Check => (check === undefined ? { scenario: id } : { scenario: id, check })
const fact = (id: string): Check => ({ fact: id })
const shape = (operation: OperationId, field: string): Check => ({ shape: operation, field })

const section = (name: string) => `Resources and their fields › ${name}`

// ------------------------------------------------------------------ resource tables

/** Each field of a resource table, and where an answer carries it. */
function fields(
  resource: string,
  idPrefix: string,
  rows: Array<[field: string, text: string, where: Check[], unverifiable?: string]>,
): SpecItem[] {
  return rows.map(([field, text, where, unverifiable]) =>
    item(`resource.${idPrefix}.${field}`, section(resource), `${field}: ${text}`, where, unverifiable),
  )
}

const resources: SpecItem[] = [
  ...fields('Project (list item)', 'project', [
    ['id', 'string, required', [shape('listProjects', 'projects[].id'), shape('getProject', 'id')]],
    [
      'slug',
      'string, required; identifies the project in paths',
      [shape('listProjects', 'projects[].slug'), fact('detail.slug'), fact('project.reachable')],
    ],
    ['name', 'string, required', [shape('listProjects', 'projects[].name'), fact('project.name')]],
    [
      'publishedAt',
      'date-time or null, required; null when unpublished',
      [shape('listProjects', 'projects[].publishedAt'), fact('project.published')],
    ],
    ['updatedAt', 'date-time, required', [shape('listProjects', 'projects[].updatedAt')]],
    ['editorUrl', 'uri, required', [shape('listProjects', 'projects[].editorUrl'), fact('project.editor-url')]],
  ]),
  ...fields('Project (detail)', 'detail', [
    ['createdAt', 'date-time, required', [shape('getProject', 'createdAt')]],
    [
      'publishedUrl',
      'uri or null, required; null when not published or without a subdomain',
      [shape('getProject', 'publishedUrl'), fact('detail.unpublished-no-url'), fact('project.published-url')],
    ],
    ['latestVersion', 'object or null, required; null when no versions exist', [shape('getProject', 'latestVersion')]],
    ['latestVersion.id', 'string, required', [shape('getProject', 'latestVersion.id'), fact('version.latest')]],
    ['latestVersion.name', 'string, required', [shape('getProject', 'latestVersion.name')]],
    ['latestVersion.createdAt', 'date-time, required', [shape('getProject', 'latestVersion.createdAt')]],
  ]),
  ...fields('Generation job', 'job', [
    ['jobId', 'string, required', [shape('generateProject', 'jobId'), shape('getJobStatus', 'jobId'), fact('job.asked')]],
    ['status', 'processing, completed or failed, required', [shape('getJobStatus', 'status'), fact('generate.processing')]],
    ['editorUrl', 'uri or null, required', [shape('generateProject', 'editorUrl'), shape('getJobStatus', 'editorUrl')]],
    ['projectId', 'string or null, required', [shape('generateProject', 'projectId'), shape('getJobStatus', 'projectId')]],
    [
      'projectSlug',
      'string or null, required',
      [shape('generateProject', 'projectSlug'), shape('getJobStatus', 'projectSlug'), fact('job.same-project')],
    ],
    ['teamId', 'string or null, required on the job status response', [shape('getJobStatus', 'teamId')]],
    ['estimatedDuration', 'a duration text, required on the creation response', [shape('generateProject', 'estimatedDuration')]],
    [
      'templateId',
      'optional on the creation response; the template given',
      [scenario('generation.template', /the answer’s templateId is the one given/)],
    ],
    [
      'finalDuration',
      'text, only when completed',
      [scenario('generation.lifecycle')],
      'when it appears is not judged (“may appear”); its type is, when present',
    ],
    [
      'publishedUrl',
      'uri, only when completed (and the project has a subdomain)',
      [scenario('generation.lifecycle')],
      'when it appears is not judged (“may appear”); its type is, when present',
    ],
    ['error', 'string, only when failed', [fact('job.failed-error')]],
    ['createdAt', 'date-time, required on the job status response', [shape('getJobStatus', 'createdAt')]],
  ]),
  ...fields('Template', 'template', [
    ['id', 'string, required; used as templateId', [shape('listTemplates', 'templates[].id'), scenario('generation.template')]],
    ['name', 'string, required', [shape('listTemplates', 'templates[].name')]],
    ['screenshotUrl', 'string or null, required', [shape('listTemplates', 'templates[].screenshotUrl')]],
    ['updatedAt', 'date-time, required', [shape('listTemplates', 'templates[].updatedAt')]],
  ]),
  item('resource.template.scope', section('Template'), 'only the caller’s team templates exist for this service', [
    scenario('generation.template-scope'),
    fact('generate.foreign-template'),
  ]),
  ...fields('Team', 'team', [
    ['id', 'string', [shape('listTeams', 'teams[].id'), scenario('teams.list', /team ids are unique/)]],
    ['slug', 'string', [shape('listTeams', 'teams[].slug')]],
    ['name', 'string', [shape('listTeams', 'teams[].name')]],
    ['isPersonal', 'boolean', [shape('listTeams', 'teams[].isPersonal')]],
  ]),
  ...fields('Slide', 'slide', [
    ['id', 'string (list item)', [shape('listSlides', 'slides[].id'), scenario('projects.detail', /slide ids are unique/)]],
    ['name', 'string (list item)', [shape('listSlides', 'slides[].name')]],
    ['files.slide.tsx', 'a string holding the file text', [shape('updateSlide', 'files.slide\\.tsx')]],
    ['files.slide.content.json', 'a string holding the file text', [shape('updateSlide', 'files.slide\\.content\\.json')]],
    ['files.slide.controls.json', 'a string holding the file text', [shape('updateSlide', 'files.slide\\.controls\\.json')]],
  ]),
  item('resource.slide.order', section('Slide'), 'slide fields beyond id and name, and the ordering of slides', [], 'not shown'),
  ...fields('Project configuration (ProjectConfig)', 'config', [
    [
      'layout',
      'REGULAR, CARD, SLIDES, SLIDESHOW, STACKED',
      [scenario('config.bounds', /^a layout outside the enum is refused/), scenario('config.bounds', /^every enum at once is accepted/)],
    ],
    [
      'slidesDisplay',
      'CARDS, FULLSCREEN',
      [
        scenario('config.bounds', /^a slidesDisplay outside the enum is refused/),
        scenario('config.bounds', /^every enum at once is accepted/),
      ],
    ],
    ['stackedOrientation', 'VERTICAL, HORIZONTAL', [scenario('config.bounds', /^a stackedOrientation outside the enum is refused/)]],
    [
      'cardsSlidesPerView',
      'number, 0.5 to 2',
      [
        scenario('config.bounds', /^cardsSlidesPerView below 0.5 is refused/),
        scenario('config.bounds', /^cardsSlidesPerView 2 is accepted/),
      ],
    ],
    ['cardsBackgroundColor', 'string', [scenario('config.bounds', /^cardsBackgroundColor not a string is refused/)]],
    ['cardsBackgroundImage', 'string', [scenario('config.bounds', /^cardsBackgroundImage not a string is refused/)]],
    ['cardsCorners', 'ROUND, SQUARE', [scenario('config.bounds', /^a cardsCorners outside the enum is refused/)]],
    [
      'showBrandLogo',
      'boolean',
      [scenario('config.bounds', /^showBrandLogo not a boolean is refused/), scenario('config.merge', /showBrandLogo is stored/)],
    ],
    ['width', 'FULL, MEDIUM, COMPACT', [scenario('config.bounds', /^a width outside the enum is refused/)]],
    ['mobileCanvas', 'LEGACY, COMPACT', [scenario('config.bounds', /^a mobileCanvas outside the enum is refused/)]],
    [
      'theme',
      'fontFamily, radius and colors required; headingFontFamily optional',
      [
        scenario('config.bounds', /^a theme without radius is refused/),
        scenario('config.bounds', /^a theme without fontFamily is refused/),
        scenario('config.bounds', /^a full theme with a dark set is accepted/),
      ],
    ],
    [
      'theme.colors',
      'default required, dark optional; each with the sixteen required keys',
      [
        scenario('config.bounds', /^a theme without colors.default is refused/),
        scenario('config.bounds', /^a theme whose colors lack primary is refused/),
        scenario('config.bounds', /^a theme whose dark colors lack input is refused/),
      ],
    ],
    [
      'tokens.palette',
      '{name: ^--[a-z][a-z0-9-]*$, value: #rgb, #rrggbb or #rrggbbaa}, both required; an array',
      [
        scenario('config.bounds', /^a palette name without -- is refused/),
        scenario('config.bounds', /^a palette value of 5 hex digits is refused/),
        scenario('config.bounds', /^a palette token without a value is refused/),
        scenario('config.bounds', /^tokens.palette not an array is refused/),
        scenario(
          'config.bounds',
          /^palette values of 3, 6 and 8 hex digits are accepted|^palette values of 3, 6 and 8 hex digits is accepted/,
        ),
      ],
    ],
    [
      'tokens.fonts',
      '{name: ^--font-[a-z][a-z0-9-]*$, family: minLength 1, url?: uri}',
      [
        scenario('config.bounds', /^a font name without --font- is refused/),
        scenario('config.bounds', /^an empty font family is refused/),
        scenario('config.bounds', /^a font url that is not a URI is refused/),
        scenario('config.bounds', /^a font token with a url is accepted/),
      ],
    ],
  ]),
  item(
    'resource.config.optional',
    section('Project configuration (ProjectConfig)'),
    'all keys are optional; tokens’ arrays default to empty',
    [fact('config.merge')],
    'what a new project’s configuration holds is learned from the target, not judged',
  ),
  ...fields('Project URL configuration', 'url', [
    ['current.type', 'subdomain or domain, required', [shape('getProjectUrl', 'current.type')]],
    ['current.hostname', 'string, required', [shape('getProjectUrl', 'current.hostname'), fact('project.url')]],
    ['current.path', 'string, required', [shape('getProjectUrl', 'current.path'), fact('project.url')]],
    [
      'availableSubdomains',
      'array of {id, subdomain, isCustom}, required',
      [shape('getProjectUrl', 'availableSubdomains'), shape('getProjectUrl', 'availableSubdomains[].isCustom')],
    ],
    [
      'availableDomains',
      'array of {id, hostname}, required',
      [shape('getProjectUrl', 'availableDomains'), shape('getProjectUrl', 'availableDomains[].hostname')],
    ],
  ]),
  ...fields('Error body', 'error', [
    ['error', 'string, required', [fact('error.body')]],
    ['hint', 'string, optional', [fact('error.body')]],
  ]),
]

// ------------------------------------------------------------------ operation responses (their own fields)

const responses: SpecItem[] = (
  [
    ['createProject', ['projectId', 'projectSlug', 'projectVersionId', 'editorUrl']],
    ['renameProject', ['success', 'name']],
    ['getProjectConfig', ['config']],
    ['updateProjectConfig', ['versionId', 'config']],
    ['duplicateProject', ['projectId', 'projectSlug', 'name', 'editorUrl']],
    ['publishProject', ['success', 'published', 'publishedUrl']],
    ['unpublishProject', ['success', 'published']],
    ['listProjects', ['projects']],
    ['listTemplates', ['templates']],
    ['listTeams', ['teams']],
    ['listSlides', ['slides']],
    ['updateSlide', ['slideId', 'versionId', 'files']],
    ['startSlideEditing', ['success']],
    ['stopSlideEditing', ['success']],
  ] as const
).flatMap(([operationId, names]) =>
  names.map((field) =>
    item(`response.${operationId}.${field}`, endpoint(operationId), `the 200 answer has ${field}`, [shape(operationId, field)]),
  ),
)

// ------------------------------------------------------------------ every status of every endpoint

/** The statuses the spec documents for each operation (the extension operations are the emulator’s). */
function statuses(): SpecItem[] {
  const out: SpecItem[] = []
  for (const operationId of SPEC_OPERATIONS) {
    const route = routes[operationId] as (typeof routes)[typeof operationId] & { errorsNotShown?: boolean }
    // Where the spec says the error statuses are not shown, the route's are the emulator's choice.
    const documented = route.errorsNotShown === true ? [] : route.errors
    for (const status of [200, ...documented, 401, 429, 500]) {
      const id = `status.${operationId}.${status}`
      const text = `${route.method} ${route.path} answers ${status}`
      if (status === 500)
        out.push(
          item(
            id,
            endpoint(operationId),
            text,
            [scenario('emulator.faults-every-operation')],
            'a server error cannot be provoked from outside; the emulator’s are checked through its control plane’s faults',
          ),
        )
      else if (status === 502)
        out.push(
          item(
            id,
            endpoint(operationId),
            text,
            [scenario('emulator.error-codes', /a dispatch-error prompt/)],
            'a failed dispatch cannot be provoked from outside; the emulator’s magic prompt is checked',
          ),
        )
      else if (status === 429)
        out.push(
          item(
            id,
            endpoint(operationId),
            text,
            [{ status: [operationId, 429] }, scenario('rate-limit.every-operation')],
            'against a deployment, only the operations of the rate-limit burst (GET /teams, GET /projects) meet a 429; every operation does with a control plane',
          ),
        )
      else out.push(item(id, endpoint(operationId), text, [{ status: [operationId, status] }]))
    }
  }
  return out
}

// ------------------------------------------------------------------ authentication, limits, transitions, errors

const AUTH = Clauses.authentication
const authentication: SpecItem[] = [
  item('auth.1', AUTH, '1. every request carries Authorization: Bearer <API_KEY>', [scenario('auth.missing-key'), fact('auth.no-key')]),
  item('auth.2', AUTH, '2. an API key begins with a fixed service prefix followed by an underscore', [
    scenario('auth.prefix'),
    fact('auth.prefix'),
  ]),
  item(
    'auth.3',
    AUTH,
    '3. a key is scoped to one team, which owns the projects made with it; it reads or edits only projects its team or its owner has access to',
    [
      scenario('isolation.other-team'),
      scenario('access.collaborator'),
      scenario('access.team'),
      fact('isolation.not-found'),
      fact('isolation.unlisted'),
    ],
    'the personal team as the default scope is chosen when a key is made, in the dashboard',
  ),
  item(
    'auth.4',
    AUTH,
    '4. keys are made in the dashboard by a signed-in user; the value is shown once',
    [],
    'the dashboard is outside the API',
  ),
  item('auth.5', AUTH, '5. a command-line login flow makes a key named CLI', [], 'the command-line flow is outside the API'),
  item(
    'auth.6',
    AUTH,
    '6. revoking a key takes effect immediately and permanently',
    [scenario('auth.revoked-key'), fact('auth.revoked')],
    'revoking happens in the dashboard: the kit is given a revoked key (or makes one through a control plane)',
  ),
  item('auth.7', AUTH, '7. a missing or invalid key yields 401', [
    scenario('auth.missing-key'),
    scenario('auth.malformed-key'),
    fact('auth.no-key'),
  ]),
  item('auth.8', AUTH, '8. GET /teams returns the account’s teams, isPersonal marking the personal one', [
    scenario('teams.list'),
    scenario('access.team'),
  ]),
]

const LIMITS = Clauses.limits
const limits: SpecItem[] = [
  item('limits.rate', LIMITS, 'request rate: 50 per minute per user, shared by all endpoints; exceeding gives 429', [
    scenario('rate-limit.429'),
    scenario('rate-limit.per-user'),
    scenario('rate-limit.every-operation'),
  ]),
  item('limits.reference-images', LIMITS, 'referenceImageUrls: at most 20 items (generate)', [
    scenario('generation.validation'),
    scenario('generation.lifecycle'),
  ]),
  item('limits.create-name', LIMITS, 'project name on create: 1 to 200 characters', [
    scenario('projects.create-bounds', /a 200-character name is kept whole/),
  ]),
  item('limits.rename-name', LIMITS, 'project name on rename: 1 to 191 characters', [
    scenario('projects.rename-bounds', /a 191-character name is kept whole/),
  ]),
  item('limits.projects-limit', LIMITS, 'limit query of GET /projects: 1 to 100, default 20', [
    scenario('pagination.projects', /without limit, a page holds at most 20 projects/),
    fact('list.within-limit'),
  ]),
  item('limits.templates-limit', LIMITS, 'limit query of GET /projects/templates: 1 to 100, default 50', [
    scenario('templates.list', /the default page holds at most 50 templates/),
    fact('list.within-limit'),
  ]),
  item('limits.cards-slides-per-view', LIMITS, 'cardsSlidesPerView: 0.5 to 2', [
    scenario('config.bounds', /^cardsSlidesPerView above 2 is refused/),
    scenario('config.bounds', /^cardsSlidesPerView 0.5 is accepted/),
  ]),
  item('limits.prompt', LIMITS, 'prompt: at least 1 character (generate)', [scenario('generation.validation')]),
  item(
    'limits.pagination',
    Clauses.pagination,
    'cursor pagination: nextCursor passed back as cursor; absent when there are no more results',
    [scenario('pagination.projects'), scenario('pagination.templates'), fact('list.no-repeats'), fact('list.membership')],
  ),
]

const JOB = Clauses.jobStatus
const PUBLICATION = Clauses.publication
const EDITING = Clauses.editing
const transitions: SpecItem[] = [
  item('transition.job.accepted', JOB, '(none) → processing: POST /projects/generate accepted; job id and editorUrl returned', [
    scenario('generation.lifecycle'),
    fact('generate.processing'),
  ]),
  item(
    'transition.job.finished',
    JOB,
    'processing → completed or failed when generation finishes (failed: error appears)',
    [scenario('generation.lifecycle'), fact('job.terminal'), fact('job.failed-error')],
    'the conditions and timing are not shown',
  ),
  item('transition.job.polling', JOB, 'clients poll the job status until it is no longer processing', [
    scenario('generation.lifecycle', /the job leaves processing within|a job ends completed or failed/),
  ]),
  item(
    'transition.publication.publish',
    PUBLICATION,
    'unpublished → published: POST /projects/{slug}/publish on a project that exists',
    [scenario('publishing.state-machine'), fact('project.published')],
    'that the latest version becomes reachable at its live URL: the kit opens publishedUrl, a MUST against the emulator (its contract serves the site); against a deployment its site may sit where the kit cannot reach it, so it is only noted',
  ),
  item(
    'transition.publication.unpublish',
    PUBLICATION,
    'published → unpublished: DELETE /projects/{slug}/publish; project and slides kept; can be published again',
    [
      scenario('publishing.state-machine', /unpublishing keeps the slides/),
      scenario('publishing.state-machine', /the published site is (404|no longer served) once unpublished/),
      scenario('publishing.list-filter'),
    ],
  ),
  item('transition.publication.duplicate', PUBLICATION, 'a duplicated project starts unpublished with a fresh URL', [
    scenario('projects.duplicate', /a duplicate starts unpublished/),
    fact('duplicate.fresh-url'),
  ]),
  item(
    'transition.editing.on',
    EDITING,
    'off → on: POST …/slides/{slideId}/editing',
    [scenario('slides.editing', /turning the indicator on answers success: true/)],
    'the indicator in the editor is outside the API',
  ),
  item(
    'transition.editing.off',
    EDITING,
    'on → off: DELETE …/slides/{slideId}/editing',
    [scenario('slides.editing', /turning the indicator off answers success: true/)],
    'the indicator in the editor is outside the API',
  ),
]

const ERRORS = Clauses.errors
const errors: SpecItem[] = [
  item('errors.400', ERRORS, '400: invalid request body or parameters', [
    scenario('config.bounds'),
    scenario('projects.create-bounds'),
    scenario('generation.validation'),
  ]),
  item('errors.401', ERRORS, '401: missing or invalid API key', [scenario('auth.missing-key'), scenario('auth.malformed-key')]),
  item('errors.402', ERRORS, '402: insufficient credits to start a generation (generate only)', [scenario('credits.insufficient')]),
  item('errors.404', ERRORS, '404: resource not found (project, job, or inaccessible template)', [
    scenario('projects.not-found'),
    scenario('generation.validation'),
    scenario('generation.template-scope'),
  ]),
  item('errors.429', ERRORS, '429: rate limit exceeded', [scenario('rate-limit.429')]),
  item(
    'errors.500',
    ERRORS,
    '500: internal server error',
    [scenario('emulator.faults-every-operation')],
    'a server error cannot be provoked from outside',
  ),
  item(
    'errors.502',
    ERRORS,
    '502: generation could not be dispatched (generate only)',
    [scenario('emulator.error-codes', /a dispatch-error prompt/)],
    'a failed dispatch cannot be provoked from outside',
  ),
  item('errors.code', ERRORS, 'error responses carry X-Service-Error-Code', [fact('error.code')], 'its values are not shown'),
  item('errors.rate-headers', ERRORS, 'a 429 carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset', [
    fact('rate-limit.headers'),
    scenario('rate-limit.429'),
  ]),
  item('errors.json', Clauses.json, 'all request and response bodies are JSON (Content-Type: application/json)', [fact('json.body')]),
]

const versioning: SpecItem[] = [
  item(
    'versioning.v1',
    Clauses.versioning,
    'the API is version 1: v1 is part of the base URL',
    [],
    'the base URL is the one the user gives',
  ),
  item(
    'versioning.versions',
    Clauses.versioning,
    'create returns projectVersionId, config and slide writes return versionId, detail returns latestVersion',
    [
      scenario('projects.create', /latestVersion is the projectVersionId create answered/),
      scenario('versions.config'),
      scenario('slides.update', /each slide update answers a new versionId/),
      fact('version.latest'),
      fact('version.new'),
    ],
  ),
  item(
    'versioning.publish-latest',
    Clauses.versioning,
    'publishing publishes the latest version',
    [],
    'which version the live site shows is outside the API',
  ),
]

// ------------------------------------------------------------------ what each endpoint states

const rules: SpecItem[] = [
  item('rule.generate.template', endpoint('generateProject'), 'templateId: one of the caller’s team templates (else 404)', [
    scenario('generation.template'),
    scenario('generation.template-scope'),
    fact('generate.foreign-template'),
  ]),
  item(
    'rule.generate.model',
    endpoint('generateProject'),
    'model: one of two identifiers (the fast one by default)',
    [scenario('generation.validation')],
    'the identifiers are not given: only a made-up one is judged',
  ),
  item(
    'rule.generate.duration',
    endpoint('generateProject'),
    'estimatedDuration: about 120 seconds with a template, 240 from scratch',
    [scenario('emulator.generation', /estimatedDuration/)],
    'a duration text: its wording is not judged against a deployment',
  ),
  item('rule.job.not-found', endpoint('getJobStatus'), 'a job that does not exist is 404', [scenario('projects.not-found')]),
  item('rule.create.default-name', endpoint('createProject'), 'the name defaults to Untitled', [
    scenario('projects.create', /named Untitled/),
    fact('project.name'),
  ]),
  item(
    'rule.create.team',
    endpoint('createProject'),
    'an empty project under the key’s team',
    [scenario('projects.create'), fact('list.membership')],
    'what an empty project holds (its configuration, its slides) is learned',
  ),
  item(
    'rule.list.access',
    endpoint('listProjects'),
    'lists projects the caller can access: owned, shared with a team the caller belongs to, or as collaborator',
    [scenario('access.collaborator'), scenario('access.team'), fact('list.membership'), fact('isolation.unlisted')],
  ),
  item('rule.list.published', endpoint('listProjects'), 'published=true only published, false only unpublished', [
    scenario('pagination.published'),
    scenario('publishing.list-filter'),
    fact('list.filter'),
  ]),
  item('rule.rename.keeps', endpoint('renameProject'), 'slug and URLs are unchanged by a rename', [
    scenario('projects.rename', /keeps the slug/),
    fact('project.reachable'),
    fact('project.editor-url'),
    fact('project.url'),
  ]),
  item(
    'rule.config.merge',
    endpoint('updateProjectConfig'),
    'a partial config merged: only keys present change, others are preserved',
    [scenario('config.merge'), fact('config.merge'), fact('config.answer-has-patch')],
    'how deep the merge goes below the top level is not shown',
  ),
  item(
    'rule.duplicate.copy',
    endpoint('duplicateProject'),
    'a full copy including all slides, with its own slug and a fresh unpublished URL',
    [
      scenario('projects.duplicate', /the copy has the same slides/),
      scenario('projects.duplicate', /the copy has the same configuration/),
      fact('duplicate.own-slug'),
      fact('duplicate.same-slides'),
    ],
  ),
  item('rule.publish.answer', endpoint('publishProject'), 'publish answers success, published and publishedUrl (uri or null)', [
    fact('publish.answer'),
    scenario('publishing.state-machine'),
  ]),
  item('rule.unpublish.answer', endpoint('unpublishProject'), 'unpublish answers success and published', [fact('unpublish.answer')]),
  item('rule.url.not-found', endpoint('getProjectUrl'), 'a project that does not exist is 404', [scenario('projects.not-found')]),
  item('rule.teams.errors', endpoint('listTeams'), 'GET /teams: error statuses not shown', [], 'not shown'),
  item(
    'rule.slides.list',
    endpoint('listSlides'),
    'lists all slides of a project',
    [scenario('projects.detail'), fact('slides.kept')],
    'its error statuses are not shown (a 404 is a SHOULD)',
  ),
  item('rule.slide.partial', endpoint('updateSlide'), 'only the files to change are included; the others are kept', [
    scenario('slides.update', /a file left out of the update/),
    fact('slide.kept-files'),
    fact('slide.sent-saved'),
  ]),
  item(
    'rule.slide.validation',
    endpoint('updateSlide'),
    'files are validated before saving',
    [scenario('slides.update')],
    'the rules and the error statuses are not shown (SHOULDs)',
  ),
  item(
    'rule.editing.body',
    endpoint('startSlideEditing'),
    'agentName and editPrompt (which are required: not shown)',
    [scenario('slides.editing')],
    'which are required is not shown',
  ),
  item(
    'rule.slides.extension',
    'Endpoints › Slides',
    'create-slides and the slide guide are referred to',
    [scenario('emulator.slides')],
    'their paths and payloads are not shown',
  ),
]

/** Every checkable item of the spec, in the spec's order. */
export const SPEC_ITEMS: readonly SpecItem[] = [
  ...resources,
  ...responses,
  ...statuses(),
  ...rules,
  ...authentication,
  ...errors,
  ...limits,
  ...transitions,
  ...versioning,
]
