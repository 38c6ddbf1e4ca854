/**
 * What a page hands the renderer for one slide, computed on the emulator's
 * side: the transpiled component (or why it cannot run), its two JSON
 * files as text, the props from `slide.controls.json` (each control's
 * `default` by its `id`) with a note for each control that cannot be a
 * prop, the fields of the editor's controls panel, and the remote images
 * its content names (allowed with `--allow-remote-images`). Nothing here
 * runs slide code.
 */
import { checkSlideJson, formatProblem, type SlideFileProblem } from '../../src/model/slide-validation.js'
import type { SlideFiles } from '../../src/schemas/index.js'
import { MAX_REMOTE_IMAGE_URL, MAX_REMOTE_IMAGES } from './limits.js'
import { sha256Hex, type SlideTranspiler } from './transpile.js'

/** One control of the editor's panel. */
export interface ControlField {
  id: string
  /** `color`, `select`, `text`, `number`, `toggle` (or `boolean`), or another type (shown as a text input). */
  type: string
  label: string
  default: unknown
  options?: Array<{ label: string; value: unknown }>
  min?: number
  max?: number
  step?: number
}

/** A slide as the renderer receives it (part of every page's deck view, as JSON). */
export interface SlideRenderData {
  /** Identifies the three files: a page renders a slide again only when this (or a prop) changes. */
  key: string
  /** The transpiled component, or null when it cannot run. */
  code: string | null
  /** The transpiled code's source map (`mappings`), to place a runtime error in `slide.tsx`. */
  mappings: string
  /** Why the component cannot run (a syntax error, no default export, unreadable content), with its position. */
  problem: SlideFileProblem | null
  /** `slide.content.json` as stored (the component's `./slide.content.json`). */
  content: string
  /** `slide.controls.json` as stored (the component's `./slide.controls.json`). */
  controls: string
  /** The props: each control's `default` by its `id`. */
  props: Record<string, unknown>
  /** The controls panel's fields, in file order. */
  fields: ControlField[]
  /** Why some controls give no prop (another shape, a duplicate or reserved id); the other props still work. */
  notes: string[]
  /** Remote image URLs the content names verbatim: the only remote images the slide may load (`--allow-remote-images`). */
  images: string[]
}

/** Control ids that cannot be props: React takes `key` and `ref`; `__proto__` and `constructor` would change the props object. */
export const RESERVED_CONTROL_IDS = ['__proto__', 'constructor', 'key', 'ref'] as const

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

const quote = (text: string) => JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text)

function readOptions(value: unknown): ControlField['options'] {
  if (!Array.isArray(value)) return undefined
  const options: NonNullable<ControlField['options']> = []
  for (const option of value.slice(0, 100)) {
    if (typeof option === 'string' || typeof option === 'number' || typeof option === 'boolean')
      options.push({ label: String(option), value: option })
    else if (isRecord(option) && 'value' in option) {
      options.push({ label: typeof option.label === 'string' ? option.label : String(option.value), value: option.value })
    }
  }
  return options
}

const finite = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined)

/** The props, panel fields and notes of a `slide.controls.json` text. */
export function readControls(text: string): { props: Record<string, unknown>; fields: ControlField[]; notes: string[] } {
  const props: Record<string, unknown> = {}
  const fields: ControlField[] = []
  const notes: string[] = []
  const none = { props, fields, notes }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    const problem = checkSlideJson('slide.controls.json', text)
    notes.push(`${problem === undefined ? 'slide.controls.json is not JSON' : formatProblem(problem)}. The component gets no props.`)
    return none
  }
  if (!isRecord(value) || !Array.isArray(value.controls)) {
    notes.push('slide.controls.json is not {"controls": [{"id", "type", "label", "default"}, …]}. The component gets no props.')
    return none
  }
  const seen = new Map<string, number>()
  value.controls.forEach((control: unknown, index) => {
    const n = index + 1
    if (!isRecord(control) || typeof control.id !== 'string' || control.id === '') {
      notes.push(`Control ${n} has no "id" (a non-empty string), so it gives no prop.`)
      return
    }
    const id = control.id
    if ((RESERVED_CONTROL_IDS as readonly string[]).includes(id)) {
      notes.push(
        `Control ${n} has the id ${quote(id)}, which cannot be a prop (${RESERVED_CONTROL_IDS.join(', ')} are reserved: React takes key and ref, and the others would change the props object).`,
      )
      return
    }
    const first = seen.get(id)
    if (first !== undefined) {
      notes.push(`Control ${n} repeats the id ${quote(id)} of control ${first}; only the first gives the prop.`)
      return
    }
    seen.set(id, n)
    const fallback = control.default
    props[id] = fallback
    const field: ControlField = {
      id,
      type: typeof control.type === 'string' && control.type !== '' ? control.type : 'text',
      label: typeof control.label === 'string' && control.label.trim() !== '' ? control.label : id,
      default: fallback,
    }
    const options = readOptions(control.options)
    if (options !== undefined) field.options = options
    for (const bound of ['min', 'max', 'step'] as const) {
      const number = finite(control[bound])
      if (number !== undefined) field[bound] = number
    }
    fields.push(field)
  })
  return { props, fields, notes }
}

/** The remote http(s) URLs a content file's strings are, verbatim (not those on the emulator's own origin). */
export function remoteImageUrls(content: unknown, origin: string): string[] {
  const found = new Set<string>()
  const visit = (value: unknown, depth: number): void => {
    if (found.size >= MAX_REMOTE_IMAGES || depth > 64) return
    if (typeof value === 'string') {
      if (value.length > MAX_REMOTE_IMAGE_URL || !/^https?:\/\//i.test(value)) return
      let url: URL
      try {
        url = new URL(value)
      } catch {
        return
      }
      if (url.origin !== origin && url.username === '' && url.password === '') found.add(value)
      return
    }
    if (Array.isArray(value)) for (const item of value) visit(item, depth + 1)
    else if (isRecord(value)) for (const item of Object.values(value)) visit(item, depth + 1)
  }
  visit(content, 0)
  return [...found]
}

/** The render data of one slide. `allowRemoteImages` and `origin` decide which remote images it may load. */
export function slideRenderData(
  files: SlideFiles,
  transpiler: SlideTranspiler,
  images: { allowRemote: boolean; origin: string },
): SlideRenderData {
  const content = files['slide.content.json']
  const controls = files['slide.controls.json']
  const transpiled = transpiler.transpile(files['slide.tsx'])
  let problem: SlideFileProblem | null = transpiled.ok ? null : transpiled.problem
  let parsedContent: unknown
  try {
    parsedContent = JSON.parse(content)
  } catch {
    // A file stored without validation (a state import, --fixtures): the component cannot import it.
    problem ??= checkSlideJson('slide.content.json', content) ?? { file: 'slide.content.json', line: 1, column: 1, message: 'Not JSON' }
  }
  const { props, fields, notes } = readControls(controls)
  return {
    key: sha256Hex(`${transpiled.key}\u0000${content}\u0000${controls}`).slice(0, 32),
    code: transpiled.ok && problem === null ? transpiled.code : null,
    mappings: transpiled.ok ? transpiled.mappings : '',
    problem,
    content,
    controls,
    props,
    fields,
    notes,
    images: images.allowRemote && parsedContent !== undefined ? remoteImageUrls(parsedContent, images.origin) : [],
  }
}
