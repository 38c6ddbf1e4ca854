import { StateDocument } from './world.js'

/** Makes a schema that answers as `StateDocument` does, only faster (zod's `z.compile`). */
export type StateSchemaCompiler = (schema: typeof StateDocument) => typeof StateDocument

let compiler: StateSchemaCompiler | undefined
let compiled: typeof StateDocument | undefined

/**
 * Has state imports validated by a compiled clone of `StateDocument`, built
 * on the first import. The Node entries (the package's and the CLI's) offer
 * zod's `z.compile`: its generated parser checks a 100,000-project document
 * in about half the time of the schema's own, and for a document it refuses
 * it hands over to the schema, so the issues (and the error a caller gets)
 * are the schema's own. The browser entry leaves it out: it would add zod's
 * compiler (~8 KB gzipped) to an app's bundle, for documents that there fit
 * in web storage.
 */
export function compileStateSchemaWith(compile: StateSchemaCompiler): void {
  compiler ??= compile
}

/** The schema a state import is validated with: `StateDocument`, or its compiled clone where an entry offered a compiler. */
export function stateSchema(): typeof StateDocument {
  if (compiler === undefined) return StateDocument
  compiled ??= compiler(StateDocument)
  return compiled
}
