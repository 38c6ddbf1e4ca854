/**
 * The suite, `presentation-conformance` without a subcommand: runs the
 * conformance scenarios against an in-process emulator (default), an
 * emulator it starts over HTTP (`--target http`), or a deployment
 * (`--base-url` and `--api-key`).
 */
import { chmodSync, readFileSync, writeFileSync } from 'node:fs'
import { Command, Option } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { VERSION } from '../../src/client/index.js'
import { baselineOf, parseBaseline, type Baseline } from '../baseline.js'
import { keyHint } from '../curl.js'
import { humanReport } from '../report/human.js'
import { junitXml } from '../report/junit.js'
import { markdownReport } from '../report/markdown.js'
import { sarifReport } from '../report/sarif.js'
import { ConfigurationError, exitCodeOf, runConformance, type ConformanceOptions } from '../runner.js'
import type { RunKey } from '../context.js'
import type { Report } from '../types.js'
import { COMMANDS } from './commands.js'
import { progressHooks, progressWanted } from './progress.js'
import { addTargetOptions, duration, exitCodesHelp, integer, type Io, pattern, runId, shard, type TargetFlags, url } from './options.js'
import { fileFlag, type ReporterFlags, reporters, reportStreams, startTargetCommand } from './reporter.js'

const NAME = 'presentation-conformance'
type SuiteReporter = 'human' | 'json' | 'junit' | 'markdown' | 'sarif'
const REPORTERS = reporters<SuiteReporter>(['human', 'json', 'junit', 'markdown', 'sarif'], 'the report', 'human')

/** A machine-readable report's text in the format `name`. */
async function reportText(name: Exclude<SuiteReporter, 'human'>, report: Report, referenceUrl: string | undefined): Promise<string> {
  switch (name) {
    case 'json':
      return `${JSON.stringify(report, null, 2)}\n`
    case 'junit':
      return junitXml(report)
    case 'markdown':
      return markdownReport(report)
    case 'sarif':
      return sarifReport(report, referenceUrl === undefined ? {} : { referenceUrl })
  }
}

