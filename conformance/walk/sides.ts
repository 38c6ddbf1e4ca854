/**
 * One side of a walk (the target, or the in-process emulator that is the
 * oracle) and what it observed. A step runs on both sides; each side turns
 * its answers into *facts*: values the spec fixes (a status, whether a
 * project is published) and relations the spec requires between answers (the
 * slug is kept on rename, `latestVersion.id` is the last write's `versionId`,
 * a merge keeps what a body left out). The walk compares the facts: the
 * oracle's are the prediction. Where the spec says "not shown" (names given
 * to duplicates, list order, cursor format, error codes, durations, merge
 * depth below the top level) a side learns its own answer and no fact is
 * made of it.
 */
import type { Actor, ScenarioContext } from '../context.js'
import type { Exchange } from '../types.js'
import type { WalkStep } from './steps.js'

/** What a side knows of one of the walk's projects. */
export interface Handle {
  slug: string
  /** The name the project must have, or undefined until learned (duplicates, generated projects). */
  name: string | undefined
  editorUrl: string | undefined
  published: boolean
  /** publishedUrl as answered by the last publish, while the project stays published. */
  publishedUrl: string | null | undefined
  /** `hostname + path` of the URL configuration, first observed. */
  url: string | undefined
  /** versionId of the last write that answered one, while no other change happened. */
  freshVersion: string | undefined
  /** Config values written by this walk, by top-level key (what a read must contain). */
  written: Record<string, unknown>
  /** Whether the whole configuration is predictable (false for projects the walk did not make from nothing). */
  configPredicted: boolean
  /** Slide names, when the walk knows them (in no particular order). */
  slideNames: string[] | undefined
  /** Slide ids in the order last listed, and each slide's files as last answered. */
  slideIds: string[] | undefined
  files: Map<string, Record<string, string>>
  hasSlides: boolean
}

/** A side's answer to a step, as facts. */
export interface Observation {
  /** Facts by name; compared with the other side's. Undefined means "no fact". */
  facts: Record<string, unknown>
  /** Every request the step made. */
  exchanges: Exchange[]
  /** A handle the step made (create, duplicate, copy, generate). */
  made?: Handle
  /**
   * What the oracle needs to hold the same project as the target where the
   * spec leaves the choice to the server: the slides and configuration of a
   * copied project (`copySlides`), whether a generated project was published.
   */
  mirror?: Mirror
  /**
   * Why the oracle does not run this step: nothing happened on the target
   * that the spec lets the walk predict (no project with slides to copy, a
   * generated project without slides, no credits left for a generation).
   */
  unmatched?: string
  /** What this step could not check, and why (the oracle still ran it). */
  note?: string
}

/** How many pages of 100 a list step walks on a busy account to find the walk's projects. */
export const LIST_PAGES_OF_100 = 50

export interface Mirror {
  slideNames?: string[]
  config?: Record<string, unknown> | undefined
  published?: boolean
}

function newHandle(slug: string, fields: Partial<Handle> = {}): Handle {
  return {
    slug,
    name: undefined,
    editorUrl: undefined,
    published: false,
    publishedUrl: undefined,
    url: undefined,
    freshVersion: undefined,
    written: {},
    configPredicted: true,
    slideNames: [],
    slideIds: undefined,
    files: new Map(),
    hasSlides: false,
    ...fields,
  }
}

/** Whether `expected` is contained in `actual`: objects key by key, anything else equal. */
export function contains(actual: unknown, expected: unknown): boolean {
  if (typeof expected === 'object' && expected !== null && !Array.isArray(expected)) {
    if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return false
    return Object.entries(expected).every(([key, value]) => contains((actual as Record<string, unknown>)[key], value))
  }
  return JSON.stringify(actual) === JSON.stringify(expected)
}

const okClass = (status: number) => (status >= 200 && status < 300 ? 'success' : status >= 400 && status < 500 ? 'refused' : 'error')

