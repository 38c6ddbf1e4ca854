import * as z from 'zod'
import { DateTime } from '../schemas/index.js'
import { createIdFactory, type IdFactory, type Sequence } from './ids.js'
import { RecencyIndex, type RecencyKey } from './recency-index.js'
import {
  ApiKeyRecord,
  DomainRecord,
  JobRecord,
  MembershipRecord,
  ProjectRecord,
  PublicationRecord,
  SlideRecord,
  SubdomainRecord,
  TeamRecord,
  TemplateRecord,
  UserRecord,
  VersionRecord,
} from './records.js'
import { Table, type Change } from './table.js'

/** The format tag of a state document; bumped on an incompatible change. */
export const STATE_FORMAT = 'presentation-emulator/state@1'

/** The whole world as one JSON document (`GET /_emulator/state`). */
export const StateDocument = z.strictObject({
  format: z.literal(STATE_FORMAT),
  seed: z.number().int(),
  sequence: z.number().int().min(0),
  /** A manual clock's time when the document was taken (absent for a real clock). */
  clock: z.strictObject({ now: DateTime }).optional(),
  users: z.array(UserRecord),
  teams: z.array(TeamRecord),
  memberships: z.array(MembershipRecord),
  apiKeys: z.array(ApiKeyRecord),
  subdomains: z.array(SubdomainRecord),
  domains: z.array(DomainRecord),
  projects: z.array(ProjectRecord),
  versions: z.array(VersionRecord),
  slides: z.array(SlideRecord),
  templates: z.array(TemplateRecord),
  jobs: z.array(JobRecord),
  publications: z.array(PublicationRecord),
})
export type StateDocument = z.infer<typeof StateDocument>

/**
 * Fills in, in place, what parsing `doc` with `StateDocument` fills in: the
 * schema's one kind of default, the empty token lists of a configuration
 * (`tokens.palette`, `tokens.fonts`; projects, templates and publications
 * have one). For a document `StateDocument.validate` accepts, the result
 * then equals what the parse gives (but for the order of keys), without its
 * copy of every object; a test pins both facts against the schema.
 */
export function withStateDefaults(doc: StateDocument): StateDocument {
  for (const records of [doc.projects, doc.templates, doc.publications]) {
    for (const { config } of records) {
      const tokens = config.tokens
      if (tokens === undefined) continue
      tokens.palette ??= []
      tokens.fonts ??= []
    }
  }
  return doc
}

/** The table names of a world, in the order they are saved and restored. */
export const TABLE_NAMES = [
  'users',
  'teams',
  'memberships',
  'apiKeys',
  'subdomains',
  'domains',
  'projects',
  'versions',
  'slides',
  'templates',
  'jobs',
  'publications',
] as const
export type TableName = (typeof TABLE_NAMES)[number]

/** Keys of `map` grouped into sets, created on first use. */
class GroupIndex {
  readonly #groups = new Map<string, Set<string>>()
  add(group: string, id: string): void {
    let set = this.#groups.get(group)
    if (set === undefined) this.#groups.set(group, (set = new Set()))
    set.add(id)
  }
  delete(group: string, id: string): void {
    this.#groups.get(group)?.delete(id)
  }
  get(group: string): ReadonlySet<string> {
    return this.#groups.get(group) ?? EMPTY
  }
}
const EMPTY: ReadonlySet<string> = new Set()

/**
 * One emulated world: every record of every entity, with the indexes the API
 * reads through. A world is created empty and filled from fixtures or from a
 * state document; two worlds share nothing.
 *
 * Every write goes through a `Table`, and every table reports its changes to
 * its listeners: that one place keeps the indexes current. `onChange`
 * listeners (persistence, the live pages) hear of committed changes only:
 * a `transaction` is all or nothing.
 */
export class World {
  readonly users = new Table('users', UserRecord)
  readonly teams = new Table('teams', TeamRecord)
  readonly memberships = new Table('memberships', MembershipRecord)
  readonly apiKeys = new Table('apiKeys', ApiKeyRecord)
  readonly subdomains = new Table('subdomains', SubdomainRecord)
  readonly domains = new Table('domains', DomainRecord)
  readonly projects = new Table('projects', ProjectRecord)
  readonly versions = new Table('versions', VersionRecord)
  readonly slides = new Table('slides', SlideRecord)
  readonly templates = new Table('templates', TemplateRecord)
  readonly jobs = new Table('jobs', JobRecord)
  readonly publications = new Table('publications', PublicationRecord)

