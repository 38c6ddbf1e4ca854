/**
 * Slides on disk, as `presentation-emulator check FOLDER` reads them: a
 * slide is a folder holding any of `slide.tsx`, `slide.content.json` and
 * `slide.controls.json`. FOLDER is one slide, or a parent of several (found
 * at any depth below it, sorted by path; a slide folder's own subfolders
 * are not searched, nor `node_modules` and folders whose name starts with
 * a dot).
 *
 * Each slide's files are first checked as `PUT /projects/{slug}/slides/{id}`
 * checks them (the emulator's own validation): what `PUT` would refuse, and
 * a folder without `slide.tsx`, is the slide's result, an `error` of kind
 * `source` naming the file, its line and column. A JSON file that is
 * absent is a new slide's (`POST /projects/{slug}/slides`): empty content,
 * no controls.
 */
import { readdir, readFile, stat } from 'node:fs/promises'
import type { Stats } from 'node:fs'
import { basename, join, relative, resolve, sep } from 'node:path'
import { blankSlideFiles } from '../content/slides.js'
import type { DeckSlide } from '../model/deck-check.js'
import type { SlideCheckResult } from '../model/slide-checker.js'
import { type ProjectConfig, SLIDE_FILE_NAMES, type SlideFileName, type SlideFiles } from '../schemas/index.js'

/** A slide folder found on disk. */
export interface SlideFolder {
  /** Its path relative to the folder the CLI was pointed at (`/`-separated), or its own name when it was pointed at the slide. */
  slideId: string
  /** Where it is. */
  dir: string
}

/** What makes `FOLDER` unusable: not there, not a folder, no slide in it. The CLI exits 2 with it. */
export class SlideFolderError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'SlideFolderError'
  }
}

/** How deep below FOLDER slide folders are looked for. */
const MAX_DEPTH = 8

async function isSlideFolder(dir: string): Promise<boolean> {
  const names = await readdir(dir)
  return SLIDE_FILE_NAMES.some((name) => names.includes(name))
}

/** The slide folders of `root` (itself, or those below it), sorted by path; throws a `SlideFolderError` when there is none. */
export async function findSlideFolders(root: string): Promise<SlideFolder[]> {
  let info: Stats
  try {
    info = await stat(root)
  } catch (error) {
    throw new SlideFolderError(
      (error as NodeJS.ErrnoException).code === 'ENOENT' ? `no folder ${root}` : `cannot read ${root}: ${(error as Error).message}`,
    )
  }
  if (!info.isDirectory())
    throw new SlideFolderError(`${root} is not a folder (give the folder that holds slide.tsx, or a parent of such folders)`)
  if (await isSlideFolder(root)) return [{ slideId: basename(resolve(root)), dir: root }]
  const found: SlideFolder[] = []
  const walk = async (dir: string, depth: number): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true })
    for (const entry of entries) {
      if (!entry.isDirectory() || entry.name.startsWith('.') || entry.name === 'node_modules') continue
      const child = join(dir, entry.name)
      if (await isSlideFolder(child)) found.push({ slideId: relative(root, child).split(sep).join('/'), dir: child })
      else if (depth < MAX_DEPTH) await walk(child, depth + 1)
    }
  }
  await walk(root, 1)
  if (found.length === 0)
    throw new SlideFolderError(`no slide in ${root}: a slide is a folder holding slide.tsx (and slide.content.json, slide.controls.json)`)
  return found.sort((a, b) => (a.slideId < b.slideId ? -1 : a.slideId > b.slideId ? 1 : 0))
}

/** A result decided before the checker: the slide's files cannot be rendered as they are. */
function sourceError(
  file: SlideFileName,
  message: string,
  at: { line?: number; column?: number } = {},
  notes: string[] = [],
): SlideCheckResult {
  return { status: 'error', error: { kind: 'source', message, file, ...at }, text: '', elements: 0, notes }
}

/**
 * Reads one slide folder: its files, with a new slide's for the JSON files
 * it lacks, or the result that says why it cannot be checked.
 */
export async function readSlideFolder(folder: SlideFolder): Promise<SlideFiles | SlideCheckResult> {
  const blank = blankSlideFiles()
  const files = {} as SlideFiles
  for (const name of SLIDE_FILE_NAMES) {
    const path = join(folder.dir, name)
    try {
      files[name] = await readFile(path, 'utf8')
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code !== 'ENOENT') return sourceError(name, `Cannot read ${path}: ${(error as Error).message}`)
      if (name === 'slide.tsx') return sourceError(name, `${folder.dir} has no slide.tsx: a slide's component is its default export there.`)
      files[name] = blank[name]
    }
  }
  const { slideFileProblems, formatProblem } = await import('../model/slide-validation.js')
  const [first, ...others] = slideFileProblems(files)
  if (first === undefined) return files
  return sourceError(first.file, first.message, { line: first.line, column: first.column }, others.map(formatProblem))
}

/** The folders as a deck to check, each read on its turn and styled by `config`. */
export function folderDeck(folders: readonly SlideFolder[], config: ProjectConfig): DeckSlide[] {
  return folders.map((folder) => ({
    slideId: folder.slideId,
    load: async () => {
      const read = await readSlideFolder(folder)
      return 'status' in read ? read : { files: read, config }
    },
  }))
}
