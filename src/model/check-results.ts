/**
 * The last check result of each slide (issue 33's badges): what the
 * editor's thumbnails and the dashboard's projects show beside each slide.
 * Every check that goes through the core's check service
 * (`slide-check-service.ts`: the control plane's check,
 * `emulator.control.checkSlides`, checked saving) is recorded here, under a
 * key made from what was checked: the slide's three files and the project's
 * config. A page reads a result only through `current`, which gives it only
 * while the slide's files and its project's config are still those it was
 * checked with: a result of older files, or of another theme, is never shown
 * as the slide's. Reading never starts a check.
 *
 * The store is bounded: `MAX_KEYS_PER_SLIDE` keys per slide (so a checked
 * save refused for new files does not push out the result of the files
 * still stored), `MAX_CHECKED_SLIDES` slides in all (the least recently
 * checked goes first), a slide's entry goes with the slide, and the whole
 * store is cleared when the world is replaced (a reset, a state import).
 * It is not part of the state document: results are a cache of what a
 * renderer said, not state of the service.
 *
 * Pure and synchronous (the core runs in browsers too): the key is the
 * core's cyrb53 token (`core/hash.ts`), not `node:crypto`.
 */
import { hashToken } from '../core/hash.js'
import type { ProjectConfig, SlideFiles } from '../schemas/index.js'
import type { Change } from '../store/table.js'
import type { SlideCheckInput, SlideCheckResult } from './slide-checker.js'

/** How many keys (files and config as checked) one slide keeps results for: the newest. */
export const MAX_KEYS_PER_SLIDE = 4

/** How many slides the store keeps results for in all; the least recently checked is dropped first. */
export const MAX_CHECKED_SLIDES = 10_000

/** The length of a check key, in base-36 characters (two 53-bit rounds of cyrb53: about 100 bits). */
const KEY_LENGTH = 20

/** JSON with every object's keys sorted, so two equal configs give the same text whatever order their keys were written in. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

/**
 * The key of a check: a token of the slide's three files and the project's
 * config. Equal files and an equal config (whatever the order of its keys)
 * give the same key; a change to any file or to the config, another.
 */
export function checkKey(files: SlideFiles, config: ProjectConfig): string {
  const text = stableJson([files['slide.tsx'], files['slide.content.json'], files['slide.controls.json'], config])
  return hashToken(text, KEY_LENGTH)
}

/** One stored result: what the check found, and the key of what it checked. */
interface StoredCheck {
  key: string
  result: SlideCheckResult
}

/** Which slide a result belongs to. */
export interface CheckedSlide {
  projectId: string
  slideId: string
}

/** What the pages read: a slide's current result, and word when one is recorded. */
export interface SlideCheckResultsReader {
  /** The slide's last result for exactly these files and this config, or undefined (never checked so, or since changed). */
  current(projectId: string, slideId: string, files: SlideFiles, config: ProjectConfig): SlideCheckResult | undefined
  /** How many results have been recorded or dropped so far: changes whenever what `current` could answer does. */
  readonly version: number
  /** Calls `listener` after each recorded result (and when the store is cleared, with no slide); returns the unsubscribe function. */
  onRecord(listener: (slide: CheckedSlide | undefined) => void): () => void
}

const slideKey = (projectId: string, slideId: string) => `${projectId}\u0000${slideId}`

/** The last check results of slides, by slide and by what was checked. */
export class SlideCheckResults implements SlideCheckResultsReader {
  /** By project and slide (`slideKey`), least recently checked first; each slide's results newest first. */
  readonly #bySlide = new Map<string, StoredCheck[]>()
  readonly #listeners: Array<(slide: CheckedSlide | undefined) => void> = []
  /** Bumped by `clear`: a check read from an older world records nothing. */
  #epoch = 0
  #version = 0

  /** How many slides have results. */
  get size(): number {
    return this.#bySlide.size
  }

  get version(): number {
    return this.#version
  }

  /**
   * A function that records a check's result, for a check whose snapshot is
   * read now: once the world is replaced (`clear`), it records nothing, so a
   * check still running through a reset leaves no result in the new world.
   */
  recorder(): (slide: CheckedSlide, input: SlideCheckInput, result: SlideCheckResult) => void {
    const epoch = this.#epoch
    return (slide, input, result) => {
      if (epoch === this.#epoch) this.record(slide, input, result)
    }
  }

  /** Stores `result` as the slide's result for `input` (its files and config), replacing an older one for the same key. */
  record(slide: CheckedSlide, input: SlideCheckInput, result: SlideCheckResult): void {
    const id = slideKey(slide.projectId, slide.slideId)
    const key = checkKey(input.files, input.config)
    const stored = (this.#bySlide.get(id) ?? []).filter((entry) => entry.key !== key)
    stored.unshift({ key, result: structuredClone(result) })
    if (stored.length > MAX_KEYS_PER_SLIDE) stored.length = MAX_KEYS_PER_SLIDE
    // Moved to the end: the most recently checked slide is dropped last.
    this.#bySlide.delete(id)
    this.#bySlide.set(id, stored)
    while (this.#bySlide.size > MAX_CHECKED_SLIDES) this.#bySlide.delete(this.#bySlide.keys().next().value!)
    this.#changed(slide)
  }

  current(projectId: string, slideId: string, files: SlideFiles, config: ProjectConfig): SlideCheckResult | undefined {
    const stored = this.#bySlide.get(slideKey(projectId, slideId))
    if (stored === undefined) return undefined
    const key = checkKey(files, config)
    return stored.find((entry) => entry.key === key)?.result
  }

  /** Drops a slide's results (the slide was deleted). */
  forget(projectId: string, slideId: string): void {
    if (this.#bySlide.delete(slideKey(projectId, slideId))) this.#changed({ projectId, slideId })
  }

  /** Drops the results of a slide the world removed: call with each change of the world. */
  observe(change: Change<unknown> | { table: '*' }): void {
    if (change.table !== 'slides' || !('next' in change) || change.next !== undefined) return
    const removed = change.prev as { id?: unknown; projectId?: unknown } | undefined
    if (typeof removed?.id === 'string' && typeof removed.projectId === 'string') this.forget(removed.projectId, removed.id)
  }

  /** Drops every result, and every result of a check still in progress (the world was replaced). */
  clear(): void {
    this.#epoch += 1
    const had = this.#bySlide.size > 0
    this.#bySlide.clear()
    if (had) this.#changed(undefined)
  }

  onRecord(listener: (slide: CheckedSlide | undefined) => void): () => void {
    this.#listeners.push(listener)
    return () => {
      const index = this.#listeners.indexOf(listener)
      if (index !== -1) this.#listeners.splice(index, 1)
    }
  }

  #changed(slide: CheckedSlide | undefined): void {
    this.#version += 1
    for (const listener of [...this.#listeners]) listener(slide)
  }
}