export function conformanceCommand(): Command {
  const command = addTargetOptions(
    new Command(NAME)
      .description(
        'Checks a Presentation Service deployment (or the emulator) against the published spec. `presentation-conformance walk --help` for model-based walks.',
      )
      .version(VERSION),
  )
    .option('--no-emulator-checks', 'do not run the emulator checks even when the target is the emulator')
    .addOption(new Option('--seed <n>', 'seed of generated inputs (printed at the start)').argParser(integer('--seed', 0, 2 ** 31 - 1)))
    .addOption(
      new Option(
        '--run-id <id>',
        'the run’s id, which starts the names of what it creates (default: fresh for every run, whatever the seed)',
      ).argParser(runId),
    )
    .addOption(new Option('--grep <pattern>', 'run only scenarios whose id or title matches (a regular expression)').argParser(pattern))
    .addOption(new Option('--shard <i/n>', 'run only the i-th of n shards').argParser(shard))
    .addOption(new Option('--concurrency <n>', 'scenarios run at once').argParser(integer('--concurrency', 1, 32)))
    .addOption(
      new Option(
        '--time-budget <duration>',
        'a bound on the whole run (90s, 10m): no scenario starts after it and no wait runs past it; the report says it was cut short',
      ).argParser(duration),
    )
    .addOption(
      new Option('--job-timeout <seconds>', 'how long a generation job may stay processing')
        .default(600)
        .argParser(integer('--job-timeout', 1, 86_400)),
    )
  for (const option of REPORTERS.options()) command.addOption(option)
  const width = Math.max(...COMMANDS.map((c) => c.name.length))
  return command
    .option(
      '--write-keys <file>',
      'write export lines for the keys the kit made through a control plane (mode 0600), so the printed curls run',
    )
    .addOption(
      new Option(
        '--reference-url <url>',
        'where the package’s reference/ folder is published: the SARIF report’s rules link their section there (default: help as text only)',
      ).argParser(url),
    )
    .option(
      '--progress',
      'print each scenario as it starts and each wait with its length on stderr, even when stderr is not a terminal or CI is set',
    )
    .option('--verbose', 'the human report lists every finding of every scenario, and every project the run created')
    .option('--expected-failures <file>', 'a baseline: scenarios listed there may fail; a listed one that passes is stale')
    .option('--write-baseline <file>', 'write this run’s failures as a baseline file')
    .addHelpText(
      'after',
      `
Targets:
  (no target flag)            an in-process emulator, no socket
  --target http               an emulator started by the kit on a free port
  --base-url URL --api-key K  a deployment; add --allow-writes / --allow-generation to run more

${exitCodesHelp({
  ok: 'every scenario that ran passed',
  findings: 'a failure or a stale baseline entry',
  usage: 'usage or configuration (bad flag, unreachable target, rejected key, nothing able to run)',
})}

Commands (presentation-conformance COMMAND --help):
${COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.describe}`).join('\n')}`,
    )
}

interface Flags extends TargetFlags, ReporterFlags<SuiteReporter> {
  emulatorChecks: boolean
  seed?: number
  runId?: string
  grep?: string
  shard?: { index: number; count: number }
  concurrency?: number
  jobTimeout: number
  timeBudget?: number
  expectedFailures?: string
  writeBaseline?: string
  verbose?: boolean
  progress?: boolean
  referenceUrl?: string
  writeKeys?: string
}

/** Runs the suite; resolves to the exit code. */
export async function suiteMain(argv: readonly string[], io: Io): Promise<number> {
  const start = startTargetCommand<Flags, SuiteReporter>(
    {
      name: NAME,
      command: conformanceCommand(),
      reporters: REPORTERS,
      files: (flags) => [
        ['--write-baseline', flags.writeBaseline],
        ['--write-keys', flags.writeKeys],
      ],
      many: true,
    },
    argv,
    io,
  )
  if (typeof start === 'number') return start
  const { flags, target, reports, fail } = start
  let expectedFailures: Baseline | undefined
  if (flags.expectedFailures !== undefined) {
    try {
      expectedFailures = parseBaseline(readFileSync(flags.expectedFailures, 'utf8'), flags.expectedFailures)
    } catch (error) {
      return fail(`--expected-failures: ${(error as Error).message}`)
    }
  }
  const streams = reportStreams(reports, io)
  const human = streams.lines
  let made: RunKey[] = []
  const options: ConformanceOptions = {
    ...target,
    ...(flags.seed === undefined ? {} : { seed: flags.seed }),
    ...(flags.runId === undefined ? {} : { runId: flags.runId }),
    ...(flags.grep === undefined ? {} : { grep: flags.grep }),
    ...(flags.shard === undefined ? {} : { shard: flags.shard }),
    ...(flags.concurrency === undefined ? {} : { concurrency: flags.concurrency }),
    ...(expectedFailures === undefined ? {} : { expectedFailures }),
    emulatorChecks: flags.emulatorChecks,
    jobTimeoutMs: flags.jobTimeout * 1000,
    ...(flags.timeBudget === undefined ? {} : { timeBudgetMs: flags.timeBudget }),
    ...(progressWanted(flags.progress, process.stderr.isTTY, process.env) ? progressHooks(io.err) : {}),
    onKeys: (keys) => {
      made = keys
    },
    onStart: ({ runId, seed, target, scenarios }) => {
      const what =
        target.kind === 'deployment'
          ? `deployment ${target.baseUrl}${target.controlPlane ? ' (with control plane)' : ''}`
          : `${target.kind} emulator (${target.baseUrl})`
      human(`${NAME} ${VERSION} · ${what} · seed ${seed} · run ${runId} · ${scenarios} scenarios\n\n`)
    },
  }
  try {
    const report = await runConformance(options)
    human(humanReport(report, { verbose: flags.verbose === true }))
    for (const reporter of reports) {
      if (reporter.name === 'human') continue
      // Checked before the run; this catches what changed meanwhile (a full disk, a removed directory).
      const problem = streams.write(reporter, await reportText(reporter.name, report, flags.referenceUrl))
      if (problem !== undefined) return fail(`${fileFlag(flags)}: ${problem}`)
    }
    if (flags.writeBaseline !== undefined) {
      try {
        writeFileSync(flags.writeBaseline, `${JSON.stringify(baselineOf(report.scenarios), null, 2)}\n`)
      } catch (error) {
        return fail(`--write-baseline: could not write ${flags.writeBaseline}: ${(error as Error).message}`)
      }
      human(`baseline written to ${flags.writeBaseline}\n`)
    }
    if (flags.writeKeys !== undefined) {
      try {
        writeKeysFile(flags.writeKeys, keysFileText(made, report.runId))
      } catch (error) {
        return fail(`--write-keys: could not write ${flags.writeKeys}: ${(error as Error).message}`)
      }
      human(`${made.length} key${made.length === 1 ? '' : 's'} the kit made written to ${flags.writeKeys} (mode 0600)\n`)
    }
    const code = exitCodeOf(report)
    if (code === EXIT.usage) io.err(`${NAME}: no scenario was able to run\n`)
    return code
  } catch (error) {
    if (error instanceof ConfigurationError) return fail(error.message)
    throw error
  }
}

/**
 * The `--write-keys` file: for each key the kit made, a comment naming it as
 * the reports do (its label, scenario, id and first characters) and an
 * `export` of its value under a variable of its own; a report's curl reads
 * the role's variable, which the comment says how to set.
 */
export function keysFileText(keys: readonly RunKey[], runId: string): string {
  const lines = [
    `# Keys presentation-conformance made through the control plane in run ${runId}.`,
    '# Source this file, then set the variable a curl reads from the key its report names, e.g.',
    '#   export PRESENTATION_API_KEY="$PRESENTATION_KEY_<ID>"',
  ]
  for (const key of keys) {
    const name = `PRESENTATION_KEY_${(key.keyId ?? key.key.slice(-8)).toUpperCase().replace(/[^A-Z0-9]/g, '_')}`
    lines.push(
      '',
      `# ${key.label} of ${key.scenario}: ${keyHint(key.key, key.keyId)}; its curls read $${key.variable}`,
      `export ${name}='${key.key.replace(/'/g, `'\\''`)}'`,
    )
  }
  return `${lines.join('\n')}\n`
}

/** Writes `text` to `file`, readable by its owner only (an existing file is narrowed too). */
function writeKeysFile(file: string, text: string): void {
  writeFileSync(file, text, { mode: 0o600 })
  chmodSync(file, 0o600)
}
