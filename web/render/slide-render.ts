/**
 * What a page hands the renderer for one slide, computed on the emulator's
 * side: the transpiled component (or why it cannot run), its two JSON
 * files as text, the props from `slide.controls.json` (each control's
 * `default` by its `id`) with a note for each control that cannot be a
 * prop, the fields of the editor's controls panel, and the images its
 * content names (`image-urls.ts`: the only ones besides `data:` it may
 * load). Nothing here runs slide code.
 */
import { checkSlideJson, formatProblem, type SlideFileProblem } from '../../src/model/slide-validation.js'
import type { SlideFiles } from '../../src/schemas/index.js'
import { slideImages } from './image-urls.js'
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
  /**
   * The images the content names, the only ones besides `data:` the slide may load (`slideImages`):
   * paths of the emulator's own origin outside its API and control plane, and remote URLs with
   * `--allow-remote-images`. Its display frame's policy names exactly these.
   */
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

/** The render data of one slide. `origin` and `allowRemote` decide which of the images its content names it may load. */
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
    images: parsedContent === undefined ? [] : slideImages(parsedContent, images.origin, images.allowRemote),
  }
}
