/**
 * `presentation-conformance walk`: random sequences of operations against a
 * target and the emulator side by side. Exit 0 no divergence, 1 a divergence,
 * 2 a configuration error.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { Command, Option } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { VERSION } from '../../src/client/index.js'
import { addTargetOptions, duration, exitCodesHelp, integer, type Io, runId, type TargetFlags } from '../cli/options.js'
import { fileFlag, type ReporterFlags, reporters, reportStreams, startTargetCommand } from '../cli/reporter.js'
import { ConfigurationError } from '../target.js'
import { progressWanted, waitLine } from '../cli/progress.js'
import { curlScript, parseReplay, replayFile, walkJunit, walkMarkdown, walkText } from './report.js'
import { DEFAULT_MAX_GENERATIONS, DEFAULT_RUNS, DEFAULT_STEPS, runWalk, type WalkOptions } from './walk.js'

const NAME = 'presentation-conformance walk'
type WalkReporter = 'human' | 'json' | 'junit' | 'markdown'
const REPORTERS = reporters<WalkReporter>(['human', 'json', 'junit', 'markdown'], 'the result', 'human')

export function walkCommand(): Command {
  const command = addTargetOptions(
    new Command(NAME)
      .description(
        'Random sequences of operations against the target and the emulator side by side, compared on what the spec requires; a divergence is shrunk to the shortest sequence.',
      )
      .version(VERSION),
  )
    .addOption(
      new Option(
        '--runs <n>',
        'sequences to try (detection is counted in runs: each seeded defect of our tests is found within the default)',
      )
        .default(DEFAULT_RUNS)
        .argParser(integer('--runs', 1, 1_000_000)),
    )
    .addOption(new Option('--steps <n>', 'the longest sequence').default(DEFAULT_STEPS).argParser(integer('--steps', 1, 1000)))
    .addOption(new Option('--seed <n>', 'seed of the sequences (printed)').argParser(integer('--seed', 0, 2 ** 31 - 1)))
    .addOption(
      new Option('--run-id <id>', 'the walk’s id, which starts the names of what it creates (default: fresh for every walk)').argParser(
        runId,
      ),
    )
    .addOption(
      new Option('--time-budget <duration>', 'an upper bound: stop starting runs after this long (90s, 5m, 1h)')
        .default(300_000, '5m')
        .argParser(duration),
    )
    .addOption(
      new Option('--max-generations <n>', 'with --allow-generation: generations the whole walk may start, however many runs')
        .default(DEFAULT_MAX_GENERATIONS)
        .argParser(integer('--max-generations', 0, 1000)),
    )
    .option(
      '--progress',
      'print each run as it starts, each wait with its length, and the shrinking on stderr, even when stderr is not a terminal or CI is set',
    )
    .option('--replay <file>', 'run a saved counterexample again')
    .option('--counterexample <file>', 'where to save a counterexample (default: walk-counterexample-<seed>.json)')
  for (const option of REPORTERS.options()) command.addOption(option)
  return command.addHelpText(
    'after',
    `\n${exitCodesHelp({ ok: 'no divergence', findings: 'a divergence', usage: 'usage or configuration, found before the first run (bad flag, an unknown reporter, two reports on stdout or a report that cannot be written: before any request; an unreachable target, a file that is not a replay file)' })}`,
  )
}

interface WalkFlags extends TargetFlags, ReporterFlags<WalkReporter> {
  progress?: boolean
  runs: number
  maxGenerations: number
  steps: number
  seed?: number
  runId?: string
  timeBudget: number
  replay?: string
  counterexample?: string
}

export async function walkMain(argv: readonly string[], io: Io): Promise<number> {
  const start = startTargetCommand<WalkFlags, WalkReporter>(
    {
      name: NAME,
      command: walkCommand(),
      reporters: REPORTERS,
      files: (flags) => [['--counterexample', flags.counterexample]],
      many: true,
    },
    argv,
    io,
  )
  if (typeof start === 'number') return start
  const { flags, target, reports, fail } = start
  const options: WalkOptions = {
    ...target,
    ...(flags.seed === undefined ? {} : { seed: flags.seed }),
    ...(flags.runId === undefined ? {} : { runId: flags.runId }),
    runs: flags.runs,
    steps: flags.steps,
    timeBudgetMs: flags.timeBudget,
    maxGenerations: flags.maxGenerations,
  }
  if (flags.replay !== undefined) {
    try {
      const saved = parseReplay(readFileSync(flags.replay, 'utf8'), flags.replay)
      options.replay = saved.steps
      options.seed ??= saved.seed
    } catch (error) {
      return fail((error as Error).message)
    }
  }
  const streams = reportStreams(reports, io)
  options.onStart = ({ seed, runId }) =>
    streams.lines(`${NAME} · seed ${seed} · run ${runId} (what it creates is named conformance-${runId}-…)\n`)
  if (progressWanted(flags.progress, process.stderr.isTTY, process.env)) {
    // Progress on stderr as it happens: each run, each wait on the target, the shrinking (issue 36).
    const runs = flags.replay === undefined ? flags.runs : 1
    options.onRun = (started) => io.err(`▸ run ${started} of ${runs}\n`)
    options.onWait = (wait) => io.err(waitLine(wait))
    options.onShrink = ({ foundAtRun, steps, replays }) =>
      io.err(`▸ a divergence in run ${foundAtRun} after ${steps} step(s): shrinking it (at most ${replays} replays against the target)\n`)
  }
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
    streams.lines(`${walkText(result, files)}\n`)
    for (const reporter of reports) {
      if (reporter.name === 'human') continue
      const text =
        reporter.name === 'json'
          ? `${JSON.stringify(result, null, 2)}\n`
          : reporter.name === 'junit'
            ? walkJunit(result)
            : walkMarkdown(result)
      // Checked before the walk; this catches what changed meanwhile (a full disk, a removed directory).
      const cannot = streams.write(reporter, text)
      if (cannot !== undefined) return fail(`${fileFlag(flags)}: ${cannot}`)
    }
    return result.counterexample === undefined ? EXIT.ok : EXIT.findings
  } catch (error) {
    if (error instanceof ConfigurationError) return fail(error.message)
    throw error
  }
}