export class Side {
  readonly handles: Handle[] = []
  #teams: string | undefined
  #templates: string | undefined

  constructor(
    readonly label: 'target' | 'oracle',
    readonly ctx: ScenarioContext,
    readonly actor: Actor,
    readonly other: Actor | undefined,
    /** The slug of a project with slides to copy, for `copySlides` (target side). */
    readonly findSlidesSource: (exchanges: Exchange[]) => Promise<string | undefined>,
  ) {}

  handle(p: number): Handle | undefined {
    return this.handles.length === 0 ? undefined : this.handles[p % this.handles.length]
  }

  /** The handles with slides, for slide steps. */
  slideHandles(): Handle[] {
    return this.handles.filter((h) => h.hasSlides)
  }

  async #call(exchanges: Exchange[], request: Parameters<ScenarioContext['send']>[1], actor: Actor = this.actor): Promise<Exchange> {
    const exchange = await this.ctx.send(actor, request)
    exchanges.push(exchange)
    return exchange
  }

  /** Reads the slides of a handle, remembering their ids. */
  async #slides(exchanges: Exchange[], h: Handle): Promise<Exchange> {
    const exchange = await this.#call(exchanges, { operationId: 'listSlides', params: { slug: h.slug } })
    const slides = (exchange.json as { slides?: Array<{ id: string; name: string }> } | undefined)?.slides
    if (exchange.status === 200 && Array.isArray(slides)) h.slideIds = slides.map((s) => s.id)
    return exchange
  }

  /** The `slide`-th slide of the `p`-th project with slides (listing its slides first if need be). */
  async #slideOf(exchanges: Exchange[], p: number, slide: number): Promise<{ h: Handle; slideId: string } | undefined> {
    const h = this.slideHandles()[p % this.slideHandles().length]!
    if (h.slideIds === undefined) await this.#slides(exchanges, h)
    const ids = h.slideIds ?? []
    return ids.length === 0 ? undefined : { h, slideId: ids[slide % ids.length]! }
  }

  /**
   * A slide step on a project without slides. When the walk knows the
   * project's slides (a copy), the oracle is held to having none too; a
   * generated project's slides are the generator's, so the oracle does not
   * run the step.
   */
  #noSlides(facts: Record<string, unknown>, exchanges: Exchange[], p: number): Observation {
    facts.status = 'no slides'
    const h = this.slideHandles()[p % this.slideHandles().length]!
    return h.slideNames === undefined
      ? { facts, exchanges, unmatched: 'the generated project has no slides on the target' }
      : { facts, exchanges }
  }

  /** Runs one step; the facts it returns are compared with the other side's. */
  async run(step: WalkStep, mirror?: Mirror): Promise<Observation> {
    const exchanges: Exchange[] = []
    const facts: Record<string, unknown> = {}
    // biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field below
    const json = (e: Exchange) => (e.json ?? {}) as Record<string, any>
    const status = (e: Exchange) => {
      facts.status = e.status
      return e.status === 200
    }
    switch (step.op) {
      case 'create': {
        const e = await this.#call(exchanges, { operationId: 'createProject', body: { name: this.ctx.name(step.name) } })
        if (!status(e)) return { facts, exchanges }
        const made = newHandle(json(e).projectSlug, {
          name: this.ctx.name(step.name),
          editorUrl: json(e).editorUrl,
          freshVersion: json(e).projectVersionId,
        })
        this.ctx.created(made.slug)
        return { facts, exchanges, made }
      }
      case 'copySlides': {
        if (this.label === 'oracle') {
          // The oracle makes the same project: slides of the same names, the same configuration.
          const e = await this.#call(exchanges, { operationId: 'createProject', body: { name: this.ctx.name('copy') } })
          if (!status(e)) return { facts, exchanges }
          const made = newHandle(json(e).projectSlug, { hasSlides: true, slideNames: mirror?.slideNames ?? [] })
          for (const name of mirror?.slideNames ?? [])
            await this.#call(exchanges, {
              operationId: 'createSlide',
              params: { slug: made.slug },
              body: { name: name.slice(0, 200) || 'Slide' },
            })
          if (mirror?.config !== undefined) {
            const put = await this.#call(exchanges, {
              operationId: 'updateProjectConfig',
              params: { slug: made.slug },
              body: { config: mirror.config },
            })
            made.configPredicted = put.status === 200
          } else made.configPredicted = false
          made.name = undefined
          return { facts, exchanges, made }
        }
        const source = await this.findSlidesSource(exchanges)
        if (source === undefined) {
          facts.status = 'no project with slides'
          return { facts, exchanges, unmatched: 'the target has no project with slides to copy' }
        }
        const e = await this.#call(exchanges, { operationId: 'duplicateProject', params: { slug: source } })
        if (!status(e)) return { facts, exchanges }
        const made = newHandle(json(e).projectSlug, { hasSlides: true, editorUrl: json(e).editorUrl })
        this.ctx.created(made.slug)
        const slides = await this.#slides(exchanges, made)
        made.slideNames = ((json(slides).slides ?? []) as Array<{ name: string }>).map((s) => s.name)
        const config = await this.#call(exchanges, { operationId: 'getProjectConfig', params: { slug: made.slug } })
        // Predictable from here on if the oracle can hold the same configuration (the walk decides).
        made.configPredicted = config.status === 200
        return {
          facts,
          exchanges,
          made,
          mirror: { slideNames: made.slideNames, config: config.status === 200 ? json(config).config : undefined },
        }
      }
      case 'rename': {
        const h = this.handle(step.p)!
        const name = this.ctx.name(step.name)
        const e = await this.#call(exchanges, { operationId: 'renameProject', params: { slug: h.slug }, body: { name } })
        if (!status(e)) return { facts, exchanges }
        facts.answersNewName = json(e).name === name
        facts.success = json(e).success
        h.name = name
        h.freshVersion = undefined
        return { facts, exchanges }
      }
      case 'renameInvalid': {
        const h = this.handle(step.p)!
        const e = await this.#call(exchanges, {
          operationId: 'renameProject',
          params: { slug: h.slug },
          body: { name: 'x'.repeat(step.length) },
        })
        facts.status = e.status
        return { facts, exchanges }
      }
      case 'config':
      case 'configInvalid': {
        const h = this.handle(step.p)!
        const e = await this.#call(exchanges, {
          operationId: 'updateProjectConfig',
          params: { slug: h.slug },
          body: { config: step.patch },
        })
        if (!status(e) || step.op === 'configInvalid') return { facts, exchanges }
        for (const [key, value] of Object.entries(step.patch)) h.written[key] = value
        h.freshVersion = json(e).versionId
        facts.answerContainsWrites = contains(json(e).config, h.written)
        return { facts, exchanges }
      }
      case 'duplicate': {
        const h = this.handle(step.p)!
        const e = await this.#call(exchanges, { operationId: 'duplicateProject', params: { slug: h.slug } })
        if (!status(e)) return { facts, exchanges }
        const slug = json(e).projectSlug as string
        facts.newSlug = !this.handles.some((other) => other.slug === slug)
        const made = newHandle(slug, {
          editorUrl: json(e).editorUrl,
          written: structuredClone(h.written),
          configPredicted: h.configPredicted,
          slideNames: h.slideNames === undefined ? undefined : [...h.slideNames],
          hasSlides: h.hasSlides,
        })
        this.ctx.created(slug)
        h.freshVersion = undefined
        return { facts, exchanges, made }
      }
      case 'publish': {
        const h = this.handle(step.p)!
        const e = await this.#call(exchanges, { operationId: 'publishProject', params: { slug: h.slug } })
        if (!status(e)) return { facts, exchanges }
        facts.published = json(e).published
        facts.success = json(e).success
        h.published = true
        h.publishedUrl = json(e).publishedUrl
        h.freshVersion = undefined
        return { facts, exchanges }
      }
      case 'unpublish': {
        const h = this.handle(step.p)!
        const e = await this.#call(exchanges, { operationId: 'unpublishProject', params: { slug: h.slug } })
        if (!status(e)) return { facts, exchanges }
        facts.published = json(e).published
        facts.success = json(e).success
        h.published = false
        h.publishedUrl = undefined
        h.freshVersion = undefined
        return { facts, exchanges }
      }
      case 'detail': {
        const h = this.handle(step.p)!
        const e = await this.#call(exchanges, { operationId: 'getProject', params: { slug: h.slug } })
        if (!status(e)) return { facts, exchanges }
        const d = json(e)
        facts.slugKept = d.slug === h.slug
        if (h.name === undefined) h.name = d.name
        else facts.nameAsWritten = d.name === h.name
        facts.published = d.publishedAt !== null
        facts.noUrlWhenUnpublished = d.publishedAt !== null || d.publishedUrl === null
        if (h.publishedUrl !== undefined && d.publishedAt !== null) facts.publishedUrlKept = d.publishedUrl === h.publishedUrl
        if (h.editorUrl === undefined) h.editorUrl = d.editorUrl
        else facts.editorUrlKept = d.editorUrl === h.editorUrl
        if (h.freshVersion !== undefined) facts.latestVersionIsLastWrite = d.latestVersion?.id === h.freshVersion
        return { facts, exchanges }
      }
      case 'readConfig': {
        const h = this.handle(step.p)!
        const e = await this.#call(exchanges, { operationId: 'getProjectConfig', params: { slug: h.slug } })
        if (!status(e)) return { facts, exchanges }
        const config = (json(e).config ?? {}) as Record<string, unknown>
        facts.keepsEveryWrite = contains(config, h.written)
        if (h.configPredicted) {
          facts.topLevelKeys = Object.keys(config).sort()
          facts.scalars = Object.fromEntries(
            Object.entries(config)
              .filter(([, v]) => typeof v !== 'object' || v === null)
              .sort(),
          )
        }
        return { facts, exchanges }
      }
      case 'url': {
        const h = this.handle(step.p)!
        const e = await this.#call(exchanges, { operationId: 'getProjectUrl', params: { slug: h.slug } })
        if (!status(e)) return { facts, exchanges }
        const current = json(e).current ?? {}
        const url = `${current.hostname}${current.path}`
        if (h.url === undefined) h.url = url
        else facts.urlKept = url === h.url
        facts.urlOwn = !this.handles.some((other) => other !== h && other.url === url)
        return { facts, exchanges }
      }
      case 'list': {
        // Expected in the list: every project of the walk, or those in the publish state asked for.
        const expected = this.handles.map((h) => step.published === undefined || h.published === step.published)
        type Item = { id: string; slug: string; name: string; publishedAt: string | null }
        /** Walks pages of `limit` from the start: until the list ends, `enough` holds, or `pages` pages. */
        const walk = async (limit: number, pages: number, enough: (items: Item[]) => boolean) => {
          const items: Item[] = []
          let cursor: string | undefined
          for (let page = 0; page < pages; page++) {
            const query: Record<string, string | number | boolean> = { limit }
            if (step.published !== undefined) query.published = step.published
            if (cursor !== undefined) query.cursor = cursor
            const e = await this.#call(exchanges, { operationId: 'listProjects', query })
            if (!status(e)) return undefined
            const body = json(e)
            facts.pagesWithinLimit = (facts.pagesWithinLimit ?? true) && (body.projects ?? []).length <= limit
            items.push(...(body.projects ?? []))
            if (body.nextCursor === undefined) return { items, ended: true }
            if (enough(items)) break
            cursor = body.nextCursor
          }
          return { items, ended: false }
        }
        const allFound = (items: Item[]) => this.handles.every((h, i) => !expected[i] || items.some((p) => p.slug === h.slug))
        // At the step's page size, as many pages as the walk's own projects fill (and a few more): the
        // whole list on an account that holds only the run's projects.
        const first = await walk(step.limit, Math.ceil((this.handles.length + 3) / step.limit) + 1, () => false)
        if (first === undefined) return { facts, exchanges }
        let seen = first
        let note: string | undefined
        if (!first.ended) {
          // A busy account: the walk's projects may be anywhere (list order is the server's), so walk it
          // again in pages of 100 until every project that must be listed is found, or the list ends.
          const again = await walk(100, LIST_PAGES_OF_100, allFound)
          if (again === undefined) return { facts, exchanges }
          facts.noRepeats = new Set(first.items.map((p) => p.id)).size === first.items.length
          seen = again
          if (!again.ended && !allFound(again.items))
            note = `a list with more than ${LIST_PAGES_OF_100 * 100} projects: whether the walk's projects are listed was not checked`
        }
        facts.noRepeats = (facts.noRepeats ?? true) && new Set(seen.items.map((p) => p.id)).size === seen.items.length
        if (step.published !== undefined)
          facts.filterHolds = [...first.items, ...seen.items].every((p) => (p.publishedAt !== null) === step.published)
        if (note !== undefined) return { facts, exchanges, note }
        // Walked to its end, or until all the projects that must be there were found: a project that
        // must not be there (the other publish state) counts as listed only if it was seen.
        const items = seen.items
        facts.listed = this.handles.map((h) => items.some((p) => p.slug === h.slug))
        facts.listedNamesAsWritten = this.handles.map((h) => {
          const item = items.find((p) => p.slug === h.slug)
          return item === undefined || h.name === undefined ? null : item.name === h.name
        })
        facts.listedPublished = this.handles.map((h) => {
          const item = items.find((p) => p.slug === h.slug)
          return item === undefined ? null : item.publishedAt !== null
        })
        return { facts, exchanges }
      }
      case 'slides': {
        const h = this.handle(step.p)!
        const e = await this.#slides(exchanges, h)
        if (!status(e)) return { facts, exchanges }
        const names = ((json(e).slides ?? []) as Array<{ name: string }>).map((s) => s.name)
        // A generated project's slides are the generator's: nothing to predict.
        if (h.slideNames !== undefined) {
          facts.count = names.length
          facts.names = [...names].sort()
        }
        return { facts, exchanges }
      }
      case 'updateSlide': {
        const target = await this.#slideOf(exchanges, step.p, step.slide)
        if (target === undefined) return this.#noSlides(facts, exchanges, step.p)
        const { h, slideId } = target
        const e = await this.#call(exchanges, {
          operationId: 'updateSlide',
          params: { slug: h.slug, slideId },
          body: { files: { [step.file]: step.text } },
        })
        facts.status = okClass(e.status)
        if (e.status !== 200) return { facts, exchanges }
        const files = (json(e).files ?? {}) as Record<string, string>
        facts.sentFileSaved = files[step.file] === step.text
        facts.slideIdAnswered = json(e).slideId === slideId
        const before = h.files.get(slideId)
        if (before !== undefined) {
          facts.otherFilesKept = Object.keys(before)
            .filter((name) => name !== step.file)
            .every((name) => files[name] === before[name])
        }
        h.files.set(slideId, files)
        h.freshVersion = json(e).versionId
        return { facts, exchanges }
      }
      case 'editing': {
        const target = await this.#slideOf(exchanges, step.p, step.slide)
        if (target === undefined) return this.#noSlides(facts, exchanges, step.p)
        const params = { slug: target.h.slug, slideId: target.slideId }
        const e = step.on
          ? await this.#call(exchanges, { operationId: 'startSlideEditing', params, body: { agentName: 'Walk', editPrompt: 'Walking' } })
          : await this.#call(exchanges, { operationId: 'stopSlideEditing', params })
        facts.status = okClass(e.status)
        if (e.status === 200) facts.success = json(e).success
        return { facts, exchanges }
      }
      case 'teams': {
        const e = await this.#call(exchanges, { operationId: 'listTeams' })
        if (!status(e)) return { facts, exchanges }
        const ids = JSON.stringify(((json(e).teams ?? []) as Array<{ id: string }>).map((t) => t.id).sort())
        if (this.#teams === undefined) this.#teams = ids
        else facts.teamsStable = ids === this.#teams
        return { facts, exchanges }
      }
      case 'templates': {
        const e = await this.#call(exchanges, { operationId: 'listTemplates', query: { limit: step.limit } })
        if (!status(e)) return { facts, exchanges }
        const templates = (json(e).templates ?? []) as Array<{ id: string }>
        facts.withinLimit = templates.length <= step.limit
        if (step.limit === 50 && json(e).nextCursor === undefined) {
          const ids = JSON.stringify(templates.map((t) => t.id).sort())
          if (this.#templates === undefined) this.#templates = ids
          else facts.templatesStable = ids === this.#templates
        }
        return { facts, exchanges }
      }
      case 'generate': {
        const e = await this.#call(exchanges, { operationId: 'generateProject', body: { prompt: this.ctx.name(step.prompt) } })
        if (e.status === 402 && this.label === 'target') {
          // A deployment's credits are its own: running out is no divergence.
          facts.status = e.status
          return { facts, exchanges, unmatched: 'the target has no credits left for a generation (402)' }
        }
        if (!status(e)) return { facts, exchanges }
        facts.startsProcessing = json(e).status === 'processing'
        this.ctx.created(json(e).projectSlug)
        const job = await this.ctx.waitForJob(this.actor, json(e).jobId)
        facts.ends = job === undefined ? 'still processing' : job.status === 'completed' || job.status === 'failed' ? 'ended' : job.status
        if (job?.status !== 'completed' || job.projectSlug === null) return { facts, exchanges }
        // The spec leaves the generated project's name, slides and whether generation publishes it to the
        // server: the target's answers are learned, and the oracle adopts the target's publish state.
        const read = await this.#call(exchanges, { operationId: 'getProject', params: { slug: job.projectSlug } })
        if (!status(read)) return { facts, exchanges }
        const d = json(read)
        const made = newHandle(job.projectSlug, {
          name: d.name,
          editorUrl: d.editorUrl,
          configPredicted: false,
          slideNames: undefined,
          hasSlides: true,
        })
        made.published = d.publishedAt !== null
        made.publishedUrl = made.published ? d.publishedUrl : undefined
        if (this.label === 'oracle' && mirror?.published !== undefined && mirror.published !== made.published) {
          const toggle = mirror.published
            ? await this.#call(exchanges, { operationId: 'publishProject', params: { slug: made.slug } })
            : await this.#call(exchanges, { operationId: 'unpublishProject', params: { slug: made.slug } })
          if (toggle.status === 200) {
            made.published = mirror.published
            made.publishedUrl = mirror.published ? json(toggle).publishedUrl : undefined
          }
        }
        return { facts, exchanges, made, mirror: { published: made.published } }
      }
      case 'otherRead': {
        const h = this.handle(step.p)!
        const e = await this.#call(exchanges, { operationId: 'getProject', params: { slug: h.slug } }, this.other)
        facts.status = e.status
        return { facts, exchanges }
      }
    }
  }
}

/** Whether a step can run now, given how many projects (and with slides) the walk has. */
export function applicable(step: WalkStep, model: { handles: number; slideHandles: number }): boolean {
  switch (step.op) {
    case 'create':
    case 'copySlides':
    case 'list':
    case 'teams':
    case 'templates':
    case 'generate':
      return true
    case 'updateSlide':
    case 'editing':
      return model.slideHandles > 0
    default:
      return model.handles > 0
  }
}