  readonly sequence: Sequence
  readonly ids: IdFactory

  readonly #apiKeyByValue = new Map<string, string>()
  readonly #projectBySlug = new Map<string, string>()
  readonly #subdomainByLabel = new Map<string, string>()
  readonly #domainByHostname = new Map<string, string>()
  readonly #projectByPlacement = new Map<string, string>()
  readonly #publicationByProject = new Map<string, string>()
  readonly #teamsOfUser = new GroupIndex()
  readonly #membersOfTeam = new GroupIndex()
  readonly #slidesOfProject = new GroupIndex()
  readonly #subdomainsOfTeam = new GroupIndex()
  readonly #domainsOfTeam = new GroupIndex()
  readonly #projectsByTeam = new Map<string, RecencyIndex>()
  readonly #projectsByCollaborator = new Map<string, RecencyIndex>()
  readonly #templatesByTeam = new Map<string, RecencyIndex>()
  readonly #listeners: Array<(change: Change<unknown>) => void> = []
  /** While a transaction is open: how to undo each of its writes (shared with every table), and its changes not yet told. */
  #undoLog: Array<() => void> | undefined
  #uncommitted: Change<unknown>[] | undefined
  /** True while a failed transaction's writes are undone: nothing of them is told. */
  #undoing = false
  /** True while a world is built from fixtures (`withoutChecks`). */
  #building = false
  /**
   * While a world is filled as a whole (`fromState`, or built from fixtures
   * by `withoutChecks`): the keys of each recency index, by index and group,
   * gathered unsorted with the keys removed meanwhile, and sorted once when
   * the world is filled or first read. A search and a splice per key cost
   * 100,000-project worlds a few hundred milliseconds.
   */
  #gathering: Map<Map<string, RecencyIndex>, Map<string, Gathered>> | undefined

