/** How a walk reads: numbered steps, the diverging fact marked, a curl script, and a replay file. */
import { escapeXml } from '../../src/cli/reporter.js'
import { KEY_VARIABLE, KEY_VARIABLES } from '../curl.js'
import { cell, code, fenced } from '../report/markdown.js'
import * as z from 'zod'
import { issuePath, WalkStepSchema, type WalkStep } from './steps.js'
import { WALK_FORMAT, type StepRecord, type WalkExchange, type WalkResult } from './walk.js'

export const REPLAY_FORMAT = 'presentation-conformance/walk-replay@1'

/** A saved counterexample: enough to run it again with `--replay FILE`. */
export interface ReplayFile {
  format: typeof REPLAY_FORMAT
  seed: number
  path: string | undefined
  steps: WalkStep[]
}

export function replayFile(result: WalkResult): ReplayFile | undefined {
  if (result.counterexample === undefined) return undefined
  return { format: REPLAY_FORMAT, seed: result.seed, path: result.counterexample.path, steps: result.counterexample.replay }
}

const ReplayFileSchema = z.strictObject({
  format: z.literal(REPLAY_FORMAT),
  seed: z
    .int()
    .min(0)
    .max(2 ** 31 - 1),
  path: z.string().optional(),
  steps: z.array(WalkStepSchema).min(1).max(1000),
})

/** Reads a replay file; throws an Error naming the file and what is wrong with it. */
export function parseReplay(text: string, source: string): ReplayFile {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new Error(`${source} is not JSON: ${(error as Error).message}`)
  }
  const parsed = ReplayFileSchema.safeParse(json)
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 3).map((issue) => `${issuePath(issue.path) || 'the file'}: ${issue.message}`)
    const more = parsed.error.issues.length > 3 ? `; and ${parsed.error.issues.length - 3} more` : ''
    throw new Error(`${source} is not a walk replay file (${REPLAY_FORMAT}: {format, seed, path?, steps}): ${issues.join('; ')}${more}`)
  }
  return { ...parsed.data, path: parsed.data.path }
}

const show = (value: unknown) => JSON.stringify(value)

/** One line, at most `max` characters (an ellipsis where cut). */
function clip(text: string, max: number): string {
  const line = text.replace(/\s*\n\s*/g, ' ')
  return line.length > max ? `${line.slice(0, max - 1)}…` : line
}

/** A URL as the report shows it: relative to the base URL the header names. */
function relative(url: string, base: string): string {
  return url.startsWith(base) ? url.slice(base.length) || '/' : url
}

// ------------------------------------------------------------------ curl script

const OTHER_KEY_VARIABLE = KEY_VARIABLES.otherTeam
/** Single-quoted for sh. */
const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`
/** Inside double quotes for sh. */
const inDoubleQuotes = (text: string) => text.replace(/[\\"$`]/g, (c) => `\\${c}`)

/** A shell variable's stem for a value found at `path` of a response. */
function stem(path: string): string {
  if (path === 'projectSlug') return 'slug'
  if (path === 'jobId') return 'job'
  if (path === 'nextCursor') return 'cursor'
  return 'slide'
}

const PRELUDE = String.raw`set -eu
BASE=${'$'}{PRESENTATION_BASE_URL:-__BASE__}
: "${'$'}{PRESENTATION_API_KEY:?set PRESENTATION_API_KEY to the API key}"
answer=$(mktemp)
trap 'rm -f "$answer"' EXIT

# call KEY METHOD URL [BODY]: sends one request; prints it, the status and the answer.
call() {
  if [ $# -ge 4 ]; then
    status=$(curl -sS -o "$answer" -w '%{http_code}' -X "$2" -H "Authorization: Bearer $1" -H 'Content-Type: application/json' --data-raw "$4" "$3")
  else
    status=$(curl -sS -o "$answer" -w '%{http_code}' -X "$2" -H "Authorization: Bearer $1" "$3")
  fi
  printf '%s %s -> %s\n' "$2" "$3" "$status"
  head -c 600 "$answer"
  echo
}

# field PATH: a value of the last answer (projectSlug, jobId, nextCursor, slides.0.id), URL-encoded.
field() {
  node -e '
    const path = process.argv[1]
    let value = JSON.parse(require("fs").readFileSync(0, "utf8"))
    for (const part of path.split(".")) value = value == null ? undefined : value[part]
    if (typeof value !== "string") { console.error("the answer has no " + path); process.exit(1) }
    process.stdout.write(encodeURIComponent(value))
  ' "$1" < "$answer"
}
`

