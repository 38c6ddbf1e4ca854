/**
 * Imported by the Node entries only (see `compileStateSchemaWith`): state
 * imports there are validated by zod's compiled parser of the state schema.
 * `z.compile` falls back to the schema itself wherever it cannot generate
 * code (a process started with `--disallow-code-generation-from-strings`),
 * and an app that turned zod's code generation off (`z.config({ jitless: true })`)
 * keeps the schema's own parser.
 */
import * as z from 'zod'
import { compileStateSchemaWith } from '../store/state-schema.js'

compileStateSchemaWith((schema) => (z.config().jitless === true ? schema : z.compile(schema)))
