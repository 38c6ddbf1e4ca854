/**
 * The Node slide checker's messages between the emulator's process
 * (`checker.ts`) and the checker's own (`child.ts`), over the child's IPC
 * channel as JSON. Every field the emulator receives is read as untrusted:
 * the child runs slide code.
 */
import type { WorkerInit } from '../../render/protocol.js'

/** Emulator → checker: render one slide (its transpiled code, its files and props). */
export interface ToChecker {
  type: 'render'
  code: string
  init: WorkerInit
}

/** Checker → emulator. */
export type FromChecker =
  /** locked, React loaded: ready for a render */
  | { type: 'ready' }
  /** the slide's code starts now (its clock starts) */
  | { type: 'started' }
  /** the slide rendered within its limits: its clock stops; its markup is read next */
  | { type: 'rendered' }
  /** what a reader sees of it; `html` is the markup as rendered (at most `MAX_MARKUP_CHARS`) */
  | { type: 'done'; html: string; text: string; elements: number }
  /** why it did not render; `stack` for a position in slide.tsx */
  | { type: 'failed'; kind: 'runtime' | 'import' | 'no-default-export' | 'too-large' | 'crashed'; message: string; stack: string }
  /** an error thrown outside the render (work the slide left running) */
  | { type: 'uncaught'; message: string; stack: string }
  /** the render's work is over: nothing the slide started is still running */
  | { type: 'idle' }

/** The file name slide scripts are compiled under: stack frames in the slide's code name it. */
export const SLIDE_SCRIPT_NAME = 'slide-check:///slide.js'
