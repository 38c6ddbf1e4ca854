/**
 * One side of a walk (the target, or the in-process emulator that is the
 * oracle): it runs a step's requests and hands every exchange to its own
 * observer, which judges it by the table of facts against what that side's
 * earlier answers taught it. The side itself judges nothing: it says what
 * the step's answer was (its status, compared with the oracle's) and keeps
 * the walk's handles on the projects it made.
 */
import type { Actor } from '../actors.js'
import type { ScenarioContext } from '../context.js'
import { Observer, type Verdict } from '../facts/observer.js'
import { observedFrom } from '../facts/observed.js'
import type { Exchange } from '../types.js'
import type { WalkStep } from './steps.js'

/** What a side keeps of one of the walk's projects. */
export interface Handle {
  slug: string
  hasSlides: boolean
  /** Slide ids in the order last listed (a slide step picks by index). */
  slideIds: string[] | undefined
  /** A generated project: its slides are the generator's. */
  generated: boolean
}

/** A step with its project resolved to a handle's index (undefined for steps without one). */
export interface Resolved {
  step: WalkStep
  at: number | undefined
}

/** A side's answer to a step. */
export interface Observation {
  /** The step's answer: the status of its main request (for slide operations, success or refusal). */
  status: unknown
  /** Every request the step made. */
  exchanges: Exchange[]
  /** The observer's verdicts on them, in order. */
  verdicts: Verdict[]
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

/** The steps that are one request on their project. */
const ONE_REQUEST = {
  publish: 'publishProject',
  unpublish: 'unpublishProject',
  detail: 'getProject',
  readConfig: 'getProjectConfig',
  url: 'getProjectUrl',
} as const

const okClass = (status: number) => (status >= 200 && status < 300 ? 'success' : status >= 400 && status < 500 ? 'refused' : 'error')

// biome-ignore lint/suspicious/noExplicitAny: answers are read field by field; the observer judges their shape
const json = (e: Exchange) => (e.json ?? {}) as Record<string, any>

export class Side {
  readonly handles: Handle[] = []
  readonly observer: Observer

  constructor(
    readonly label: 'target' | 'oracle',
    readonly ctx: ScenarioContext,
    readonly actor: Actor,
    readonly other: Actor | undefined,
    /** The slug of a project with slides to copy, for `copySlides` (target side). */
    readonly findSlidesSource: (exchanges: Exchange[]) => Promise<string | undefined>,
    extensions: boolean,
  ) {
    const main = actor.key
    const otherKey = other?.key
    const prefix = main.indexOf('_') > 0 ? main.slice(0, main.indexOf('_') + 1) : undefined
    this.observer = new Observer({
      prefix,
      isolated: (a, b) => otherKey !== undefined && ((a === main && b === otherKey) || (a === otherKey && b === main)),
      extensions,
      // The target is our emulator (or this is the oracle): its contract's merge choices are judged too.
      contract: extensions,
    })
  }

  /** The indices of the handles with slides, for slide steps. */
  slideHandles(): number[] {
    return this.handles.flatMap((h, i) => (h.hasSlides ? [i] : []))
  }

  async #call(
    out: { exchanges: Exchange[]; verdicts: Verdict[] },
    request: Parameters<ScenarioContext['send']>[1],
    actor: Actor = this.actor,
  ): Promise<Exchange> {
    return this.#record(out, await this.ctx.send(actor, request))
  }

