/**
 * `presentation-conformance`: the suite (`cli/suite.ts`) without a
 * subcommand, else the subcommand the table names (`cli/commands.ts`:
 * walk, proxy, replay, coverage). Every command exits by one table
 * (`src/cli/exit-codes.ts`, shared with `presentation-emulator`): 0 passed,
 * 1 findings (a failure, a divergence, a stale baseline entry), 2 usage or
 * configuration (a bad flag, an unreachable target, a key the target
 * rejects, no scenario able to run).
 *
 * This module is the top: it imports the commands, and nothing of the kit
 * imports it.
 */
import { commandNamed } from './cli/commands.js'
import type { Io } from './cli/options.js'
import { suiteMain } from './cli/suite.js'

/** Runs the CLI; resolves to the exit code. */
export async function main(
  argv: readonly string[],
  io: Io = {
    out: (t) => process.stdout.write(t),
    err: (t) => process.stderr.write(t),
  },
): Promise<number> {
  const command = commandNamed(argv[2])
  if (command !== undefined) return command.run([...argv.slice(0, 2), ...argv.slice(3)], io)
  return suiteMain(argv, io)
}
