/**
 * `presentation-conformance replay FILE.har`: sends a recording's requests
 * to a target and compares each answer with the recorded one on what the
 * spec requires. Exit 0 no divergence, 1 a divergence, 2 bad flags or a file
 * that is not HAR.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { Command, Option } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import { VERSION } from '../../src/client/index.js'
import type { Har } from '../../src/schemas/index.js'
import { apiBaseUrl, exitCodesHelp, integer, type Io, pairs, parseArgv, targetOptionsFrom, unwritable, usageError } from '../cli/options.js'
import { shown } from '../facts/compare.js'
import { HarError, readHar } from '../har/read.js'
import { type ReplayResult, replay, type SentRequest } from './replay.js'

const NAME = 'presentation-conformance replay'

function replayCommand(): Command {
  return new Command(NAME)
    .description(
      'Sends the requests of a HAR recording (the proxy’s, the emulator’s /_emulator/requests.har, a browser’s devtools) to a target, replacing the ids its answers introduced, and compares each answer with the recorded one on what the spec requires.',
    )
    .version(VERSION)
    .argument('<file>', 'the HAR file')
    .addOption(
      new Option('--target <kind>', 'without --base-url: "http" starts an emulator on a free port (default: in-process)').choices([
        'in-process',
        'http',
      ]),
    )
    .addOption(new Option('--base-url <url>', 'the target’s API base URL, ending in /v1').argParser(apiBaseUrl))
    .addOption(
      new Option(
        '--key <label=key>',
        'the key to send for a label of the recording (key-1, or the journal’s key id); repeatable',
      ).argParser(pairs('LABEL=KEY (key-1=…)')),
    )
    .addOption(
      new Option('--map <old=new>', 'send NEW where the recording has OLD, an id it did not introduce; repeatable').argParser(
        pairs('OLD=NEW'),
      ),
    )
    .option('--allow-writes', 'send the requests that create and change projects')
    .option('--allow-generation', 'send the requests that start generation jobs (spends credits)')
    .option('--dry-run', 'print what would be sent, send nothing')
    .addOption(
      new Option('--job-timeout <seconds>', 'how long a replayed job may stay processing')
        .default(600)
        .argParser(integer('--job-timeout', 1, 86_400)),
    )
    .option(
      '--counterexample <file>',
      'where to save the entries up to the first divergence, as a HAR to replay (default: replay-counterexample.har)',
    )
    .addHelpText(
      'after',
      `
Entries are skipped, and listed, when they cannot be understood, had a body cut,
are OPTIONS, go to another host or outside /v1, name an id the recording did not
introduce (unless --map names it), or need --allow-writes / --allow-generation.
${exitCodesHelp({ ok: 'no divergence', findings: 'a divergence', usage: 'usage or configuration (bad flag, a file that is not HAR, an unreachable target)' })}
Docs: docs/conformance/proxy.md`,
    )
}

interface ReplayFlags {
  target?: 'in-process' | 'http'
  baseUrl?: string
  key?: Map<string, string>
  map?: Map<string, string>
  allowWrites?: boolean
  allowGeneration?: boolean
  dryRun?: boolean
  jobTimeout: number
  counterexample?: string
}

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`

/** The sent requests as a shell script: keys from `$PRESENTATION_KEY_<LABEL>`. */
export function curlScript(steps: ReplayResult['steps']): string {
  const variable = (label: string) => `PRESENTATION_KEY_${label.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`
  const lines = ['#!/bin/sh', '# The requests a replay sent, as sent (ids are the ones the target answered then).', '']
  for (const { request } of steps) {
    const parts = ['curl', '-i', '-X', request.method, quote(request.url)]
    for (const [name, value] of Object.entries(request.headers))
      parts.push(
        '-H',
        name === 'authorization' && request.keyLabel !== undefined
          ? `"Authorization: Bearer $${variable(request.keyLabel)}"`
          : quote(`${name}: ${value}`),
      )
    if (request.body !== undefined) parts.push('--data-raw', quote(request.body))
    lines.push(parts.join(' '))
  }
  return `${lines.join('\n')}\n`
}

/** The entries sent up to the first divergence, as a HAR (keys as labels) that `replay` sends again. */
function counterexampleHar(steps: ReplayResult['steps'], upTo: number, recorded: Map<number, unknown>): Har {
  return {
    log: {
      version: '1.2',
      creator: { name: NAME, version: VERSION },
      entries: steps.filter((s) => s.index <= upTo).map((s) => recorded.get(s.index)),
    },
  }
}