  #record(out: { exchanges: Exchange[]; verdicts: Verdict[] }, exchange: Exchange): Exchange {
    out.exchanges.push(exchange)
    out.verdicts.push(...this.observer.observe(observedFrom(exchange, this.ctx.target.baseUrl)))
    return exchange
  }

  /** Reads the slides of a handle, remembering their ids. */
  async #slides(out: { exchanges: Exchange[]; verdicts: Verdict[] }, h: Handle): Promise<Exchange> {
    const exchange = await this.#call(out, { operationId: 'listSlides', params: { slug: h.slug } })
    const slides = (exchange.json as { slides?: Array<{ id: string; name: string }> } | undefined)?.slides
    if (exchange.status === 200 && Array.isArray(slides)) h.slideIds = slides.map((s) => s.id)
    return exchange
  }

  /** Runs one resolved step. */
  async run({ step, at }: Resolved, mirror?: Mirror): Promise<Observation> {
    const out: Observation = { status: undefined, exchanges: [], verdicts: [] }
    const h = at === undefined ? undefined : this.handles[at]
    const call = (request: Parameters<ScenarioContext['send']>[1], actor?: Actor) => this.#call(out, request, actor)
    const main = async (request: Parameters<ScenarioContext['send']>[1], actor?: Actor) => {
      const e = await call(request, actor)
      out.status = e.status
      return e
    }
    switch (step.op) {
      case 'create': {
        const e = await main({ operationId: 'createProject', body: { name: this.ctx.name(step.name) } })
        if (e.status !== 200) return out
        const slug = json(e).projectSlug as string
        this.ctx.created(slug)
        // What a new project's configuration holds is the server's: learned right away.
        await call({ operationId: 'getProjectConfig', params: { slug } })
        out.made = { slug, hasSlides: false, slideIds: undefined, generated: false }
        return out
      }
      case 'copySlides': {
        if (this.label === 'oracle') {
          // The oracle makes the same project: slides of the same names, the same configuration.
          const e = await main({ operationId: 'createProject', body: { name: this.ctx.name('copy') } })
          if (e.status !== 200) return out
          const slug = json(e).projectSlug as string
          for (const name of mirror?.slideNames ?? [])
            await call({ operationId: 'createSlide', params: { slug }, body: { name: name.slice(0, 200) || 'Slide' } })
          if (mirror?.config !== undefined)
            await call({ operationId: 'updateProjectConfig', params: { slug }, body: { config: mirror.config } })
          out.made = { slug, hasSlides: true, slideIds: undefined, generated: false }
          return out
        }
        const source = await this.findSlidesSource(out.exchanges)
        if (source === undefined) {
          out.status = 'no project with slides'
          return { ...out, unmatched: 'the target has no project with slides to copy' }
        }
        const e = await main({ operationId: 'duplicateProject', params: { slug: source } })
        if (e.status !== 200) return out
        const made: Handle = { slug: json(e).projectSlug, hasSlides: true, slideIds: undefined, generated: false }
        this.ctx.created(made.slug)
        const slides = await this.#slides(out, made)
        const config = await call({ operationId: 'getProjectConfig', params: { slug: made.slug } })
        out.made = made
        out.mirror = {
          slideNames: ((json(slides).slides ?? []) as Array<{ name: string }>).map((s) => s.name),
          config: config.status === 200 ? json(config).config : undefined,
        }
        return out
      }
      case 'rename':
        await main({ operationId: 'renameProject', params: { slug: h!.slug }, body: { name: this.ctx.name(step.name) } })
        return out
      case 'renameInvalid':
        await main({ operationId: 'renameProject', params: { slug: h!.slug }, body: { name: 'x'.repeat(step.length) } })
        return out
      case 'config':
      case 'configInvalid':
        await main({ operationId: 'updateProjectConfig', params: { slug: h!.slug }, body: { config: step.patch } })
        return out
      case 'duplicate': {
        const e = await main({ operationId: 'duplicateProject', params: { slug: h!.slug } })
        if (e.status !== 200) return out
        out.made = { slug: json(e).projectSlug, hasSlides: h!.hasSlides, slideIds: undefined, generated: h!.generated }
        this.ctx.created(out.made.slug)
        return out
      }
      case 'publish':
      case 'unpublish':
      case 'detail':
      case 'readConfig':
      case 'url':
        await main({ operationId: ONE_REQUEST[step.op], params: { slug: h!.slug } })
        return out
      case 'look': {
        const detail = await call({ operationId: 'getProject', params: { slug: h!.slug } })
        const config = await call({ operationId: 'getProjectConfig', params: { slug: h!.slug } })
        const url = await call({ operationId: 'getProjectUrl', params: { slug: h!.slug } })
        out.status = [detail.status, config.status, url.status]
        return out
      }
      case 'slides': {
        const e = await this.#slides(out, h!)
        out.status = e.status
        return out
      }
      case 'list':
        return this.#list(step, out)
      case 'updateSlide':
      case 'editing': {
        if (h!.slideIds === undefined) await this.#slides(out, h!)
        const ids = h!.slideIds ?? []
        if (ids.length === 0) {
          out.status = 'no slides'
          // A generated project's slides are the generator's: the oracle does not run the step.
          return h!.generated ? { ...out, unmatched: 'the generated project has no slides on the target' } : out
        }
        const params = { slug: h!.slug, slideId: ids[step.slide % ids.length]! }
        const e =
          step.op === 'updateSlide'
            ? await call({ operationId: 'updateSlide', params, body: { files: { [step.file]: step.text } } })
            : step.on
              ? await call({ operationId: 'startSlideEditing', params, body: { agentName: 'Walk', editPrompt: 'Walking' } })
              : await call({ operationId: 'stopSlideEditing', params })
        // The error statuses of slide operations are not shown: success against refusal only.
        out.status = okClass(e.status)
        return out
      }
      case 'teams':
        await main({ operationId: 'listTeams' })
        return out
      case 'templates':
        await main({ operationId: 'listTemplates', query: { limit: step.limit } })
        return out
      case 'generate':
        return this.#generate(step, out, mirror)
      case 'otherRead':
        await main({ operationId: 'getProject', params: { slug: h!.slug } }, this.other)
        return out
    }
  }

  /**
   * Walks the list in pages of the step's limit, as many pages as the walk's
   * own projects fill (and a few more): the whole list on an account that
   * holds only the walk's projects. On a busier one (list order is the
   * server's) it walks again in pages of 100 until every project of the walk
   * that must be listed is found, or the list ends; the observer judges
   * membership only of a walk that reached the end.
   */
  async #list(step: Extract<WalkStep, { op: 'list' }>, out: Observation): Promise<Observation> {
    const pagesOf = async (limit: number, pages: number, enough: (slugs: Set<string>) => boolean) => {
      const slugs = new Set<string>()
      let cursor: string | undefined
      for (let page = 0; page < pages; page++) {
        const query: Record<string, string | number | boolean> = { limit }
        if (step.published !== undefined) query.published = step.published
        if (cursor !== undefined) query.cursor = cursor
        const e = await this.#call(out, { operationId: 'listProjects', query })
        out.status = e.status
        if (e.status !== 200) return undefined
        for (const item of (json(e).projects ?? []) as Array<{ slug: string }>) slugs.add(item.slug)
        if (json(e).nextCursor === undefined) return { slugs, ended: true }
        if (enough(slugs)) return { slugs, ended: false }
        cursor = json(e).nextCursor
      }
      return { slugs, ended: false }
    }
    const first = await pagesOf(step.limit, Math.ceil((this.handles.length + 3) / step.limit) + 1, () => false)
    if (first === undefined || first.ended) return out
    // Which of the walk's projects must be there: the observer knows their publish state.
    const mustList = (slugs: Set<string>) =>
      this.handles.every((h) => {
        const known = this.observer.model.projects.get(h.slug)
        const expected = step.published === undefined || known?.published === undefined || known.published === step.published
        return !expected || slugs.has(h.slug)
      })
    const again = await pagesOf(100, LIST_PAGES_OF_100, mustList)
    if (again !== undefined && !again.ended && !mustList(again.slugs))
      out.note = `a list with more than ${LIST_PAGES_OF_100 * 100} projects: whether the walk's projects are listed was not checked`
    return out
  }

  async #generate(step: Extract<WalkStep, { op: 'generate' }>, out: Observation, mirror: Mirror | undefined): Promise<Observation> {
    const e = await this.#call(out, { operationId: 'generateProject', body: { prompt: this.ctx.name(step.prompt) } })
    out.status = e.status
    if (e.status === 402 && this.label === 'target') {
      // A deployment's credits are its own: running out is no divergence.
      return { ...out, unmatched: 'the target has no credits left for a generation (402)' }
    }
    if (e.status !== 200) return out
    this.ctx.created(json(e).projectSlug)
    const job = await this.ctx.waitForJob(this.actor, json(e).jobId, (poll) => this.#record(out, poll))
    out.status = job === undefined ? 'still processing' : job.status === 'completed' || job.status === 'failed' ? 'ended' : job.status
    if (job?.status !== 'completed' || job.projectSlug === null) return out
    // The spec leaves the generated project's name, slides and whether generation publishes it to the
    // server: the target's answers are learned, and the oracle adopts the target's publish state.
    const read = await this.#call(out, { operationId: 'getProject', params: { slug: job.projectSlug } })
    if (read.status !== 200) return out
    let published = json(read).publishedAt !== null
    if (this.label === 'oracle' && mirror?.published !== undefined && mirror.published !== published) {
      const toggle = await this.#call(out, {
        operationId: mirror.published ? 'publishProject' : 'unpublishProject',
        params: { slug: job.projectSlug },
      })
      if (toggle.status === 200) published = mirror.published
    }
    out.made = { slug: job.projectSlug, hasSlides: true, slideIds: undefined, generated: true }
    out.mirror = { published }
    return out
  }
}
