/**
 * `presentation-conformance proxy`: a validating proxy in front of a
 * deployment (or the emulator). It prints its URL on a line of its own when
 * ready, one line per finding as it happens (with a curl that reads the key
 * from the environment), and on SIGINT or SIGTERM writes the kit's report
 * and exits: 1 if a MUST did not hold, 0 otherwise, 2 for bad flags.
 */
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander'
import { VERSION } from '../../src/client/index.js'
import { integer, unwritable, url } from '../cli.js'
import { junitXml } from '../report/junit.js'
import { DEFAULT_RECORD_BODY_LIMIT, HarRecorder } from '../har/recorder.js'
import { judgementLine } from './judge.js'
import { startProxy } from './server.js'
import { writeFileSync } from 'node:fs'

const EXIT_CONFIG = 2

export interface Io {
  out: (text: string) => void
  err: (text: string) => void
}

function baseUrl(value: string): string {
  const checked = url(value)
  if (!/\/v1\/?$/.test(new URL(checked).pathname)) throw new InvalidArgumentError('must be the target’s API base URL, ending in /v1')
  return checked
}

function proxyCommand(): Command {
  return new Command('presentation-conformance proxy')
    .description(
      'A validating proxy: forwards <proxy>/v1/X to <base-url>/X untouched, and judges each exchange and the sequence against what the spec requires.',
    )
    .version(VERSION)
    .addOption(
      new Option('--base-url <url>', 'the target’s API base URL, ending in /v1')
        .env('CONFORMANCE_BASE_URL')
        .argParser(baseUrl)
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
    .addOption(new Option('--reporter <name>', 'json or junit: the report written on SIGINT/SIGTERM').choices(['json', 'junit']))
    .option('--output <file>', 'write the report to a file (default: stdout)')
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
Exit codes: 1 a MUST did not hold, 0 otherwise, 2 bad flags.
Docs: docs/conformance/proxy.md`,
    )
}

interface ProxyFlags {
  baseUrl: string
  port: number
  host: string
  record?: string
  recordBodyLimit: number
  reporter?: 'json' | 'junit'
  output?: string
  apiKey?: string
  otherTeamKey?: string
  revokedKey?: string
}

/**
 * Runs the proxy until `stop` resolves (SIGINT or SIGTERM by default);
 * resolves to the exit code.
 */
export async function proxyMain(argv: readonly string[], io: Io, stop: Promise<unknown> = stopSignal()): Promise<number> {
  const command = proxyCommand().exitOverride().configureOutput({ writeOut: io.out, writeErr: io.err })
  try {
    command.parse([...argv], { from: 'node' })
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : EXIT_CONFIG
    throw error
  }
  const flags = command.opts<ProxyFlags>()
  const fail = (message: string) => {
    io.err(`presentation-conformance proxy: ${message}\n`)
    return EXIT_CONFIG
  }
  if (flags.output !== undefined && flags.reporter === undefined) return fail('--output needs --reporter json or junit')
  for (const [flag, file] of [
    ['--record', flags.record],
    ['--output', flags.output],
  ] as const) {
    const problem = file === undefined ? undefined : unwritable(file)
    if (problem !== undefined) return fail(`${flag}: ${problem}`)
  }
  let recorder: HarRecorder | undefined
  if (flags.record !== undefined) {
    try {
      recorder = await HarRecorder.create(flags.record, flags.recordBodyLimit)
    } catch (error) {
      return fail(`--record: ${(error as Error).message}`)
    }
  }
  // The report owns stdout when it has no file; the lines then go to stderr.
  const lines = flags.reporter !== undefined && flags.output === undefined ? io.err : io.out
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
      onProblem: (message) => io.err(`presentation-conformance proxy: ${message}\n`),
    })
  } catch (error) {
    return fail(`cannot listen on ${flags.host}:${flags.port}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
  }
  io.err(`presentation-conformance proxy ${VERSION} → ${flags.baseUrl}${recorder === undefined ? '' : ` · recording to ${flags.record}`}\n`)
  lines(`${proxy.url}\n`)
  await stop
  await proxy.close()
  if (recorder !== undefined) {
    try {
      await recorder.flushed()
    } catch (error) {
      io.err(`presentation-conformance proxy: --record: could not write ${flags.record}: ${(error as Error).message}\n`)
    }
  }
  const report = proxy.judge.report(proxy.startedAt, Date.now() - proxy.startedAt.getTime(), flags.baseUrl)
  const s = report.summary
  const notes = report.scenarios.reduce((n, r) => n + r.notes.length, 0)
  io.err(
    `${proxy.judge.exchanges} exchanges judged · ${s.total} facts applied: ${s.passed} held, ${s.failed} with a MUST failing · ${s.warnings} warning(s) · ${notes} note(s)\n`,
  )
  if (flags.reporter !== undefined) {
    const text = flags.reporter === 'json' ? `${JSON.stringify(report, null, 2)}\n` : junitXml(report)
    if (flags.output === undefined) io.out(text)
    else
      try {
        writeFileSync(flags.output, text)
      } catch (error) {
        io.err(`presentation-conformance proxy: --output: could not write ${flags.output}: ${(error as Error).message}\n`)
      }
  }
  return proxy.judge.failed ? 1 : 0
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
