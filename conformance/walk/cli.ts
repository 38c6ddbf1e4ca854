/**
 * `presentation-conformance walk`: random sequences of operations against a
 * target and the emulator side by side. Exit 0 no divergence, 1 a divergence,
 * 2 a configuration error.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander'
import { VERSION } from '../../src/client/index.js'
import { addTargetOptions, integer, targetOptionsFrom, type TargetFlags } from '../cli-options.js'
import { ConfigurationError } from '../target.js'
import { curlScript, parseReplay, replayFile, walkText } from './report.js'
import { runWalk, type WalkOptions } from './walk.js'

const EXIT_CONFIG = 2

/** `5m`, `90s`, `1h` or a number of seconds. */
function duration(value: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(value.trim())
  if (match === null) throw new InvalidArgumentError('must be a duration such as 90s, 5m or 1h')
  const n = Number(match[1])
  const unit = match[2] ?? 's'
  return Math.round(n * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[unit]!)
}

export function walkCommand(): Command {
  return addTargetOptions(
    new Command('presentation-conformance walk')
      .description(
        'Random sequences of operations against the target and the emulator side by side, compared on what the spec requires; a divergence is shrunk to the shortest sequence.',
      )
      .version(VERSION),
  )
    .addOption(new Option('--runs <n>', 'sequences to try').default(100).argParser(integer('--runs', 1, 1_000_000)))
    .addOption(new Option('--steps <n>', 'the longest sequence').default(30).argParser(integer('--steps', 1, 1000)))
    .addOption(new Option('--seed <n>', 'seed of the sequences (printed)').argParser(integer('--seed', 0, 2 ** 31 - 1)))
    .addOption(
      new Option('--time-budget <duration>', 'stop starting runs after this long (90s, 5m, 1h)').default(300_000, '5m').argParser(duration),
    )
    .option('--replay <file>', 'run a saved counterexample again')
    .option('--counterexample <file>', 'where to save a counterexample (default: walk-counterexample-<seed>.json)')
    .addOption(new Option('--reporter <name>', 'human or json').choices(['human', 'json']).default('human'))
    .option('--output <file>', 'write the json report to a file (default: stdout)')
}

interface WalkFlags extends TargetFlags {
  runs: number
  steps: number
  seed?: number
  timeBudget: number
  replay?: string
  counterexample?: string
  reporter: 'human' | 'json'
  output?: string
}

export async function walkMain(argv: readonly string[], io: { out: (text: string) => void; err: (text: string) => void }): Promise<number> {
  const command = walkCommand().exitOverride().configureOutput({ writeOut: io.out, writeErr: io.err })
  try {
    command.parse([...argv], { from: 'node' })
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : EXIT_CONFIG
    throw error
  }
  const flags = command.opts<WalkFlags>()
  const target = targetOptionsFrom(flags)
  if (typeof target === 'string') {
    io.err(`presentation-conformance walk: ${target}\n`)
    return EXIT_CONFIG
  }
  const options: WalkOptions = {
    ...target,
    ...(flags.seed === undefined ? {} : { seed: flags.seed }),
    runs: flags.runs,
    steps: flags.steps,
    timeBudgetMs: flags.timeBudget,
  }
  if (flags.replay !== undefined) {
    try {
      const saved = parseReplay(readFileSync(flags.replay, 'utf8'), flags.replay)
      options.replay = saved.steps
      options.seed ??= saved.seed
    } catch (error) {
      io.err(`presentation-conformance walk: ${(error as Error).message}\n`)
      return EXIT_CONFIG
    }
  }
  const human = flags.reporter === 'human' || flags.output !== undefined ? io.out : io.err
  try {
    const result = await runWalk(options)
    const files: { replay?: string; script?: string } = {}
    const saved = replayFile(result)
    if (saved !== undefined && flags.replay === undefined) {
      files.replay = flags.counterexample ?? `walk-counterexample-${result.seed}.json`
      writeFileSync(files.replay, `${JSON.stringify(saved, null, 2)}\n`)
      files.script = `${files.replay.replace(/\.json$/, '')}.sh`
      writeFileSync(files.script, curlScript(result), { mode: 0o755 })
    }
    human(`${walkText(result, files)}\n`)
    if (flags.reporter === 'json') {
      const text = `${JSON.stringify(result, null, 2)}\n`
      if (flags.output === undefined) io.out(text)
      else writeFileSync(flags.output, text)
    }
    return result.counterexample === undefined ? 0 : 1
  } catch (error) {
    if (error instanceof ConfigurationError) {
      io.err(`presentation-conformance walk: ${error.message}\n`)
      return EXIT_CONFIG
    }
    throw error
  }
}
