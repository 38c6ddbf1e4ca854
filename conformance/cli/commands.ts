/**
 * The subcommands of `presentation-conformance`, as a table: each with what
 * `--help` says of it and how it runs. A command's module is loaded only
 * when it runs (the proxy's server, the walk's fast-check and the replay's
 * HAR reader stay out of a plain run). The suite itself, run without a
 * subcommand, is `suite.ts`.
 */
import type { Io } from './options.js'

export interface KitCommand {
  name: string
  /** One line for the suite's `--help`. */
  describe: string
  /** Runs the command on `argv` (node, script, then the command's own flags); resolves to its exit code (`EXIT`). */
  run: (argv: readonly string[], io: Io) => Promise<number>
}

export const COMMANDS: readonly KitCommand[] = [
  {
    name: 'walk',
    describe: 'model-based walks: random sequences against the target and the emulator side by side',
    run: async (argv, io) => (await import('../walk/cli.js')).walkMain(argv, io),
  },
  {
    name: 'proxy',
    describe: 'a validating proxy in front of a deployment, judging the traffic that passes',
    run: async (argv, io) => (await import('../proxy/cli.js')).proxyMain(argv, io),
  },
  {
    name: 'replay',
    describe: 'sends a HAR recording’s requests to a target and compares the answers',
    run: async (argv, io) => (await import('../replay/cli.js')).replayMain(argv, io),
  },
  {
    name: 'coverage',
    describe: 'the spec’s checkable items, each with how the kit checks it',
    run: async (argv, io) => (await import('../coverage.js')).coverageMain(argv, io),
  },
]

/** The subcommand `name` names, or undefined (then the suite runs). */
export function commandNamed(name: string | undefined): KitCommand | undefined {
  return COMMANDS.find((command) => command.name === name)
}
