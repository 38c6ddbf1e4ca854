import * as z from 'zod'
import { StateDocument } from '../store/world.js'

let compiled: typeof StateDocument | undefined

/**
 * zod's compiled clone of `StateDocument` (`z.compile`), built on the first
 * state import: its generated parser checks a 100,000-project document in
 * about half the time of the schema's own, and for a document it refuses it
 * hands over to the schema, so the issues (and the error a caller gets) are
 * the schema's own. The Node entries (the package's and the CLI's) give it
 * to their emulators; the browser entry leaves it out, as it would add zod's
 * compiler (~8 KB gzipped) to an app's bundle for documents that fit in web
 * storage. `z.compile` falls back to the schema itself wherever it cannot
 * generate code (a process started with `--disallow-code-generation-from-strings`),
 * and an app that turned zod's code generation off (`z.config({ jitless: true })`)
 * keeps the schema's own parser.
 */
export function compiledStateSchema(): typeof StateDocument {
  compiled ??= z.config().jitless === true ? StateDocument : z.compile(StateDocument)
  return compiled
}
