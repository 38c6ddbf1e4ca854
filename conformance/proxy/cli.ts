/**
 * `presentation-conformance proxy`: a validating proxy in front of a
 * deployment (or the emulator). It prints its URL on a line of its own when
 * ready, one line per finding as it happens (with a curl that reads the key
 * from the environment), and on SIGINT or SIGTERM writes the kit's report
 * and exits: 1 if a MUST did not hold, 0 otherwise, 2 for bad flags.
 */
import { Command, Option } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { VERSION } from '../../src/client/index.js'
import { apiBaseUrl, exitCodesHelp, firstUnwritable, integer, type Io, parseArgv, usageError } from '../cli/options.js'
import { fileFlag, type ReporterFlags, reporters, reportStreams } from '../cli/reporter.js'
import { junitXml } from '../report/junit.js'
import { DEFAULT_RECORD_BODY_LIMIT, HarRecorder } from '../har/recorder.js'
import { judgementLine } from './judge.js'
import { startProxy } from './server.js'

const NAME = 'presentation-conformance proxy'
const REPORTERS = reporters(['json', 'junit'], 'the report written on SIGINT/SIGTERM')

export type { Io }

function proxyCommand(): Command {
  const command = new Command(NAME)
    .description(
      'A validating proxy: forwards <proxy>/v1/X to <base-url>/X untouched, and judges each exchange and the sequence against what the spec requires.',
    )
    .version(VERSION)
    .addOption(
      new Option('--base-url <url>', 'the target’s API base URL, ending in /v1')
        .env('CONFORMANCE_BASE_URL')
        .argParser(apiBaseUrl)
        .makeOptionMandatory(),
    )
    .addOption(new Option('--port <n>', 'the port to listen on (0 picks a free one)').default(0).argParser(integer('--port', 0, 65_535)))
    .option('--host <host>', 'the address to listen on', '127.0.0.1')
    .option('--record <file>', 'write every exchange to this HAR 1.2 file (mode 0600; keys replaced by labels)')
    .addOption(
      new Option('--record-body-limit <bytes>', 'bodies kept in the recording up to this many bytes each, marked when cut')
        .default(DEFAULT_RECORD_BODY_LIMIT)
        .argParser(integer('--record-body-limit', 0, 1024 * 1024 * 1024)),
    )
  for (const option of REPORTERS.options()) command.addOption(option)
  return command
    .addOption(new Option('--api-key <key>', 'the main key: its prefix is the service prefix (auth.prefix)').env('CONFORMANCE_API_KEY'))
    .addOption(
      new Option('--other-team-key <key>', 'another team’s key: isolation facts between it and --api-key').env(
        'CONFORMANCE_OTHER_TEAM_KEY',
      ),
    )
    .addOption(new Option('--revoked-key <key>', 'a revoked key: it must be answered 401').env('CONFORMANCE_REVOKED_KEY'))
    .addHelpText(
      'after',
      `
Findings are printed as they happen; on SIGINT or SIGTERM the report is written.
${exitCodesHelp({ ok: 'no MUST failed', findings: 'a MUST did not hold', usage: 'usage or configuration (bad flag, a port in use, a path that cannot be written)' })}
Docs: docs/conformance/proxy.md`,
    )
}

interface ProxyFlags extends ReporterFlags<'json' | 'junit'> {
  baseUrl: string
  port: number
  host: string
  record?: string
  recordBodyLimit: number
  apiKey?: string
  otherTeamKey?: string
  revokedKey?: string
}

/**
 * Runs the proxy until `stop` resolves (SIGINT or SIGTERM by default);
 * resolves to the exit code.
 */
export async function proxyMain(argv: readonly string[], io: Io, stop: Promise<unknown> = stopSignal()): Promise<number> {
  const flags = parseArgv<ProxyFlags>(proxyCommand(), argv, io)
  if (typeof flags === 'number') return flags
  const fail = (message: string) => usageError(io, NAME, message)
  const reporter = REPORTERS.from(flags)
  if (typeof reporter === 'string') return fail(reporter)
  const unwritable = firstUnwritable([
    ['--record', flags.record],
    [fileFlag(flags), reporter?.file],
  ])
  if (unwritable !== undefined) return fail(unwritable)
  let recorder: HarRecorder | undefined
  if (flags.record !== undefined) {
    try {
      recorder = await HarRecorder.create(flags.record, flags.recordBodyLimit)
    } catch (error) {
      return fail(`--record: ${(error as Error).message}`)
    }
  }
  const streams = reportStreams(reporter, io)
  const lines = streams.lines
  let proxy: Awaited<ReturnType<typeof startProxy>>
  try {
    proxy = await startProxy({
      baseUrl: flags.baseUrl,
      host: flags.host,
      port: flags.port,
      apiKey: flags.apiKey,
      otherTeamKey: flags.otherTeamKey,
      revokedKey: flags.revokedKey,
      ...(recorder === undefined ? {} : { recorder }),
      onJudgement: (j) =>
        lines(
          `${j.level === 'note' ? '·' : '✗'} ${judgementLine(j)}${j.because === undefined ? '' : ` (${j.because})`}\n${j.level === 'note' ? '' : `    ${j.curl}\n`}`,
        ),
      onProblem: (message) => io.err(`${NAME}: ${message}\n`),
    })
  } catch (error) {
    return fail(`cannot listen on ${flags.host}:${flags.port}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
  }
  io.err(`${NAME} ${VERSION} → ${flags.baseUrl}${recorder === undefined ? '' : ` · recording to ${flags.record}`}\n`)
  lines(`${proxy.url}\n`)
  await stop
  await proxy.close()
  if (recorder !== undefined) {
    try {
      await recorder.flushed()
    } catch (error) {
      io.err(`${NAME}: --record: could not write ${flags.record}: ${(error as Error).message}\n`)
    }
  }
  const report = proxy.judge.report(proxy.startedAt, Date.now() - proxy.startedAt.getTime(), flags.baseUrl)
  const s = report.summary
  const notes = report.scenarios.reduce((n, r) => n + r.notes.length, 0)
  io.err(
    `${proxy.judge.exchanges} exchanges judged · ${s.total} facts applied: ${s.passed} held, ${s.failed} with a MUST failing · ${s.warnings} warning(s) · ${notes} note(s)\n`,
  )
  if (reporter !== undefined) {
    const problem = streams.report(reporter.name === 'json' ? `${JSON.stringify(report, null, 2)}\n` : junitXml(report))
    if (problem !== undefined) io.err(`${NAME}: ${fileFlag(flags)}: ${problem}\n`)
  }
  return proxy.judge.failed ? EXIT.findings : EXIT.ok
}

/**
 * The first SIGINT or SIGTERM. The handlers stay installed (`on`, not
 * `once`): write-file-atomic's signal-exit re-raises a signal when no other
 * handler is left, which would end the process before the report.
 */
function stopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    let count = 0
    const onSignal = (signal: NodeJS.Signals) => {
      count += 1
      if (count === 1) resolve(signal)
      else process.exit(130)
    }
    process.on('SIGINT', onSignal)
    process.on('SIGTERM', onSignal)
  })
}