const request = (r: SentRequest) =>
  `${r.method} ${r.url}${r.body === undefined ? '' : ` ${r.body.length > 200 ? `${r.body.slice(0, 200)}…` : r.body}`}`

export async function replayMain(argv: readonly string[], io: Io): Promise<number> {
  const command = replayCommand()
  const flags = parseArgv<ReplayFlags>(command, argv, io)
  if (typeof flags === 'number') return flags
  const [file] = command.args as [string]
  const fail = (message: string) => usageError(io, NAME, message)
  const target = targetOptionsFrom(flags)
  if (typeof target === 'string') return fail(target)
  const counterexample = flags.counterexample ?? 'replay-counterexample.har'
  const problem = unwritable(counterexample)
  if (problem !== undefined && !flags.dryRun) return fail(`--counterexample: ${problem}`)
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    return fail(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
  }
  let entries: ReturnType<typeof readHar>
  try {
    entries = readHar(text, file)
  } catch (error) {
    if (error instanceof HarError) return fail(error.message)
    throw error
  }

  let baseUrl: string
  let doFetch: typeof fetch = globalThis.fetch
  let sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
  let close = async () => {}
  if (flags.baseUrl !== undefined) baseUrl = flags.baseUrl.replace(/\/+$/, '')
  else {
    // An emulator of our own: manual clock (a poll's wait moves it), no rate limit (a recording may be dense).
    const { createEmulator } = await import('../../src/index.js')
    const emulator = createEmulator({ clock: 'manual', rateLimit: 0 })
    await emulator.ready()
    baseUrl = 'http://127.0.0.1:4010/v1'
    doFetch = emulator.fetch
    if (flags.target === 'http') {
      const server = await emulator.listen({ port: 0, host: '127.0.0.1' })
      baseUrl = `${server.origin}/v1`
      doFetch = globalThis.fetch
    }
    sleep = async (ms) => void (await emulator.control.advanceClock({ ms }))
    close = () => emulator.close()
  }

  io.out(`${NAME} ${VERSION} · ${file} (${entries.length} entries) → ${baseUrl}${flags.dryRun ? ' · dry run' : ''}\n`)
  let result: ReplayResult
  try {
    result = await replay(entries, {
      baseUrl,
      fetch: doFetch,
      keys: flags.key ?? new Map(),
      map: flags.map ?? new Map(),
      allowWrites: flags.allowWrites === true,
      allowGeneration: flags.allowGeneration === true,
      dryRun: flags.dryRun === true,
      sleep,
      jobTimeoutMs: flags.jobTimeout * 1000,
      onStep: (step) => {
        if (step.kind === 'planned') io.out(`  #${step.index} would send ${request(step.request)}\n`)
        else if (step.kind === 'skipped') io.out(`  #${step.index} skipped: ${step.what}: ${step.reason}\n`)
        else
          io.out(
            `  #${step.index} ${step.divergences.length === 0 ? '✓' : '✗'} ${step.request.method} ${step.request.url} → ${step.status} (recorded ${step.recordedStatus})\n`,
          )
      },
    })
  } catch (error) {
    await close()
    return fail(`the target could not be reached: ${(error as Error).message}`)
  }
  await close()
  io.out(`\n${result.sent} sent, ${result.skipped.length} skipped, ${result.divergences.length} divergence(s)\n`)
  if (result.divergences.length === 0) {
    if (!flags.dryRun) io.out('No divergence.\n')
    return EXIT.ok
  }
  const first = result.divergences[0]!
  io.out('\nDivergences (the first one ends the counterexample):\n')
  for (const d of result.divergences)
    io.out(`  entry #${d.index} ${d.operation}: ${d.what}\n    expected: ${shown(d.expected)}\n    actual:   ${shown(d.actual)}\n`)
  const raw = JSON.parse(text.replace(/^\uFEFF/, '')).log.entries as unknown[]
  const recorded = new Map(raw.map((entry, i) => [i + 1, entry]))
  try {
    writeFileSync(counterexample, `${JSON.stringify(counterexampleHar(result.steps, first.index, recorded), null, 1)}\n`, { mode: 0o600 })
    const script = `${counterexample.replace(/\.har$/, '')}.sh`
    writeFileSync(script, curlScript(result.steps.filter((s) => s.index <= first.index)), { mode: 0o700 })
    io.out(`\nCounterexample: ${counterexample} (replay it: presentation-conformance replay ${counterexample} …), curl script: ${script}\n`)
  } catch (error) {
    io.err(`${NAME}: could not write the counterexample: ${(error as Error).message}\n`)
  }
  return EXIT.findings
}
