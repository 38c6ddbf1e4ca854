/**
 * A locked render worker's script: SES first (it puts `lockdown` and
 * `harden` on the global object), then the worker's own (`worker.ts`),
 * which locks the world with them before any slide code runs.
 */
import 'ses'
import './worker.js'
