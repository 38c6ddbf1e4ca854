import type { PresentationEmulatorBase, StateDocument } from '../../src/index.js'

/** The tables of a state document. */
export type TableName = Exclude<keyof StateDocument, 'format' | 'seed' | 'sequence' | 'clock'>
/** A record of one table. */
export type RecordOf<T extends TableName> = StateDocument[T][number]

/**
 * The world as the control plane shows it (`GET /_emulator/state`, here
 * `control.getState()`), with the lookups integration tests need. Tests
 * under `test/` read state through this or the public API, never the
 * emulator's internals, so they hold however the world is kept.
 */
export class WorldView {
  constructor(readonly doc: StateDocument) {}

  /** Every record as JSON text, without the manual clock's time: equal before and after anything that changes nothing. */
  recordsText(): string {
    const { clock: _clock, ...records } = this.doc
    return JSON.stringify(records)
  }

  all<T extends TableName>(table: T): Array<RecordOf<T>> {
    return this.doc[table] as Array<RecordOf<T>>
  }

  count(table: TableName): number {
    return this.doc[table].length
  }

  get<T extends TableName>(table: T, id: string): RecordOf<T> | undefined {
    return this.all(table).find((record) => record.id === id)
  }

  project(id: string) {
    return this.get('projects', id)
  }

  job(id: string) {
    return this.get('jobs', id)
  }

  team(id: string) {
    return this.get('teams', id)
  }

  template(id: string) {
    return this.get('templates', id)
  }

  projectBySlug(slug: string) {
    return this.doc.projects.find((project) => project.slug === slug)
  }

  /** A project's slides in presentation order. */
  slidesOf(projectId: string) {
    return this.doc.slides
      .filter((slide) => slide.projectId === projectId)
      .sort((a, b) => a.position - b.position || (a.id < b.id ? -1 : 1))
  }

  /** The teams a user is a member of. */
  teamIdsOf(userId: string): string[] {
    return this.doc.memberships.filter((membership) => membership.userId === userId).map((membership) => membership.teamId)
  }

  apiKeyByValue(value: string) {
    return this.doc.apiKeys.find((key) => key.key === value)
  }

  /** The snapshot a published project's site serves. */
  publicationOf(projectId: string) {
    return this.doc.publications.find((publication) => publication.projectId === projectId)
  }
}

/** The emulator's whole state, read through its control plane. */
export async function worldOf(emulator: Pick<PresentationEmulatorBase, 'control'>): Promise<WorldView> {
  return new WorldView(await emulator.control.getState())
}
