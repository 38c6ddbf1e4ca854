/**
 * What the OpenAPI document and the API reference (docs/reference/api.md) say about each
 * operation beyond its schemas: a description (the spec's words, then the
 * emulator's choices, marked as such) and an example request.
 */
import type { OperationId } from '../../src/schemas/index.js'

export interface OperationDoc {
  tag: 'Projects' | 'Generation' | 'Publishing' | 'Teams' | 'Templates' | 'Slides'
  /** The spec's description. */
  description: string
  /** The emulator's choices for what the spec does not show, if any. */
  emulatorChoices?: string
  /** Example values: path parameters, query, body. */
  example: { params?: Record<string, string>; query?: Record<string, string>; body?: unknown }
  /** What a 404 means for this operation. */
  notFound?: string
}

const PROJECT_NOT_FOUND = 'Project not found (a project the key cannot access is reported exactly like a missing one)'

export const OPERATION_DOCS: Record<OperationId, OperationDoc> = {
  generateProject: {
    tag: 'Generation',
    description:
      'Starts an asynchronous generation job from a text prompt; poll `GET /projects/jobs/{jobId}` until the status is no longer `processing`. A `templateId` of the caller’s team preserves the template’s design. `estimatedDuration` is about 120 seconds with a template, 240 seconds from scratch.',
    emulatorChoices:
      'Model identifiers `fast` (default) and `quality`. One credit is charged at acceptance and refunded if the job fails. Checks run in the order body (400), template (404), credits (402), dispatch (502). A prompt starting with `emulator:fail` makes the job fail; one starting with `emulator:dispatch-error` answers 502. A completed job’s project has slides, a new version and is published.',
    example: { body: { prompt: 'Quarterly results for the board', templateId: 'tpl_acme_quarterly' } },
    notFound: 'Template not found or not accessible (a template of another team)',
  },
  getJobStatus: {
    tag: 'Generation',
    description:
      'Reads a generation job. `finalDuration` and `publishedUrl` may appear once it is `completed`; `error` appears when it has `failed`.',
    emulatorChoices:
      'A job completes at its creation time plus its nominal duration × the time scale (seeded jitter ±20%). A job is readable by any key that can reach its project.',
    example: { params: { jobId: 'job_1' } },
    notFound: 'Job not found',
  },
  createProject: {
    tag: 'Projects',
    description: 'Creates an empty project under the team the API key is scoped to. The body is optional; `name` defaults to `Untitled`.',
    emulatorChoices: 'A new project has the config `{}` and one version, `Initial version`.',
    example: { body: { name: 'Board update' } },
  },
  listProjects: {
    tag: 'Projects',
    description:
      'Lists the projects the caller can access: owned, shared with a team the caller belongs to, or shared as collaborator. Cursor pagination: pass `nextCursor` as `cursor`; when `nextCursor` is absent there are no more results.',
    emulatorChoices:
      'Order: `updatedAt` descending, then id. Cursors are opaque keyset cursors (no item skipped or repeated when projects are created between pages); a malformed cursor, an out-of-range `limit` or a `published` other than `true`/`false` is 400, never silently clamped.',
    example: { query: { published: 'true', limit: '20' } },
  },
  listTemplates: {
    tag: 'Templates',
    description: 'Lists the templates of the caller’s team. A template’s id is used as `templateId` when generating.',
    emulatorChoices: 'The key’s team only. Same ordering, limit and cursor rules as the project list.',
    example: { query: { limit: '50' } },
  },
  getProject: {
    tag: 'Projects',
    description:
      'Reads a project: the list fields plus `createdAt`, `publishedUrl` (null when unpublished) and `latestVersion` (null when no versions exist).',
    example: { params: { slug: 'welcome-deck' } },
    notFound: PROJECT_NOT_FOUND,
  },
  renameProject: {
    tag: 'Projects',
    description: 'Renames a project. The slug and the URLs are unchanged.',
    emulatorChoices: 'A rename moves `updatedAt` and makes no new version.',
    example: { params: { slug: 'welcome-deck' }, body: { name: 'Welcome, again' } },
    notFound: PROJECT_NOT_FOUND,
  },
  getProjectConfig: {
    tag: 'Projects',
    description:
      'Reads the project configuration (`project.config.json`): layout settings, a theme and the shared design system of tokens.',
    example: { params: { slug: 'welcome-deck' } },
    notFound: PROJECT_NOT_FOUND,
  },
  updateProjectConfig: {
    tag: 'Projects',
    description:
      'Merges a partial configuration into the stored one: only keys present change, other keys are preserved. Used to define the design system under `tokens` before styling slides. Answers the new project version id.',
    emulatorChoices:
      'Top-level keys present replace the stored ones; `theme` and `tokens` are replaced as a whole; token arrays default to empty. A key the spec does not list (at any level) is 400 and nothing is stored.',
    example: {
      params: { slug: 'welcome-deck' },
      body: {
        config: {
          layout: 'SLIDES',
          tokens: { palette: [{ name: '--brand-blue', value: '#1d4ed8' }], fonts: [{ name: '--font-heading', family: 'Inter' }] },
        },
      },
    },
    notFound: PROJECT_NOT_FOUND,
  },
  duplicateProject: {
    tag: 'Projects',
    description: 'Copies a project with all its slides under its own slug, unpublished, with a fresh URL.',
    emulatorChoices:
      'The copy is named `<name> (copy)`, belongs to the key’s team and gets its own new subdomain; config and slides are copied, collaborators are not.',
    example: { params: { slug: 'welcome-deck' } },
    notFound: PROJECT_NOT_FOUND,
  },
  publishProject: {
    tag: 'Publishing',
    description: 'Publishes the latest version: it becomes publicly reachable at the project’s live URL.',
    emulatorChoices:
      'The published site is a snapshot of the latest version; publishing again refreshes it. Neither direction moves `updatedAt` or makes a version; both are idempotent.',
    example: { params: { slug: 'welcome-deck' } },
    notFound: PROJECT_NOT_FOUND,
  },
  unpublishProject: {
    tag: 'Publishing',
    description: 'Unpublishes a project. The project and its slides are kept; it can be published again.',
    example: { params: { slug: 'welcome-deck' } },
    notFound: PROJECT_NOT_FOUND,
  },
  getProjectUrl: {
    tag: 'Publishing',
    description:
      'Reads where a project is (or would be) published: the current subdomain or domain and path, and the subdomains and domains available.',
    emulatorChoices:
      'Each project has its own subdomain `<slug>.sites.localhost` (path `/`); published URLs are served by the emulator under `{origin}/sites/{hostname}{path}`.',
    example: { params: { slug: 'welcome-deck' } },
    notFound: PROJECT_NOT_FOUND,
  },
  listTeams: {
    tag: 'Teams',
    description: 'Lists the teams the authenticated user belongs to; `isPersonal` marks the personal team.',
    emulatorChoices:
      'The spec does not show this operation’s error statuses; the emulator answers only 401 and 429. Personal team first, then by name.',
    example: {},
  },
  listSlides: {
    tag: 'Slides',
    description: 'Lists the slides of a project (`id`, `name`).',
    emulatorChoices:
      'Presentation order. The spec does not show the error statuses: the emulator answers 404 for a project the key cannot reach.',
    example: { params: { slug: 'welcome-deck' } },
    notFound: PROJECT_NOT_FOUND,
  },
  createSlide: {
    tag: 'Slides',
    description: 'The spec refers to an operation that creates slides without showing it. The emulator offers this one.',
    emulatorChoices:
      'Appends one slide (blank files unless given, validated as on update) and answers its id and the new version id. `name` (1 to 200 characters) defaults to `Slide N`.',
    example: { params: { slug: 'welcome-deck' }, body: { name: 'Agenda' } },
    notFound: 'Project not found',
  },
  getSlideGuide: {
    tag: 'Slides',
    description: 'The spec refers to a slide guide (token naming rules) without showing it. The emulator offers this one.',
    emulatorChoices: 'Token naming rules, the conventions and validation rules of the three slide files, and the project’s current tokens.',
    example: { params: { slug: 'welcome-deck' } },
    notFound: 'Project not found',
  },
  getSlideFiles: {
    tag: 'Slides',
    description:
      'The spec has no read of a slide’s files. The emulator offers this one: the three files, in the shape `PUT /projects/{slug}/slides/{slideId}` takes them, so a program can read them, change some and send the body back.',
    emulatorChoices:
      'Key-scoped like every read: 404 for a project the key cannot reach, a missing slide, or a slide of another project. The files are those stored (the latest saved text), answered as they are.',
    example: { params: { slug: 'welcome-deck', slideId: 'sld_1' } },
    notFound: 'Project or slide not found',
  },
  updateSlide: {
    tag: 'Slides',
    description:
      'Updates some of a slide’s source files (only the files to change are sent) and validates them before saving. Answers all three files and the new version id.',
    emulatorChoices:
      'The spec does not show the validation rules or error statuses. The emulator: `slide.tsx` must parse as TSX and have a default export; `slide.content.json` and `slide.controls.json` must be JSON with an object or array at the top level; all files are checked before any is saved; a rejection is 400 whose hint is `file:line:column: message`; 404 for a missing project or a slide of another project.',
    example: {
      params: { slug: 'welcome-deck', slideId: 'sld_1' },
      body: { files: { 'slide.content.json': '{"title":"Agenda","blocks":[{"type":"bullets","items":["Results","Plans"]}]}' } },
    },
    notFound: 'Project or slide not found',
  },
  startSlideEditing: {
    tag: 'Slides',
    description: 'Shows a loading indicator on the slide in the editor while it is being edited.',
    emulatorChoices:
      'Both `agentName` and `editPrompt` are optional strings; a second call replaces them. 404 for a missing project or slide.',
    example: { params: { slug: 'welcome-deck', slideId: 'sld_1' }, body: { agentName: 'Claude', editPrompt: 'Tighten the title' } },
    notFound: 'Project or slide not found',
  },
  stopSlideEditing: {
    tag: 'Slides',
    description: 'Clears the loading indicator.',
    emulatorChoices: 'Answers `{success: true}` also when the indicator was already off. 404 for a missing project or slide.',
    example: { params: { slug: 'welcome-deck', slideId: 'sld_1' } },
    notFound: 'Project or slide not found',
  },
}
