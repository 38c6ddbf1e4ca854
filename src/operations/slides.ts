import { RENDERING_GUIDE } from '../content/rendering-guide.js'
import { blankSlideFiles } from '../content/slides.js'
import { fail } from '../core/errors.js'
import { accessibleProject } from '../model/access.js'
import { addVersion, appendSlides } from '../model/projects.js'
import {
  FONT_TOKEN_NAME,
  HEX_COLOR,
  PALETTE_TOKEN_NAME,
  SLIDE_FILE_NAMES,
  type PartialSlideFiles,
  type SlideFiles,
  type SlideGuideResponse,
} from '../schemas/index.js'
import { RENDER_TIMEOUT_MS, SLIDE_HEIGHT, SLIDE_IMPORTS, SLIDE_WIDTH } from '../model/slide-box.js'
import type { ProjectRecord, SlideRecord } from '../store/records.js'
import type { World } from '../store/world.js'
import type { OperationHandlers } from './context.js'

/**
 * The slide `slideId` of `project`. A slide of another project is reported
 * exactly like a missing one, so slide ids cannot be reached through a slug
 * the key can access.
 */
export function projectSlide(world: World, project: ProjectRecord, slideId: string): SlideRecord {
  const slide = world.slides.get(slideId)
  if (slide === undefined || slide.projectId !== project.id) {
    throw fail.notFound('Slide', `no slide "${slideId}" in project "${project.slug}"`)
  }
  return slide
}

/** The rules `GET …/slides/guide` states; the same ones `updateSlide` and `createSlide` enforce. */
const FILE_RULES: SlideGuideResponse['files'] = [
  {
    name: 'slide.tsx',
    rules: [
      'Must parse as TypeScript with JSX (TSX), as an ES module.',
      'Must have a default export that is a value: the slide component (`export default function Slide() {…}` or `export { Slide as default }`).',
      'Reads its content with `import content from "./slide.content.json"`.',
      'The editor, the published site and the overview show what the component renders, with React 19, in a browser sandbox (never in the emulator’s process). The render is static: hooks give their initial state; effects, event handlers and timers never run.',
      `May import only ${SLIDE_IMPORTS.map((name) => `\`${name}\``).join(', ')} (this slide’s own files, parsed). JSX uses the automatic runtime: no \`import React\` is needed. Any other import shows a message in the slide’s place.`,
      'Receives as props the `default` of each control in slide.controls.json, by its `id`.',
      'Style with the theme’s CSS variables (`var(--primary)`, `var(--background)`, …), the project’s tokens (`var(--brand-blue)`, `var(--font-heading)`), the derived `--slide-bg`, `--slide-fg`, `--slide-title`, `--slide-muted`, `--slide-decor`, `--slide-card`, `--slide-border`, `--slide-radius`, `--slide-font` and `--slide-heading-font`, and the base stylesheet’s class names (`slide`, `slide__title`, …): see `rendering`.',
      `The slide is a ${SLIDE_WIDTH} × ${SLIDE_HEIGHT} box (a CSS size container), scaled to fit. A component that throws, or runs longer than ${RENDER_TIMEOUT_MS / 1000} s, shows its error over the slide’s content rendering.`,
    ],
  },
  {
    name: 'slide.content.json',
    rules: [
      'Must be valid JSON whose top-level value is an object or an array.',
      'Generated slides and the content view render `{"title": string, "blocks": [...]}`; block types: heading {text}, text {text}, bullets {items: string[]}, quote {text, author?}, stat {value, label}, image {url, alt}.',
      'An image `url` is a `data:image/…` URL, a path on the emulator’s own origin, or a remote http(s) URL; the emulator is offline by default, so a remote image shows as a placeholder with its `alt` text unless it runs with --allow-remote-images. Always give `alt`.',
      'A block that does not follow these conventions is shown as a notice saying what is wrong.',
    ],
  },
  {
    name: 'slide.controls.json',
    rules: [
      'Must be valid JSON whose top-level value is an object or an array.',
      'Convention: `{"controls": [{"id", "type", "label", "default"}]}`, one control per prop of the component. Types: color, select (with `options`), text, number (`min`, `max`, `step`), toggle; the editor shows any other type as a text input.',
      'Ids must be unique and not `__proto__`, `constructor`, `key` or `ref`; the editor’s controls panel shows each control as an input and re-renders the slide with its value, saving nothing.',
      'The content rendering (the fallback, and the editor’s Content view) applies the `default` of an `align` control (left, center or right) and of an `accent` control (a colour or a `var(--token)`, used for the title; made readable against the background when it is not).',
    ],
  },
]

