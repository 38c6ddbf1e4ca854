/**
 * The table of facts: the single source of what the kit, its walks and a
 * passive observer (a validating proxy, a HAR replay) hold a server to.
 *
 * Each row is one of three kinds:
 * - `spec`: the published spec requires it; the row names the heading. Its
 *   `evaluate` reads one exchange and what the observer learned from the
 *   ones before (the model), and says whether it held. Some hold a value
 *   the server chose (`learns` says which and from which answer).
 * - `learned`: a choice the spec leaves to the server; the observer takes
 *   it from the server's first answer that shows it and holds the server to
 *   it afterwards (through the spec rows named), never to another server's.
 * - `never`: the kit never judges it, and says why.
 *
 * Row ids are stable: baselines and reports store them.
 */
import { routes, type OperationId } from '../../src/client/index.js'
import { operations } from '../../src/schemas/index.js'
import { Clauses, endpoint } from '../clauses.js'
import type { Level } from '../types.js'
import { contains, same, sameFileText } from './compare.js'
import {
  asJson,
  expectedConfig,
  type Model,
  PROJECT_SLUG_OPERATIONS,
  type ProjectModel,
  projectOf,
  publishedFilter,
  type Settings,
  SLIDE_FILES,
  walkOf,
} from './model.js'
import type { Observed } from './observed.js'

/** A fact that did not hold: what was expected and what the server answered, and of what. */
export interface Miss {
  expected: unknown
  actual: unknown
  /** What the fact was about (a project, a key of the config, a slide). */
  subject?: string
}

export type Outcome = true | Miss

interface Base {
  id: string
  /** The fact, as a report states it. */
  statement: string
}

export interface SpecFact extends Base {
  basis: 'spec'
  level: Level
  /** The spec's heading that requires it (`service-api.md`). */
  clause: string
  /** For a fact held against a value the server chose: what is learned, from which answer. */
  learns?: string
  /** The heading for one exchange, when it depends on the operation (the default is `clause`). */
  clauseOf?: (ex: Observed) => string
  /** Judges one exchange, given what the exchanges before it taught (undefined: it does not apply). */
  evaluate(ex: Observed, model: Model, settings: Settings): Outcome | Outcome[] | undefined
}

export interface LearnedFact extends Base {
  basis: 'learned'
  /** Learned from which answer, and which spec facts then hold the server to it. */
  how: string
}

export interface NeverFact extends Base {
  basis: 'never'
  /** Why the kit never judges it. */
  reason: string
}

export type Fact = SpecFact | LearnedFact | NeverFact

const json = (ex: Observed) => asJson(ex.json)
const body = (ex: Observed) => asJson(ex.body)
const ok = (ex: Observed) => ex.status === 200
const miss = (expected: unknown, actual: unknown, subject?: string): Miss => ({
  expected,
  actual,
  ...(subject === undefined ? {} : { subject }),
})
const check = (holds: boolean, expected: unknown, actual: unknown, subject?: string): Outcome =>
  holds ? true : miss(expected, actual, subject)
/** Statuses that say nothing of the request itself (the rate limit, a server error). */
const incidental = (status: number) => status === 429 || status >= 500
const isExtension = (id: OperationId) => (routes[id] as { extension?: boolean }).extension === true
const judged = (ex: Observed, settings: Settings): ex is Observed & { operationId: OperationId } =>
  ex.operationId !== undefined && (settings.extensions || !isExtension(ex.operationId))

/** The operations that name a project by its slug and answer 404 only when it is not there for the key. */
const PROJECT_OPERATIONS = new Set<OperationId>([...PROJECT_SLUG_OPERATIONS, 'listSlides'])

function spec(row: Omit<SpecFact, 'basis' | 'level'> & { level?: Level }): SpecFact {
  return { basis: 'spec', level: 'MUST', ...row }
}

const name = (p: ProjectModel) => `project ${p.slug}`

// ------------------------------------------------------------------ spec: one exchange