  constructor(
    readonly seed: number,
    sequence = 0,
  ) {
    this.sequence = { value: sequence }
    const next = createIdFactory(seed, this.sequence)
    // A hand-edited state document may carry a lowered sequence: never
    // reissue an id that a record already has. (A world being built from
    // fixtures has only ids of this very sequence: no check needed.)
    this.ids = (prefix, length) => {
      for (;;) {
        const id = next(prefix, length)
        if (this.#building || !TABLE_NAMES.some((name) => this.table(name).get(id) !== undefined)) return id
      }
    }

    this.apiKeys.onChange(({ prev, next }) => {
      if (prev) this.#apiKeyByValue.delete(prev.key)
      if (next) this.#apiKeyByValue.set(next.key, next.id)
    })
    this.memberships.onChange(({ prev, next }) => {
      if (prev) {
        this.#teamsOfUser.delete(prev.userId, prev.teamId)
        this.#membersOfTeam.delete(prev.teamId, prev.userId)
      }
      if (next) {
        this.#teamsOfUser.add(next.userId, next.teamId)
        this.#membersOfTeam.add(next.teamId, next.userId)
      }
    })
    this.subdomains.onChange(({ prev, next }) => {
      if (prev) {
        this.#subdomainByLabel.delete(prev.subdomain)
        this.#subdomainsOfTeam.delete(prev.teamId, prev.id)
      }
      if (next) {
        this.#subdomainByLabel.set(next.subdomain, next.id)
        this.#subdomainsOfTeam.add(next.teamId, next.id)
      }
    })
    this.domains.onChange(({ prev, next }) => {
      if (prev) {
        this.#domainsOfTeam.delete(prev.teamId, prev.id)
        this.#domainByHostname.delete(prev.hostname)
      }
      if (next) {
        this.#domainsOfTeam.add(next.teamId, next.id)
        this.#domainByHostname.set(next.hostname, next.id)
      }
    })
    this.projects.onChange(({ prev, next }) => {
      if (prev) {
        this.#projectBySlug.delete(prev.slug)
        this.#projectByPlacement.delete(placementKey(prev.placement))
        const key = { at: prev.updatedAt, id: prev.id }
        this.#unindex(this.#projectsByTeam, prev.teamId, key)
        for (const userId of prev.collaborators) this.#unindex(this.#projectsByCollaborator, userId, key)
      }
      if (next) {
        this.#projectBySlug.set(next.slug, next.id)
        this.#projectByPlacement.set(placementKey(next.placement), next.id)
        const key = { at: next.updatedAt, id: next.id }
        this.#index(this.#projectsByTeam, next.teamId, key)
        for (const userId of next.collaborators) this.#index(this.#projectsByCollaborator, userId, key)
      }
    })
    this.slides.onChange(({ prev, next }) => {
      if (prev) this.#slidesOfProject.delete(prev.projectId, prev.id)
      if (next) this.#slidesOfProject.add(next.projectId, next.id)
    })
    this.templates.onChange(({ prev, next }) => {
      if (prev) this.#unindex(this.#templatesByTeam, prev.teamId, { at: prev.updatedAt, id: prev.id })
      if (next) this.#index(this.#templatesByTeam, next.teamId, { at: next.updatedAt, id: next.id })
    })
    this.publications.onChange(({ prev, next }) => {
      if (prev) this.#publicationByProject.delete(prev.projectId)
      if (next) this.#publicationByProject.set(next.projectId, next.id)
    })

    // Listeners hear of committed changes only: those of an open transaction wait for it to succeed.
    for (const name of TABLE_NAMES) {
      this.table(name).onChange((change) => {
        if (this.#undoing) return
        if (this.#uncommitted !== undefined) this.#uncommitted.push(change as Change<unknown>)
        else for (const listener of this.#listeners) listener(change as Change<unknown>)
      })
    }
  }

  /**
   * Runs `task` as one write, all or nothing. If it throws (or its promise
   * rejects), every write it made is undone in reverse order (the tables'
   * own listeners, which keep the indexes, follow each step back), the id
   * sequence goes back to where it was, and the error is rethrown.
   * `onChange` listeners (the pages' streams, persistence) hear of its
   * changes once it has succeeded, in order, and of a failed one nothing.
   * A transaction inside another is undone alone when it fails and
   * commits with the outer one. Run it under the emulator's lock: no other
   * write may interleave with it.
   */
  async transaction<T>(task: () => Promise<T> | T): Promise<T> {
    const outer = this.#undoLog === undefined
    if (outer) this.#open()
    const log = this.#undoLog!
    const uncommitted = this.#uncommitted!
    const mark = log.length
    const told = uncommitted.length
    const sequence = this.sequence.value
    let result: T
    try {
      result = await task()
    } catch (error) {
      this.#undoing = true
      try {
        for (let i = log.length - 1; i >= mark; i--) log[i]!()
      } finally {
        this.#undoing = false
        log.length = mark
        uncommitted.length = told
        this.sequence.value = sequence
        if (outer) this.#close()
      }
      throw error
    }
    if (outer) {
      this.#close()
      for (const change of uncommitted) for (const listener of this.#listeners) listener(change)
    }
    return result
  }

  /** Whether a transaction is open. */
  get inTransaction(): boolean {
    return this.#undoLog !== undefined
  }

  #open(): void {
    this.#undoLog = []
    this.#uncommitted = []
    for (const name of TABLE_NAMES) this.table(name).undoLog = this.#undoLog
  }

  #close(): void {
    this.#undoLog = undefined
    this.#uncommitted = undefined
    for (const name of TABLE_NAMES) this.table(name).undoLog = undefined
  }

  /** Adds `key` to the recency index of `group` in `indexes` (or to the keys gathered for it). */
  #index(indexes: Map<string, RecencyIndex>, group: string, key: RecencyKey): void {
    const gathering = this.#gathering
    if (gathering === undefined) {
      indexFor(indexes, group).insert(key)
      return
    }
    let groups = gathering.get(indexes)
    if (groups === undefined) gathering.set(indexes, (groups = new Map()))
    let gathered = groups.get(group)
    if (gathered === undefined) groups.set(group, (gathered = { keys: [], removed: undefined }))
    gathered.keys.push({ at: key.at, id: key.id })
  }

  /**
   * Removes exactly `key` (one of it) from the recency index of `group` in
   * `indexes`; while gathering, notes it, to be taken out of the keys
   * gathered (a key removed is always one stored before: the key of a
   * record's previous version).
   */
  #unindex(indexes: Map<string, RecencyIndex>, group: string, key: RecencyKey): void {
    const gathered = this.#gathering?.get(indexes)?.get(group)
    if (gathered === undefined) {
      indexes.get(group)?.remove(key)
      return
    }
    gathered.removed ??= new Map()
    const dates = gathered.removed.get(key.id)
    if (dates === undefined) gathered.removed.set(key.id, [key.at])
    else dates.push(key.at)
  }

  /** Starts gathering recency keys, on a world whose recency indexes are all empty. */
  #gather(): void {
    if (this.#projectsByTeam.size === 0 && this.#projectsByCollaborator.size === 0 && this.#templatesByTeam.size === 0) {
      this.#gathering = new Map()
    }
  }