const VALIDATION_RULE =
  'PUT /projects/{slug}/slides/{slideId} and POST /projects/{slug}/slides check every file sent before saving any. A rejection is 400 VALIDATION_ERROR whose hint gives the first problem of each invalid file as `file:line:column: message` (1-based line and column), joined by "; "; nothing is saved.'

/**
 * Checks slide files before anything is saved (400 naming each problem).
 * The parsers (Babel's, jsonc-parser) load on the first slide write: no
 * other request needs them, so they stay out of the start and of a
 * browser app's first chunk.
 */
export async function assertValidFiles(files: PartialSlideFiles): Promise<void> {
  if (Object.keys(files).length === 0) return
  const { assertValidSlideFiles } = await import('../model/slide-validation.js')
  assertValidSlideFiles(files)
}

export const slideHandlers: OperationHandlers<
  'listSlides' | 'createSlide' | 'getSlideGuide' | 'getSlideFiles' | 'updateSlide' | 'startSlideEditing' | 'stopSlideEditing'
> = {
  listSlides({ world, principal, params }) {
    const project = accessibleProject(world, principal, params.slug)
    return { slides: world.slidesOf(project.id).map((slide) => ({ id: slide.id, name: slide.name })) }
  },

  async createSlide({ world, env, principal, params, body }) {
    const project = accessibleProject(world, principal, params.slug)
    const given = body.files ?? {}
    await assertValidFiles(given)
    const files: SlideFiles = blankSlideFiles()
    for (const name of SLIDE_FILE_NAMES) {
      const text = given[name]
      if (text !== undefined) files[name] = text
    }
    const name = body.name ?? `Slide ${world.slidesOf(project.id).length + 1}`
    const at = env.clock.iso()
    const [slide] = appendSlides(world, project.id, [{ name, files }], at)
    const { version } = addVersion(world, project.id, `Added slide "${name}"`, at)
    return { slideId: slide!.id, versionId: version.id }
  },

  getSlideGuide({ world, principal, params }) {
    const project = accessibleProject(world, principal, params.slug)
    const tokens = project.config.tokens
    return {
      tokens: {
        palette: {
          namePattern: PALETTE_TOKEN_NAME.source,
          valuePattern: HEX_COLOR.source,
          example: { name: '--brand-blue', value: '#1d4ed8' },
        },
        fonts: {
          namePattern: FONT_TOKEN_NAME.source,
          example: { name: '--font-heading', family: 'Inter' },
        },
        usage:
          'Define tokens with PUT /projects/{slug}/config {"config": {"tokens": {"palette": [...], "fonts": [...]}}} (tokens is replaced as a whole), then use them in slide.tsx as CSS custom properties: var(--brand-blue), var(--font-heading). Color token names start with --, font token names with --font-.',
      },
      files: FILE_RULES.map((file) => ({ name: file.name, rules: [...file.rules] })),
      validation: VALIDATION_RULE,
      rendering: structuredClone(RENDERING_GUIDE),
      projectTokens: {
        palette: (tokens?.palette ?? []).map(({ name, value }) => ({ name, value })),
        fonts: (tokens?.fonts ?? []).map(({ name, family, url }) => (url === undefined ? { name, family } : { name, family, url })),
      },
    }
  },

  getSlideFiles({ world, principal, params }) {
    const project = accessibleProject(world, principal, params.slug)
    const slide = projectSlide(world, project, params.slideId)
    return { files: { ...slide.files } }
  },

  async updateSlide({ world, env, principal, params, body }) {
    const project = accessibleProject(world, principal, params.slug)
    const slide = projectSlide(world, project, params.slideId)
    // Every file sent is checked before anything is written: all or nothing.
    await assertValidFiles(body.files)
    const at = env.clock.iso()
    const updated = world.slides.update(slide.id, (draft) => {
      for (const name of SLIDE_FILE_NAMES) {
        const text = body.files[name]
        if (text !== undefined) draft.files[name] = text
      }
      draft.updatedAt = at
    })
    const { version } = addVersion(world, project.id, `Updated slide "${slide.name}"`, at)
    return { slideId: updated.id, versionId: version.id, files: { ...updated.files } }
  },

  startSlideEditing({ world, env, principal, params, body }) {
    const project = accessibleProject(world, principal, params.slug)
    const slide = projectSlide(world, project, params.slideId)
    world.slides.update(slide.id, (draft) => {
      draft.editing = { agentName: body.agentName ?? null, editPrompt: body.editPrompt ?? null, since: env.clock.iso() }
    })
    return { success: true }
  },

  stopSlideEditing({ world, principal, params }) {
    const project = accessibleProject(world, principal, params.slug)
    const slide = projectSlide(world, project, params.slideId)
    if (slide.editing !== null) {
      world.slides.update(slide.id, (draft) => {
        draft.editing = null
      })
    }
    return { success: true }
  },
}