const exchangeFacts: SpecFact[] = [
  spec({
    id: 'json.body',
    statement: 'a response with a body is JSON, with Content-Type: application/json',
    clause: Clauses.json,
    evaluate: (ex, _, settings) =>
      !judged(ex, settings) || ex.text === ''
        ? undefined
        : check(
            /^application\/json\b/i.test(ex.headers['content-type'] ?? '') && ex.json !== undefined,
            'application/json and a JSON body',
            `${ex.headers['content-type'] ?? '(no Content-Type)'}: ${ex.text.slice(0, 80)}`,
          ),
  }),
  spec({
    id: 'status.success-is-200',
    statement: 'a success is answered 200 (every operation’s response is documented as 200)',
    clause: Clauses.errors,
    evaluate: (ex, _, settings) =>
      judged(ex, settings) && ex.status >= 200 && ex.status < 300 ? check(ex.status === 200, 200, ex.status) : undefined,
  }),
  spec({
    id: 'response.shape',
    statement: 'a 200 body has the fields the spec requires, of the right types',
    clause: 'Endpoints › (the operation’s heading)',
    clauseOf: (ex) => (ex.operationId === undefined ? Clauses.errors : endpoint(ex.operationId)),
    evaluate: (ex, _, settings) => {
      if (!judged(ex, settings) || !ok(ex) || ex.json === undefined) return undefined
      const result = operations[ex.operationId].response.safeParse(ex.json)
      if (result.success) return true
      const problems = result.error.issues
        .slice(0, 5)
        .map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`)
        .join('; ')
      return miss(`the body of ${endpoint(ex.operationId)}`, problems)
    },
  }),
  spec({
    id: 'error.body',
    statement: 'an error response has the error body: {error: string, hint?: string}',
    clause: Clauses.errorBody,
    evaluate: (ex, _, settings) => {
      if (!judged(ex, settings) || ex.status < 400) return undefined
      const b = ex.json as Record<string, unknown> | undefined
      const holds =
        typeof b === 'object' &&
        b !== null &&
        !Array.isArray(b) &&
        typeof b.error === 'string' &&
        (b.hint === undefined || typeof b.hint === 'string')
      return check(holds, '{error: string, hint?: string}', ex.text.slice(0, 200))
    },
  }),
  spec({
    id: 'error.code',
    statement: 'an error response carries X-Service-Error-Code',
    clause: Clauses.errors,
    evaluate: (ex, _, settings) =>
      !judged(ex, settings) || ex.status < 400
        ? undefined
        : check((ex.headers['x-service-error-code'] ?? '').trim() !== '', 'a code', ex.headers['x-service-error-code'] ?? '(absent)'),
  }),
  spec({
    id: 'rate-limit.headers',
    statement: 'a 429 carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset',
    clause: Clauses.errors,
    evaluate: (ex) => {
      if (ex.status !== 429) return undefined
      const absent = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'].filter((h) => ex.headers[h] === undefined)
      return check(absent.length === 0, 'the three headers', `absent: ${absent.join(', ')}`)
    },
  }),
  spec({
    id: 'auth.no-key',
    statement: 'a request without a bearer key is refused with 401 (Authentication, rules 1 and 7)',
    clause: Clauses.authentication,
    evaluate: (ex, _, settings) =>
      judged(ex, settings) && ex.key === null && !incidental(ex.status) ? check(ex.status === 401, 401, ex.status) : undefined,
  }),
  spec({
    id: 'auth.prefix',
    statement: 'a key that does not begin with the service prefix is refused with 401 (Authentication, rules 2 and 7)',
    clause: Clauses.authentication,
    learns: 'the service prefix, from the key given (up to its first underscore)',
    evaluate: (ex, _, settings) =>
      judged(ex, settings) &&
      ex.key !== null &&
      settings.prefix !== undefined &&
      !ex.key.startsWith(settings.prefix) &&
      !incidental(ex.status)
        ? check(ex.status === 401, 401, ex.status, `a key not beginning with ${settings.prefix}`)
        : undefined,
  }),
  spec({
    id: 'auth.revoked',
    statement: 'a revoked key is refused with 401 (Authentication, rule 6)',
    clause: Clauses.authentication,
    evaluate: (ex, _, settings) =>
      judged(ex, settings) && ex.key !== null && settings.revoked.has(ex.key) && !incidental(ex.status)
        ? check(ex.status === 401, 401, ex.status)
        : undefined,
  }),
  spec({
    id: 'generate.processing',
    statement: 'a new generation job starts in status processing',
    clause: endpoint('generateProject'),
    evaluate: (ex) =>
      ex.operationId === 'generateProject' && ok(ex) ? check(json(ex).status === 'processing', 'processing', json(ex).status) : undefined,
  }),
  spec({
    id: 'job.asked',
    statement: 'the job status answer is the job asked for',
    clause: Clauses.generationJob,
    evaluate: (ex) =>
      ex.operationId === 'getJobStatus' && ok(ex) ? check(json(ex).jobId === ex.params.jobId, ex.params.jobId, json(ex).jobId) : undefined,
  }),
  spec({
    id: 'job.failed-error',
    statement: 'a failed job has error',
    clause: Clauses.jobStatus,
    evaluate: (ex) =>
      ex.operationId === 'getJobStatus' && ok(ex) && json(ex).status === 'failed'
        ? check(typeof json(ex).error === 'string', 'error: a string', json(ex).error ?? '(absent)')
        : undefined,
  }),
  spec({
    id: 'rename.answer',
    statement: 'a rename answers success: true and the new name',
    clause: endpoint('renameProject'),
    evaluate: (ex) =>
      ex.operationId === 'renameProject' && ok(ex)
        ? check(json(ex).success === true && json(ex).name === body(ex).name, { success: true, name: body(ex).name }, json(ex))
        : undefined,
  }),
  spec({
    id: 'publish.answer',
    statement: 'publishing answers success: true and published: true',
    clause: endpoint('publishProject'),
    evaluate: (ex) =>
      ex.operationId === 'publishProject' && ok(ex)
        ? check(json(ex).success === true && json(ex).published === true, { success: true, published: true }, json(ex))
        : undefined,
  }),
  spec({
    id: 'unpublish.answer',
    statement: 'unpublishing answers success: true and published: false',
    clause: endpoint('unpublishProject'),
    evaluate: (ex) =>
      ex.operationId === 'unpublishProject' && ok(ex)
        ? check(json(ex).success === true && json(ex).published === false, { success: true, published: false }, json(ex))
        : undefined,
  }),
  spec({
    id: 'editing.answer',
    statement: 'turning the editing indicator on or off answers success: true',
    clause: Clauses.editing,
    evaluate: (ex) =>
      (ex.operationId === 'startSlideEditing' || ex.operationId === 'stopSlideEditing') && ok(ex)
        ? check(json(ex).success === true, true, json(ex).success)
        : undefined,
  }),
  spec({
    id: 'slide.answer-id',
    statement: 'a slide update answers the id of the slide updated',
    clause: endpoint('updateSlide'),
    evaluate: (ex) =>
      ex.operationId === 'updateSlide' && ok(ex)
        ? check(json(ex).slideId === ex.params.slideId, ex.params.slideId, json(ex).slideId)
        : undefined,
  }),
  spec({
    id: 'slide.sent-saved',
    statement: 'a slide update saves each file sent: the answer shows its text (a JSON file may come back reformatted)',
    clause: endpoint('updateSlide'),
    evaluate: (ex) => {
      if (ex.operationId !== 'updateSlide' || !ok(ex)) return undefined
      const sent = asJson(body(ex).files)
      const answered = asJson(json(ex).files)
      return Object.entries(sent)
        .filter(([, text]) => typeof text === 'string')
        .map(([file, text]) =>
          check(typeof answered[file] === 'string' && sameFileText(answered[file], text as string), text, answered[file], file),
        )
    },
  }),
  spec({
    id: 'config.answer-has-patch',
    statement: 'a config write answers a config holding the values it wrote (written objects contained)',
    clause: endpoint('updateProjectConfig'),
    evaluate: (ex) => {
      if (ex.operationId !== 'updateProjectConfig' || !ok(ex)) return undefined
      const answered = asJson(json(ex).config)
      return Object.entries(asJson(body(ex).config)).map(([key, value]) => check(contains(answered[key], value), value, answered[key], key))
    },
  }),
  spec({
    id: 'list.within-limit',
    statement: 'a page holds at most `limit` items (default 20 projects, 50 templates; never more than 100)',
    clause: Clauses.limits,
    evaluate: (ex) => {
      if ((ex.operationId !== 'listProjects' && ex.operationId !== 'listTemplates') || !ok(ex)) return undefined
      const items = json(ex)[ex.operationId === 'listProjects' ? 'projects' : 'templates']
      if (!Array.isArray(items)) return undefined
      const asked = Number(ex.query.limit)
      const limit =
        ex.query.limit === undefined
          ? ex.operationId === 'listProjects'
            ? 20
            : 50
          : Number.isInteger(asked) && asked >= 1 && asked <= 100
            ? asked
            : 100
      return check(items.length <= limit, `≤ ${limit}`, items.length)
    },
  }),
  spec({
    id: 'list.filter',
    statement: 'published=true lists only published projects, published=false only unpublished ones',
    clause: endpoint('listProjects'),
    evaluate: (ex) => {
      const filter = publishedFilter(ex)
      if (ex.operationId !== 'listProjects' || !ok(ex) || filter === undefined || !Array.isArray(json(ex).projects)) return undefined
      const wrong = (json(ex).projects as unknown[]).map(asJson).filter((p) => (p.publishedAt !== null) !== filter)
      return check(
        wrong.length === 0,
        filter ? 'publishedAt set on every item' : 'publishedAt null on every item',
        wrong.map((p) => `${p.slug}: publishedAt ${p.publishedAt}`),
      )
    },
  }),
  spec({
    id: 'detail.slug',
    statement: 'detail is the project asked for: its slug is the path’s',
    clause: Clauses.projectDetail,
    evaluate: (ex) =>
      ex.operationId === 'getProject' && ok(ex) ? check(json(ex).slug === ex.params.slug, ex.params.slug, json(ex).slug) : undefined,
  }),
  spec({
    id: 'detail.unpublished-no-url',
    statement: 'an unpublished project’s publishedUrl is null',
    clause: Clauses.projectDetail,
    evaluate: (ex) =>
      ex.operationId === 'getProject' && ok(ex) && json(ex).publishedAt === null
        ? check(json(ex).publishedUrl === null, null, json(ex).publishedUrl)
        : undefined,
  }),
  spec({
    id: 'duplicate.own-slug',
    statement: 'a duplicate has its own slug: neither its source’s nor any other project’s the observer knows',
    clause: endpoint('duplicateProject'),
    evaluate: (ex, model) => {
      if (ex.operationId !== 'duplicateProject' || !ok(ex)) return undefined
      const slug = json(ex).projectSlug
      return check(slug !== ex.params.slug && !model.projects.has(slug), 'a new slug', slug)
    },
  }),
]

// ------------------------------------------------------------------ spec: relations between exchanges

/** The items of a list page that are projects the observer knows. */
function knownItems(ex: Observed, model: Model): Array<{ item: Record<string, unknown>; project: ProjectModel }> {
  if (ex.operationId !== 'listProjects' || !ok(ex) || !Array.isArray(json(ex).projects)) return []
  return (json(ex).projects as unknown[]).map(asJson).flatMap((item) => {
    const project = model.projects.get(String(item.slug))
    return project === undefined ? [] : [{ item, project }]
  })
}

/** The project a request names, when the key that sent it made the project. */
function ownProject(ex: Observed, model: Model): ProjectModel | undefined {
  const project = projectOf(model, ex)
  return project !== undefined && ex.key !== null && project.owner === ex.key ? project : undefined
}

const sequenceFacts: SpecFact[] = [
  spec({
    id: 'project.reachable',
    statement: 'a project stays at its slug for the key that made it (no operation removes one; a rename keeps the slug)',
    clause: Clauses.projectListItem,
    evaluate: (ex, model) => {
      const project = ownProject(ex, model)
      if (project === undefined || ex.operationId === undefined || !PROJECT_OPERATIONS.has(ex.operationId) || incidental(ex.status))
        return undefined
      return ex.status === 404 ? miss('the project at its slug', 404, name(project)) : true
    },
  }),
  spec({
    id: 'project.name',
    statement: 'detail and the list show the name last given: on create (Untitled when none) or by a rename',
    clause: endpoint('renameProject'),
    learns: 'the name of a duplicate or a generated project, from its first detail or list item',
    evaluate: (ex, model) => {
      if (ex.operationId === 'getProject' && ok(ex)) {
        const project = projectOf(model, ex)
        if (project?.name === undefined) return undefined
        return check(json(ex).name === project.name, project.name, json(ex).name, name(project))
      }
      return knownItems(ex, model)
        .filter(({ project }) => project.name !== undefined)
        .map(({ item, project }) => check(item.name === project.name, project.name, item.name, `${name(project)} in the list`))
    },
  }),
  spec({
    id: 'project.published',
    statement: 'detail and the list show the publication state last set (a new project and a duplicate start unpublished)',
    clause: Clauses.publication,
    learns: 'whether a generated project is published, from its first detail or list item',
    evaluate: (ex, model) => {
      if (ex.operationId === 'getProject' && ok(ex)) {
        const project = projectOf(model, ex)
        if (project?.published === undefined) return undefined
        return check(
          (json(ex).publishedAt !== null) === project.published,
          project.published ? 'published' : 'unpublished',
          `publishedAt ${json(ex).publishedAt}`,
          name(project),
        )
      }
      return knownItems(ex, model)
        .filter(({ project }) => project.published !== undefined)
        .map(({ item, project }) =>
          check(
            (item.publishedAt !== null) === project.published,
            project.published ? 'published' : 'unpublished',
            `publishedAt ${item.publishedAt}`,
            `${name(project)} in the list`,
          ),
        )
    },
  }),
  spec({
    id: 'project.published-url',
    statement: 'while a project stays published, detail’s publishedUrl is the one publish answered',
    clause: Clauses.projectDetail,
    evaluate: (ex, model) => {
      if (ex.operationId !== 'getProject' || !ok(ex)) return undefined
      const project = projectOf(model, ex)
      if (project?.published !== true || project.publishedUrl === undefined || json(ex).publishedAt === null) return undefined
      return check(json(ex).publishedUrl === project.publishedUrl, project.publishedUrl, json(ex).publishedUrl, name(project))
    },
  }),
  spec({
    id: 'project.editor-url',
    statement: 'a project keeps its editorUrl (a rename keeps the URLs)',
    clause: endpoint('renameProject'),
    learns: 'the editorUrl, from the first answer that shows it',
    evaluate: (ex, model) => {
      if (ex.operationId === 'getProject' && ok(ex)) {
        const project = projectOf(model, ex)
        if (project?.editorUrl === undefined) return undefined
        return check(json(ex).editorUrl === project.editorUrl, project.editorUrl, json(ex).editorUrl, name(project))
      }
      return knownItems(ex, model)
        .filter(({ project }) => project.editorUrl !== undefined)
        .map(({ item, project }) =>
          check(item.editorUrl === project.editorUrl, project.editorUrl, item.editorUrl, `${name(project)} in the list`),
        )
    },
  }),
  spec({
    id: 'project.url',
    statement: 'a project keeps the hostname and path of its URL configuration (a rename keeps the URLs)',
    clause: endpoint('renameProject'),
    learns: 'the URL configuration, from its first read',
    evaluate: (ex, model) => {
      if (ex.operationId !== 'getProjectUrl' || !ok(ex)) return undefined
      const project = projectOf(model, ex)
      if (project?.url === undefined) return undefined
      const current = asJson(json(ex).current)
      return check(`${current.hostname}${current.path}` === project.url, project.url, `${current.hostname}${current.path}`, name(project))
    },
  }),
  spec({
    id: 'duplicate.fresh-url',
    statement: 'a duplicate has a fresh URL: not its source’s, nor another copy’s of that source',
    clause: Clauses.publication,
    evaluate: (ex, model) => {
      if (ex.operationId !== 'getProjectUrl' || !ok(ex)) return undefined
      const project = projectOf(model, ex)
      if (project === undefined) return undefined
      const current = asJson(json(ex).current)
      const url = `${current.hostname}${current.path}`
      // Its source and the source's other copies; or, for a source, its copies.
      const source = project.source === undefined ? undefined : model.projects.get(project.source)
      const kin = [
        ...(source === undefined ? [] : [source, ...source.copies.map((s) => model.projects.get(s))]),
        ...project.copies.map((s) => model.projects.get(s)),
      ].filter((p): p is ProjectModel => p !== undefined && p !== project && p.url !== undefined)
      if (kin.length === 0) return undefined
      const taken = kin.filter((p) => p.url === url)
      return check(taken.length === 0, 'a URL of its own', `${url}, as ${taken.map((p) => p.slug).join(', ')}`, name(project))
    },
  }),
  spec({
    id: 'duplicate.same-slides',
    statement: 'a duplicate has its source’s slides: as many, with the same names',
    clause: endpoint('duplicateProject'),
    evaluate: (ex, model) => {
      if (ex.operationId !== 'listSlides' || !ok(ex)) return undefined
      const project = projectOf(model, ex)
      const inherited = project?.slides.inherited
      if (project === undefined || inherited === undefined || project.slides.ids !== undefined) return undefined
      const names = (Array.isArray(json(ex).slides) ? (json(ex).slides as unknown[]) : []).map((s) => String(asJson(s).name)).sort()
      const expected = inherited.map((s) => s.name).sort()
      return check(same(names, expected), expected, names, name(project))
    },
  }),
  spec({
    id: 'version.latest',
    statement: 'right after a write that answered a versionId (create, config, slide), detail’s latestVersion.id is it',
    clause: Clauses.versioning,
    evaluate: (ex, model) => {
      if (ex.operationId !== 'getProject' || !ok(ex)) return undefined
      const project = projectOf(model, ex)
      if (project?.fresh === undefined) return undefined
      const latest = asJson(json(ex).latestVersion).id
      return check(latest === project.fresh, project.fresh, latest ?? null, name(project))
    },
  }),
  spec({
    id: 'version.new',
    statement: 'each write that answers a versionId answers a new one',
    clause: Clauses.versioning,
    evaluate: (ex, model) => {
      if ((ex.operationId !== 'updateProjectConfig' && ex.operationId !== 'updateSlide') || !ok(ex)) return undefined
      const project = projectOf(model, ex)
      const version = json(ex).versionId
      if (project === undefined || typeof version !== 'string') return undefined
      return check(!project.versions.has(version), 'a versionId not answered before', version, name(project))
    },
  }),
  spec({
    id: 'config.merge',
    statement:
      'a config read shows each key as written since it was last read (a written object contained) and every other key as it was (none added, none lost)',
    clause: endpoint('updateProjectConfig'),
    learns: 'a new project’s configuration (its contents, which keys appear), from its first read; a duplicate’s is its source’s',
    evaluate: (ex, model, settings) => {
      if (ex.operationId !== 'getProjectConfig' || !ok(ex)) return undefined
      const project = projectOf(model, ex)
      if (project === undefined) return undefined
      const read = asJson(json(ex).config)
      // Against our emulator, theme and tokens are replaced whole (its contract); elsewhere a written object is contained.
      const expected = expectedConfig(project.config, settings.contract === true)
      const outcomes: Outcome[] = []
      for (const [key, value] of Object.entries(expected.exact))
        outcomes.push(check(same(read[key], value), value, read[key] ?? '(absent)', `${name(project)}, config key ${key}`))
      for (const [key, value] of Object.entries(expected.containing))
        outcomes.push(check(contains(read[key], value), value, read[key] ?? '(absent)', `${name(project)}, config key ${key}`))
      if (expected.known) {
        const unexpected = Object.keys(read).filter((key) => !(key in expected.exact) && !(key in expected.containing))
        for (const key of unexpected) outcomes.push(miss('(absent: nobody wrote it)', read[key], `${name(project)}, config key ${key}`))
      }
      return outcomes
    },
  }),
  spec({
    id: 'slide.kept-files',
    statement: 'a slide update keeps the files it leaves out, as they were last saved',
    clause: endpoint('updateSlide'),
    learns:
      'each slide file’s text, from the first update answer that shows it (a duplicate’s slides share their source’s until either changes)',
    evaluate: (ex, model) => {
      if (ex.operationId !== 'updateSlide' || !ok(ex)) return undefined
      const project = projectOf(model, ex)
      const files = project?.slides.files.get(ex.params.slideId ?? '')
      if (project === undefined || files === undefined) return undefined
      const sent = asJson(body(ex).files)
      const answered = asJson(json(ex).files)
      return SLIDE_FILES.filter((file) => !(file in sent) && files[file]?.value !== undefined).map((file) =>
        check(
          answered[file] === files[file]!.value,
          files[file]!.value,
          answered[file],
          `${name(project)}, slide ${ex.params.slideId}, ${file}`,
        ),
      )
    },
  }),
  spec({
    id: 'slides.kept',
    statement: 'a project keeps its slides: updating files or the editing indicator adds or removes none',
    clause: Clauses.slide,
    learns: 'a new project’s slides, from their first listing',
    evaluate: (ex, model) => {
      if (ex.operationId !== 'listSlides' || !ok(ex)) return undefined
      const project = projectOf(model, ex)
      if (project?.slides.ids === undefined) return undefined
      const ids = (Array.isArray(json(ex).slides) ? (json(ex).slides as unknown[]) : []).map((s) => String(asJson(s).id)).sort()
      return check(same(ids, [...project.slides.ids].sort()), [...project.slides.ids].sort(), ids, name(project))
    },
  }),
  spec({
    id: 'list.no-repeats',
    statement: 'a walk of the list along nextCursor shows no item twice and hands out no cursor twice',
    clause: Clauses.pagination,
    evaluate: (ex, model, settings) => {
      if (ex.operationId !== 'listProjects' || !ok(ex) || !settings.judgeLists) return undefined
      const walk = walkOf(model, ex)
      if (walk === undefined) return undefined
      const ids = (Array.isArray(json(ex).projects) ? (json(ex).projects as unknown[]) : []).map((p) => String(asJson(p).id))
      const repeated = ids.filter((id) => walk.ids.has(id))
      const next = json(ex).nextCursor
      return [
        check(repeated.length === 0, 'each item once', `listed again: ${repeated.join(', ')}`),
        check(typeof next !== 'string' || !walk.cursors.has(next), 'a new cursor', next),
      ]
    },
  }),
  spec({
    id: 'list.membership',
    statement: 'a walk of the list to its end shows every project the key made, exactly when it matches the published filter',
    clause: endpoint('listProjects'),
    evaluate: (ex, model, settings) => {
      if (ex.operationId !== 'listProjects' || !ok(ex) || json(ex).nextCursor !== undefined || ex.key === null || !settings.judgeLists)
        return undefined
      const filter = publishedFilter(ex)
      const walk = ex.query.cursor === undefined ? { ids: new Set<string>(), items: [] as Array<{ slug: string }> } : walkOf(model, ex)
      if (walk === undefined) return undefined
      const slugs = new Set([
        ...walk.items.map((i) => i.slug),
        ...(Array.isArray(json(ex).projects) ? (json(ex).projects as unknown[]) : []).map((p) => String(asJson(p).slug)),
      ])
      return [...model.projects.values()]
        .filter((p) => p.owner === ex.key && p.published !== undefined)
        .map((p) => {
          const expected = filter === undefined || p.published === filter
          return check(
            slugs.has(p.slug) === expected,
            expected ? 'listed' : 'not listed',
            slugs.has(p.slug) ? 'listed' : 'not listed',
            name(p),
          )
        })
    },
  }),
  spec({
    id: 'isolation.not-found',
    statement: 'another team’s key gets 404 on the key’s projects (Authentication, rule 3)',
    clause: Clauses.authentication,
    evaluate: (ex, model, settings) => {
      const project = projectOf(model, ex)
      if (project === undefined || project.owner === null || ex.key === null || ex.operationId === undefined) return undefined
      if (!settings.isolated(ex.key, project.owner) || incidental(ex.status)) return undefined
      // The error statuses of slide operations are not shown: any refusal will do.
      if (['listSlides', 'updateSlide', 'startSlideEditing', 'stopSlideEditing', 'createSlide'].includes(ex.operationId))
        return check(ex.status >= 400, 'refused', ex.status, name(project))
      return check(ex.status === 404, 404, ex.status, name(project))
    },
  }),
  spec({
    id: 'isolation.unlisted',
    statement: 'another team’s key never lists the key’s projects (Authentication, rule 3)',
    clause: Clauses.authentication,
    evaluate: (ex, model, settings) => {
      if (ex.operationId !== 'listProjects' || !ok(ex) || ex.key === null) return undefined
      // Judged on a page of a key isolated from the owner of a project the observer knows.
      const owners = new Set([...model.projects.values()].map((p) => p.owner).filter((o): o is string => o !== null))
      if (![...owners].some((owner) => settings.isolated(ex.key!, owner))) return undefined
      const leaked = knownItems(ex, model).filter(({ project }) => project.owner !== null && settings.isolated(ex.key!, project.owner))
      return check(
        leaked.length === 0,
        'none of the key’s projects',
        leaked.map(({ project }) => project.slug),
      )
    },
  }),
  spec({
    id: 'teams.stable',
    statement: 'GET /teams answers the same teams each time (no operation changes them)',
    clause: endpoint('listTeams'),
    learns: 'the key’s teams, from its first GET /teams',
    evaluate: (ex, model) => {
      if (ex.operationId !== 'listTeams' || !ok(ex) || ex.key === null || !model.teams.has(ex.key)) return undefined
      const ids = JSON.stringify((Array.isArray(json(ex).teams) ? (json(ex).teams as unknown[]) : []).map((t) => asJson(t).id).sort())
      return check(ids === model.teams.get(ex.key), model.teams.get(ex.key), ids)
    },
  }),
  spec({
    id: 'templates.stable',
    statement: 'the templates list holds the same templates each time (no operation of the API changes them)',
    clause: endpoint('listTemplates'),
    learns: 'the key’s templates, from its first list that fits on one page',
    evaluate: (ex, model) => {
      if (ex.operationId !== 'listTemplates' || !ok(ex) || ex.key === null || !model.templates.has(ex.key)) return undefined
      if (ex.query.cursor !== undefined || json(ex).nextCursor !== undefined) return undefined
      const ids = JSON.stringify(
        (Array.isArray(json(ex).templates) ? (json(ex).templates as unknown[]) : []).map((t) => asJson(t).id).sort(),
      )
      return check(ids === model.templates.get(ex.key), model.templates.get(ex.key), ids)
    },
  }),
  spec({
    id: 'job.terminal',
    statement: 'a job that left processing never goes back, nor changes how it ended',
    clause: Clauses.jobStatus,
    evaluate: (ex, model) => {
      if (ex.operationId !== 'getJobStatus' || !ok(ex)) return undefined
      const job = model.jobs.get(ex.params.jobId ?? '')
      if (job === undefined || job.status === 'processing') return undefined
      return check(json(ex).status === job.status, job.status, json(ex).status)
    },
  }),
  spec({
    id: 'job.same-project',
    statement: 'a job keeps the projectSlug it was created with',
    clause: Clauses.generationJob,
    level: 'SHOULD',
    evaluate: (ex, model) => {
      if (ex.operationId !== 'getJobStatus' || !ok(ex)) return undefined
      const job = model.jobs.get(ex.params.jobId ?? '')
      if (job?.projectSlug === null || job === undefined || typeof json(ex).projectSlug !== 'string') return undefined
      return check(json(ex).projectSlug === job.projectSlug, job.projectSlug, json(ex).projectSlug)
    },
  }),
  spec({
    id: 'generate.foreign-template',
    statement: 'another team’s template is refused on generate (404: "template not found or not accessible")',
    clause: endpoint('generateProject'),
    evaluate: (ex, model, settings) => {
      if (ex.operationId !== 'generateProject' || ex.key === null || incidental(ex.status)) return undefined
      const templateId = body(ex).templateId
      if (typeof templateId !== 'string' || model.templateIds.get(ex.key)?.has(templateId) === true) return undefined
      const foreign = [...model.templateIds].some(([key, ids]) => key !== ex.key && settings.isolated(ex.key!, key) && ids.has(templateId))
      return foreign ? check(ex.status === 404, 404, ex.status, `template ${templateId}`) : undefined
    },
  }),
]

// ------------------------------------------------------------------ learned

const learnedFacts: LearnedFact[] = [
  {
    id: 'learned.prefix',
    basis: 'learned',
    statement: 'the service prefix of API keys',
    how: 'from the key given, up to and with its first underscore; checked only as: every key the run is given or shown begins with it (the auth.prefix scenario) and a key with another prefix is 401 (auth.prefix)',
  },
  {
    id: 'learned.new-config',
    basis: 'learned',
    statement: 'what a new project’s configuration holds, which keys appear in it and in which order',
    how: 'from the project’s first config read (the walk reads it right after creating); then held by config.merge, key order never',
  },
  {
    id: 'learned.names',
    basis: 'learned',
    statement: 'names beyond the spec’s "Untitled": a duplicate’s, a generated project’s, slides’',
    how: 'a project’s from its first detail or list item, then held by project.name until renamed; slides’ from each listing (a duplicate’s first listing is compared with its source’s: duplicate.same-slides)',
  },
  {
    id: 'learned.generated',
    basis: 'learned',
    statement: 'what generation makes: the project’s slides, configuration, and whether it is published',
    how: 'from the first reads of the generated project (detail, config, slides); then held by the spec facts like any other project’s',
  },
  {
    id: 'learned.new-slides',
    basis: 'learned',
    statement: 'which slides a new project has',
    how: 'from its first listing; then held by slides.kept',
  },
  {
    id: 'learned.slide-files',
    basis: 'learned',
    statement: 'the text each slide file is saved as',
    how: 'from the first update answer that returns it (all three files); then held by slide.kept-files',
  },
  {
    id: 'learned.urls',
    basis: 'learned',
    statement: 'a project’s editorUrl, publishedUrl and URL configuration (hosts, paths, domains)',
    how: 'editorUrl from the first answer that shows it, publishedUrl from the publish answer, the URL configuration from its first read; then held by project.editor-url, project.published-url, project.url and duplicate.fresh-url',
  },
  {
    id: 'learned.teams-templates',
    basis: 'learned',
    statement: 'a key’s teams and templates',
    how: 'from its first GET /teams and its first templates list that fits on one page; then held by teams.stable and templates.stable',
  },
]

// ------------------------------------------------------------------ never judged

const never = (id: string, statement: string, reason: string): NeverFact => ({ id, basis: 'never', statement, reason })

const neverFacts: NeverFact[] = [
  never(
    'never.list-order',
    'the order of projects, templates and slides in a list',
    'not shown; only "no item twice, none missing" is judged along a walk',
  ),
  never('never.key-order', 'the order of keys in a JSON object', 'JSON objects are unordered; every comparison ignores it'),
  never('never.cursor-format', 'what a cursor looks like, and what an unknown cursor does', 'not shown: a cursor is only passed back'),
  never('never.id-format', 'the format of ids, slugs and versionIds', 'not shown'),
  never('never.error-code-values', 'the values of X-Service-Error-Code', 'not shown: only its presence is required'),
  never('never.texts', 'error and hint texts, estimatedDuration and finalDuration texts', 'free text, not shown'),
  never('never.extra-fields', 'fields beyond the ones the spec lists', 'the spec lists what is required; more is allowed'),
  never('never.model-ids', 'the two model identifiers', 'not given by the spec; only a made-up one is judged (400)'),
  never(
    'never.job-outcome',
    'how long a job takes and whether it completes or fails',
    'not shown; only that it leaves processing (within --job-timeout) and how it ends is judged',
  ),
  never(
    'never.credits',
    'how many credits a generation costs and when they are charged or refunded',
    'not shown; only 402 for a team without credits is judged',
  ),
  never(
    'never.rate-limit-shape',
    'the rate-limit window, the header values’ format, the headers on answers other than 429',
    'not shown; 429 past 50 requests a minute and its three headers are judged',
  ),
  never(
    'never.merge-depth',
    'how deep a config merge goes below the top level, and whether the write’s answer holds the whole config',
    'not shown: written objects are held as contained, not equal',
  ),
  never(
    'never.slide-errors',
    'the error statuses of slide operations and of GET /teams, and slide file validation rules',
    'not shown; the kit’s checks of them are SHOULDs (warnings)',
  ),
  never('never.editing-body', 'which of agentName and editPrompt are required', 'not shown'),
  never('never.payload-limits', 'payload size limits, wrong methods and unknown paths', 'not shown (413 or 400, 405 or 404, …)'),
  never(
    'never.extensions',
    'the operations the spec refers to without showing them (create slides, the slide guide)',
    'their paths and payloads are not shown: judged only against the emulator',
  ),
  never(
    'never.job-visibility',
    'whether another team’s key can read a job',
    'the spec scopes projects and templates, not jobs: a SHOULD (warning)',
  ),
  never(
    'never.published-url-null',
    'whether a published project has a publishedUrl (it is null without a subdomain)',
    'the spec allows null',
  ),
  never('never.roles', 'the effect of a team role on which operations are permitted', 'not shown'),
  never(
    'never.versions',
    'fields of a version record beyond latestVersion’s, and which operations other than writes make versions',
    'not shown',
  ),
  never('never.sites', 'what the editor and the published site show', 'outside the API'),
  never('never.events', 'webhooks and other event delivery', 'not shown'),
]

/** Every fact, in the order the docs list them. */
export const FACTS: readonly Fact[] = [...exchangeFacts, ...sequenceFacts, ...learnedFacts, ...neverFacts]

/**
 * The spec facts that judge one exchange on its own, whatever came before
 * (a validating proxy holds them on any traffic; the others relate an
 * exchange to earlier ones). `duplicate.own-slug` reads the slugs seen
 * before, so it is not one of them.
 */
export const ONE_EXCHANGE_FACTS: ReadonlySet<string> = new Set(exchangeFacts.map((f) => f.id).filter((id) => id !== 'duplicate.own-slug'))

/** The facts an observer evaluates. */
export const SPEC_FACTS: readonly SpecFact[] = FACTS.filter((f): f is SpecFact => f.basis === 'spec')

/** A fact by its id (throws for an unknown id: a typo in the kit is a bug). */
export function factById(id: string): Fact {
  const found = FACTS.find((f) => f.id === id)
  if (found === undefined) throw new Error(`no fact ${id}`)
  return found
}