  /** Sorts the gathered keys into their recency indexes, and stops gathering. */
  #settleIndexes(): void {
    const gathering = this.#gathering
    if (gathering === undefined) return
    this.#gathering = undefined
    for (const [indexes, groups] of gathering) {
      for (const [group, { keys, removed }] of groups) {
        indexes.set(group, RecencyIndex.of(removed === undefined ? keys : withoutRemoved(keys, removed)))
      }
    }
  }

  /**
   * Runs `build` with every table's write checks off, for code that writes
   * records it constructs itself from input validated before (the build of
   * a world from a fixtures document); checks are on again afterwards.
   */
  async withoutChecks<T>(build: () => Promise<T>): Promise<T> {
    for (const name of TABLE_NAMES) this.table(name).checked = false
    this.#building = true
    this.#gather()
    try {
      return await build()
    } finally {
      this.#settleIndexes()
      this.#building = false
      for (const name of TABLE_NAMES) this.table(name).checked = true
    }
  }

  table(name: TableName): Table<{ id: string }> {
    return this[name] as unknown as Table<{ id: string }>
  }

  /** Calls `listener` after every change to any record. */
  onChange(listener: (change: Change<unknown>) => void): void {
    this.#listeners.push(listener)
  }

  apiKeyByValue(value: string): ApiKeyRecord | undefined {
    const id = this.#apiKeyByValue.get(value)
    return id === undefined ? undefined : this.apiKeys.get(id)
  }

  projectBySlug(slug: string): ProjectRecord | undefined {
    const id = this.#projectBySlug.get(slug)
    return id === undefined ? undefined : this.projects.get(id)
  }

  subdomainByLabel(label: string): SubdomainRecord | undefined {
    const id = this.#subdomainByLabel.get(label)
    return id === undefined ? undefined : this.subdomains.get(id)
  }

  domainByHostname(hostname: string): DomainRecord | undefined {
    const id = this.#domainByHostname.get(hostname)
    return id === undefined ? undefined : this.domains.get(id)
  }

  /** The project placed at `path` of a subdomain or domain (by record id). */
  projectAt(where: { subdomainId: string } | { domainId: string }, path: string): ProjectRecord | undefined {
    const key =
      'subdomainId' in where
        ? placementKey({ type: 'subdomain', subdomainId: where.subdomainId, path })
        : placementKey({ type: 'domain', domainId: where.domainId, path })
    const id = this.#projectByPlacement.get(key)
    return id === undefined ? undefined : this.projects.get(id)
  }

  publicationOf(projectId: string): PublicationRecord | undefined {
    const id = this.#publicationByProject.get(projectId)
    return id === undefined ? undefined : this.publications.get(id)
  }

  /**
   * How many distinct values the unique indexes hold. Equal to the record
   * counts of a state document this world was loaded from, they prove its
   * slugs, placements, subdomain labels, key values, hostnames and
   * publications unique without indexing them again.
   */
  uniqueValueCounts(): Record<
    'projectSlugs' | 'projectPlacements' | 'subdomainLabels' | 'apiKeyValues' | 'domainHostnames' | 'publicationProjects',
    number
  > {
    return {
      projectSlugs: this.#projectBySlug.size,
      projectPlacements: this.#projectByPlacement.size,
      subdomainLabels: this.#subdomainByLabel.size,
      apiKeyValues: this.#apiKeyByValue.size,
      domainHostnames: this.#domainByHostname.size,
      publicationProjects: this.#publicationByProject.size,
    }
  }

  /** Ids of the teams `userId` is a member of. */
  teamIdsOf(userId: string): ReadonlySet<string> {
    return this.#teamsOfUser.get(userId)
  }

  /** Ids of the members of `teamId`. */
  memberIdsOf(teamId: string): ReadonlySet<string> {
    return this.#membersOfTeam.get(teamId)
  }

  /** The slides of a project in presentation order. */
  slidesOf(projectId: string): SlideRecord[] {
    const slides: SlideRecord[] = []
    for (const id of this.#slidesOfProject.get(projectId)) slides.push(this.slides.get(id)!)
    return slides.sort((a, b) => a.position - b.position || (a.id < b.id ? -1 : 1))
  }

  subdomainsOfTeam(teamId: string): SubdomainRecord[] {
    return [...this.#subdomainsOfTeam.get(teamId)].map((id) => this.subdomains.get(id)!)
  }

  domainsOfTeam(teamId: string): DomainRecord[] {
    return [...this.#domainsOfTeam.get(teamId)].map((id) => this.domains.get(id)!)
  }

  /** Projects owned by a team, newest `updatedAt` first, after `cursor`. */
  projectsOfTeam(teamId: string, cursor?: RecencyKey): Iterator<RecencyKey> {
    this.#settleIndexes()
    return (this.#projectsByTeam.get(teamId) ?? EMPTY_INDEX).after(cursor)
  }

  /** Projects shared with a user as collaborator, newest first, after `cursor`. */
  projectsSharedWith(userId: string, cursor?: RecencyKey): Iterator<RecencyKey> {
    this.#settleIndexes()
    return (this.#projectsByCollaborator.get(userId) ?? EMPTY_INDEX).after(cursor)
  }

  /** Templates of a team, newest `updatedAt` first, after `cursor`. */
  templatesOfTeam(teamId: string, cursor?: RecencyKey): Iterator<RecencyKey> {
    this.#settleIndexes()
    return (this.#templatesByTeam.get(teamId) ?? EMPTY_INDEX).after(cursor)
  }

  /** The whole world as a state document (with a manual clock's time, when given). */
  toState(clockNow?: string): StateDocument {
    const doc: Record<string, unknown> = {
      format: STATE_FORMAT,
      seed: this.seed,
      sequence: this.sequence.value,
    }
    if (clockNow !== undefined) doc.clock = { now: clockNow }
    for (const name of TABLE_NAMES) doc[name] = this.table(name).all()
    return doc as StateDocument
  }

  /**
   * A new world holding exactly the records of `doc`, which the caller has
   * validated as a whole (`StateDocument` and `integrityProblems`), or which
   * the build validated: the records are not checked again. The world takes
   * ownership of them.
   */
  static fromState(doc: StateDocument): World {
    const world = new World(doc.seed, doc.sequence)
    world.#gather()
    for (const name of TABLE_NAMES) world.table(name).load(doc[name])
    world.#settleIndexes()
    return world
  }
}

const EMPTY_INDEX = new RecencyIndex()

/** The keys of one recency index gathered while a world is filled, and those removed meanwhile (dates by id). */
interface Gathered {
  keys: RecencyKey[]
  removed: Map<string, string[]> | undefined
}

/** `keys` less one occurrence of each removed key. */
function withoutRemoved(keys: RecencyKey[], removed: Map<string, string[]>): RecencyKey[] {
  return keys.filter((key) => {
    const dates = removed.get(key.id)
    const at = dates === undefined ? -1 : dates.indexOf(key.at)
    if (at === -1) return true
    dates!.splice(at, 1)
    return false
  })
}

/**
 * The key of a placement in the world's placement index: its kind, the
 * subdomain's or domain's id and the path, the id's length first so that no
 * two placements share a key whatever their ids hold. Integrity checks use
 * it too, so what they call a duplicate is what the index would lose.
 */
export function placementKey(
  placement: { type: 'subdomain'; subdomainId: string; path: string } | { type: 'domain'; domainId: string; path: string },
): string {
  return placement.type === 'subdomain'
    ? `sub:${placement.subdomainId.length}:${placement.subdomainId}${placement.path}`
    : `dom:${placement.domainId.length}:${placement.domainId}${placement.path}`
}

function indexFor(map: Map<string, RecencyIndex>, key: string): RecencyIndex {
  let index = map.get(key)
  if (index === undefined) map.set(key, (index = new RecencyIndex()))
  return index
}