const WAIT_JOB = `
# wait_job KEY JOB: polls the job until it is no longer processing (at most 15 minutes).
wait_job() {
  polls=0
  while :; do
    polls=$((polls + 1))
    if [ "$polls" -gt 180 ]; then echo "job $2 still processing after 15 minutes" >&2; exit 1; fi
    curl -sS -o "$answer" -H "Authorization: Bearer $1" "$BASE/projects/jobs/$2"
    state=$(node -e 'process.stdout.write(String(JSON.parse(require("fs").readFileSync(0, "utf8")).status))' < "$answer")
    echo "job $2: $state"
    [ "$state" = processing ] || break
    sleep 5
  done
}
`

const isGenerate = (exchange: WalkExchange) => exchange.request.method === 'POST' && /\/projects\/generate$/.test(exchange.request.url)

/**
 * A POSIX sh script (curl, and node to read JSON) that replays the whole
 * sequence on fresh projects: each slug, slide id, job id and cursor is taken
 * from the answer that gave it, so later requests act on what the script
 * itself made. The key comes from `$PRESENTATION_API_KEY` (another team's
 * from `$PRESENTATION_OTHER_TEAM_KEY`), the base URL may be changed with
 * `$PRESENTATION_BASE_URL`.
 */
export function curlScript(result: WalkResult): string {
  const ce = result.counterexample
  if (ce === undefined) return ''
  const base = result.target.baseUrl.replace(/\/+$/, '')
  const calls = ce.steps.flatMap((record) => record.target.exchanges.map((exchange) => ({ record, exchange })))
  // Which value each request uses, from the latest answer that gave it; a variable for each such
  // answer, numbered in the order the answers came.
  const latest = new Map<string, string>() // value → `${call} ${path}`
  const used = new Set<string>()
  const templates: Array<Array<string | { ref: string }>> = []
  calls.forEach(({ exchange }, i) => {
    const url = new URL(exchange.request.url)
    const path = url.href.startsWith(base) ? url.pathname.slice(new URL(base).pathname.length) : url.pathname
    const parts: Array<string | { ref: string }> = ['"$BASE']
    const use = (ref: string) => {
      used.add(ref)
      parts.push({ ref })
    }
    path.split('/').forEach((segment, n) => {
      if (n > 0) parts.push('/')
      const ref = segment === '' ? undefined : latest.get(decodeURIComponent(segment))
      if (ref === undefined) parts.push(inDoubleQuotes(segment))
      else use(ref)
    })
    ;[...url.searchParams].forEach(([name, value], n) => {
      parts.push(`${n === 0 ? '?' : '&'}${encodeURIComponent(name)}=`)
      const ref = name === 'cursor' ? latest.get(value) : undefined
      if (ref === undefined) parts.push(inDoubleQuotes(encodeURIComponent(value)))
      else use(ref)
    })
    parts.push('"')
    templates.push(parts)
    for (const [at, value] of Object.entries(exchange.yields)) latest.set(value, `${i} ${at}`)
  })
  // Every job is polled, so its id is needed too.
  calls.forEach(({ exchange }, i) => {
    if (isGenerate(exchange)) used.add(`${i} jobId`)
  })
  const variables = new Map<string, string>() // `${call} ${path}` → variable
  const counts = new Map<string, number>()
  const ordered = [...used].sort((a, b) => Number(a.split(' ')[0]) - Number(b.split(' ')[0]) || (a < b ? -1 : 1))
  for (const ref of ordered) {
    const kind = stem(ref.split(' ')[1]!)
    const n = (counts.get(kind) ?? 0) + 1
    counts.set(kind, n)
    variables.set(ref, `${kind}${n}`)
  }
  const urls = templates.map((parts) => parts.map((part) => (typeof part === 'string' ? part : `\${${variables.get(part.ref)!}}`)).join(''))
  const generates = calls.some(({ exchange }) => isGenerate(exchange))
  const other = calls.some(({ exchange }) => exchange.key === 'other')
  const lines = [
    '#!/bin/sh',
    `# Replays the walk's counterexample (seed ${result.seed}${ce.path === undefined ? '' : `, path ${ce.path}`}) against ${base}:`,
    '# the same requests in order, on projects it makes afresh (each slug, slide id, job id and cursor',
    '# is read from the answer that gave it). Needs curl and node.',
    `# Set ${KEY_VARIABLE}${other ? ` and ${OTHER_KEY_VARIABLE} (another team's key)` : ''}; PRESENTATION_BASE_URL to replay elsewhere.`,
    ...(calls.some(
      ({ exchange }) =>
        exchange.request.url.includes('/slides') && exchange.request.method === 'POST' && !exchange.request.url.includes('/editing'),
    )
      ? ["# Slides are made through the emulator's create-slide extension, as the walk made them."]
      : []),
    PRELUDE.replace('__BASE__', quote(base)).trimEnd(),
    ...(other ? [`: "\${${OTHER_KEY_VARIABLE}:?set ${OTHER_KEY_VARIABLE} to a key of another team}"`] : []),
    ...(generates ? [WAIT_JOB.trimEnd()] : []),
  ]
  let i = 0
  for (const record of ce.steps) {
    lines.push('', `# ${record.index + 1}. ${record.description}`)
    lines.push(`#    predicted: ${clip(agreedText(record), 200)}`)
    if (record.note !== undefined) lines.push(`#    ${record.note}`)
    for (const exchange of record.target.exchanges) {
      const keyRef = exchange.key === 'other' ? `"$${OTHER_KEY_VARIABLE}"` : `"$${KEY_VARIABLE}"`
      const body = exchange.request.body === undefined ? '' : ` ${quote(exchange.request.body)}`
      lines.push(`call ${keyRef} ${exchange.request.method} ${urls[i]!}${body}`)
      for (const [path] of Object.entries(exchange.yields)) {
        const name = variables.get(`${i} ${path}`)
        if (name !== undefined) lines.push(`${name}=$(field ${path})`)
      }
      if (isGenerate(exchange)) {
        // The walk polled the job between this request and the next (polls are not in its report).
        const job = variables.get(`${i} jobId`)!
        lines.push(`wait_job ${keyRef} "$${job}"`)
      }
      i++
    }
    if (record.divergence !== undefined) {
      const d = record.divergence
      lines.push(`echo ${quote(clip(`Step ${record.index + 1} diverged in the walk: ${divergenceText(d)}.`, 400))}`)
    }
  }
  return `${lines.join('\n')}\n`
}

// ------------------------------------------------------------------ human report

/** What a step's answer was held to and met: its status, then the facts of the table that held. */
function agreedText(record: StepRecord, without?: string): string {
  const status = without === 'status' ? [] : [`status ${show(record.predicted.status)}`]
  return [...status, ...record.target.held.filter((id) => id !== without)].join(', ')
}

/** A divergence in one line: the fact, what it was about, what the spec requires and what the target answered. */
export function divergenceText(d: NonNullable<StepRecord['divergence']>, max = 160): string {
  const about = d.subject === undefined ? '' : ` (${d.subject})`
  return `${d.fact}${about}: the spec requires ${clip(show(d.predicted), max)}; the target answered ${clip(show(d.target), max)}`
}

const SHOWN_EXCHANGES = 4

/** A step's requests, answers and what was compared, in a few bounded lines. */
function stepLines(record: StepRecord, base: string): string[] {
  const out: string[] = []
  const mark = record.divergence === undefined ? ' ' : '✗'
  out.push(`${mark} ${String(record.index + 1).padStart(2)}. ${record.description}`)
  const exchanges = record.target.exchanges
  for (const exchange of exchanges.slice(0, SHOWN_EXCHANGES)) {
    const body = exchange.request.body === undefined ? '' : ` ${clip(exchange.request.body, 100)}`
    out.push(`        ${exchange.request.method} ${relative(exchange.request.url, base)}${body}`)
    out.push(`          → ${exchange.response.status} ${clip(exchange.response.body, 140)}`)
  }
  if (exchanges.length > SHOWN_EXCHANGES)
    out.push(`        … and ${exchanges.length - SHOWN_EXCHANGES} more request(s) (all in --reporter json)`)
  if (record.note !== undefined) out.push(`        not checked: ${record.note}`)
  const d = record.divergence
  if (d !== undefined) {
    out.push(`        ✗ ${divergenceText(d)}`)
    out.push(`          ${clip(`${d.statement} — ${d.clause}`, 240)}`)
    out.push(`          see: ${d.ref}`)
  }
  const agreed = agreedText(record, d?.fact)
  if (agreed !== '') out.push(`        ${d === undefined ? 'held' : 'also held'}: ${clip(agreed, 220)}`)
  return out
}

export function walkText(result: WalkResult, files: { replay?: string; script?: string } = {}): string {
  const out: string[] = []
  const where =
    result.target.kind === 'deployment'
      ? `deployment ${result.target.baseUrl}`
      : `${result.target.kind} emulator (${result.target.baseUrl})`
  const generated =
    result.generations.cap > 0
      ? ` · ${result.generations.started} generation(s), each spending the target’s credits (at most ${result.generations.cap})`
      : ''
  out.push(
    `walk · ${where} · seed ${result.seed} · ${result.runs} run(s) of at most ${result.requested.steps} steps (a scheduled motif's on top) · ${result.stepsRun} steps · ${result.requests} requests${generated} · ${Math.round(result.durationMs / 100) / 10} s`,
  )
  if (result.interrupted) out.push(`the time budget ran out after ${result.runs} of ${result.requested.runs} runs`)
  const ce = result.counterexample
  if (ce === undefined) {
    out.push('', 'No divergence: the target agreed with the emulator on everything the spec requires.')
  } else {
    const found = ce.foundAtRun === undefined ? '' : `found in run ${ce.foundAtRun}`
    const shrunk = ce.shrunk === undefined ? '' : `shrunk from ${ce.shrunk.from} steps in ${ce.shrunk.replays} replays`
    const how = [found, shrunk, ce.path === undefined ? '' : `fast-check path ${ce.path}`].filter((t) => t !== '').join('; ')
    out.push('', `DIVERGENCE after ${ce.steps.length} step(s)${how === '' ? '' : ` (${how})`}; paths are under ${result.target.baseUrl}:`)
    for (const record of ce.steps) out.push(...stepLines(record, result.target.baseUrl.replace(/\/+$/, '')))
    if (files.replay !== undefined)
      out.push('', `Replay it: presentation-conformance walk --replay ${files.replay} (with the same target flags)`)
    if (files.script !== undefined)
      out.push(`A curl script of the whole sequence, on fresh projects: ${files.script} (reads the key from $${KEY_VARIABLE})`)
  }
  const unchecked = Object.entries(result.unchecked)
  if (unchecked.length > 0) {
    out.push('')
    for (const [note, times] of unchecked) out.push(`not checked (${times} step${times === 1 ? '' : 's'}): ${note}`)
  }
  if (result.createdProjects.length > 0)
    out.push(
      '',
      `The walk created ${result.createdProjects.length} project(s) named conformance-${result.runId}-… (the API has no delete).`,
    )
  return out.join('\n')
}

export { WALK_FORMAT }

// ------------------------------------------------------------------ CI formats

/** The walk's id line: where, seed, runs, steps, requests. */
function walkHeading(result: WalkResult): string {
  return `seed ${result.seed} · run ${result.runId} · ${result.runs} of ${result.requested.runs} run(s) · ${result.stepsRun} steps · ${result.requests} requests · ${Math.round(result.durationMs / 100) / 10} s`
}

/**
 * The walk as a markdown summary (`--reporter markdown[=FILE]`), for a CI
 * job summary: the verdict first (a cut-short walk says so before anything),
 * then the divergence in a table and the steps that show it folded in a
 * `<details>` block with their curls. Built from the result, which holds no key.
 */
export function walkMarkdown(result: WalkResult): string {
  const out: string[] = []
  const ce = result.counterexample
  const verdict = ce === undefined ? 'no divergence' : `a divergence after ${ce.steps.length} step(s)`
  out.push(`## Walk: ${verdict}`, '', `${cell(result.target.baseUrl)} · ${walkHeading(result)}`)
  if (result.interrupted) out.push('', `> **Cut short**: the time budget ran out after ${result.runs} of ${result.requested.runs} runs.`)
  if (ce === undefined) {
    out.push('', 'The target agreed with the emulator on everything the spec requires.')
  } else {
    const last = ce.steps.at(-1)
    const d = last?.divergence
    if (d !== undefined) {
      out.push(
        '',
        '| step | fact | clause | the spec requires | the target answered |',
        '|---|---|---|---|---|',
        `| ${last!.index + 1}. ${cell(last!.description)} | ${code(d.fact)} | ${cell(d.clause)} | ${cell(clip(show(d.predicted), 160))} | ${cell(clip(show(d.target), 160))} |`,
        '',
        `${cell(d.statement)} (see ${code(d.ref)})`,
      )
    }
    const steps = ce.steps.map((record) => {
      const curls = record.target.curls.join('\n')
      return `${record.index + 1}. ${record.description}${curls === '' ? '' : `\n\n${fenced(curls, 'sh')}`}`
    })
    out.push('', '<details><summary>The steps, with a curl for each request</summary>', '', steps.join('\n\n'), '', '</details>')
  }
  return `${out.join('\n')}\n`
}

/**
 * The walk as JUnit XML (`--reporter junit[=FILE]`): one test case, failing
 * with the divergence (its fact, clause and steps), skipped only when the
 * time budget left no run to finish, with that reason.
 */
export function walkJunit(result: WalkResult): string {
  const ce = result.counterexample
  const name = `walk (seed ${result.seed}, ${result.runs} of ${result.requested.runs} runs)`
  const time = (result.durationMs / 1000).toFixed(3)
  const parts: string[] = []
  if (ce !== undefined) {
    const d = ce.steps.at(-1)?.divergence
    const message = d === undefined ? `a divergence after ${ce.steps.length} step(s)` : divergenceText(d)
    const body = [
      ...(d === undefined ? [] : [`${d.statement} — ${d.clause} (${d.ref})`, '']),
      ...ce.steps.flatMap((record) => [`${record.index + 1}. ${record.description}`, ...record.target.curls.map((c) => `   ${c}`)]),
    ].join('\n')
    parts.push(`<failure message="${escapeXml(message)}" type="divergence">${escapeXml(body)}</failure>`)
  } else if (result.interrupted && result.runs === 0) {
    parts.push(`<skipped message="${escapeXml('the time budget ran out before the first run')}"/>`)
  }
  const out = result.interrupted ? [`the time budget ran out after ${result.runs} of ${result.requested.runs} runs`] : []
  out.push(walkHeading(result))
  parts.push(`<system-out>${escapeXml(out.join('\n'))}</system-out>`)
  const failures = ce === undefined ? 0 : 1
  const skipped = ce === undefined && result.interrupted && result.runs === 0 ? 1 : 0
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="presentation-conformance walk" tests="1" failures="${failures}" skipped="${skipped}" time="${time}">`,
    `  <testsuite name="walk" tests="1" failures="${failures}" skipped="${skipped}" time="${time}">`,
    `    <testcase name="${escapeXml(name)}" classname="presentation-conformance.walk" time="${time}">${parts.join('')}</testcase>`,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n')
}
