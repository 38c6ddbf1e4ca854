/**
 * The exit codes of both bins, `presentation-emulator` and
 * `presentation-conformance` (every command of each): one table, so a CI
 * script reads a code the same way whichever bin it ran.
 *
 * - `ok` (0): everything that ran passed; a clean shutdown; `--help`, `--version`.
 * - `findings` (1): the kit found something: a MUST that did not hold, a
 *   divergence, a stale baseline entry.
 * - `runtime` (1): the emulator cannot load or serve its world (fixtures,
 *   state file, port): the same code as `findings`, named for what it means there.
 * - `usage` (2): a bad command line, or a configuration that cannot run
 *   (an unreachable target, a key it rejects, a path that cannot be written,
 *   nothing able to run).
 *
 * Codes a bin passes on are not in the table: `exec` answers its command's
 * own code (126, 127, 128 + n for a signal), and a repeated signal ends a
 * process with 128 + n (130, 143).
 */
export const EXIT = {
  ok: 0,
  findings: 1,
  runtime: 1,
  usage: 2,
} as const

export type ExitCode = (typeof EXIT)[keyof typeof EXIT]
