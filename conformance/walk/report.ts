/** How a walk reads: numbered steps, the diverging fact marked, a curl script, and a replay file. */
import { KEY_VARIABLE } from '../curl.js'
import * as z from 'zod'
import { issuePath, WalkStepSchema, type WalkStep } from './steps.js'
import { WALK_FORMAT, type WalkResult } from './walk.js'

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
  seed: z.int().min(0).max(2 ** 31 - 1),
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

/** The curl commands of every request of the counterexample, in order, as a shell script. */
export function curlScript(result: WalkResult): string {
  if (result.counterexample === undefined) return ''
  const lines = ['#!/bin/sh', `# Replays the walk's counterexample (seed ${result.seed}) against ${result.target.baseUrl}.`, `# Set ${KEY_VARIABLE} to the key first. Slugs are those of the run that found it.`, 'set -x']
  for (const record of result.counterexample.steps) {
    lines.push('', `# ${record.index + 1}. ${record.description}`)
    lines.push(...record.target.curls)
  }
  return `${lines.join('\n')}\n`
}

export function walkText(result: WalkResult, files: { replay?: string; script?: string } = {}): string {
  const out: string[] = []
  const where = result.target.kind === 'deployment' ? `deployment ${result.target.baseUrl}` : `${result.target.kind} emulator (${result.target.baseUrl})`
  out.push(`walk · ${where} · seed ${result.seed} · ${result.runs} run(s) of at most ${result.requested.steps} steps · ${result.stepsRun} steps · ${Math.round(result.durationMs / 100) / 10} s`)
  if (result.interrupted) out.push(`the time budget ran out after ${result.runs} of ${result.requested.runs} runs`)
  const ce = result.counterexample
  if (ce === undefined) {
    out.push('', 'No divergence: the target agreed with the emulator on everything the spec requires.')
  } else {
    out.push('', `DIVERGENCE after ${ce.steps.length} step(s)${ce.path === undefined ? '' : ` (shrunk; fast-check path ${ce.path})`}:`)
    for (const record of ce.steps) {
      const mark = record.divergence === undefined ? ' ' : '✗'
      out.push(`${mark} ${String(record.index + 1).padStart(2)}. ${record.description}`)
      for (const exchange of record.target.exchanges) out.push(`       ${exchange.request.method} ${exchange.request.url} → ${exchange.response.status}`)
      if (record.divergence !== undefined) {
        const d = record.divergence
        out.push(`     the target’s ${d.fact} is ${show(d.target)}; the spec requires ${show(d.predicted)} (as the emulator answers)`)
        const last = record.target.exchanges.at(-1)
        if (last !== undefined) {
          if (last.request.body !== undefined) out.push(`     request body: ${last.request.body}`)
          out.push(`     response: ${last.response.status} ${last.response.body}`)
        }
        out.push(`     facts of the target: ${show(record.target.facts)}`)
        out.push(`     predicted:           ${show(record.predicted)}`)
      }
    }
    if (files.replay !== undefined) out.push('', `Replay it: presentation-conformance walk --replay ${files.replay} (with the same target flags)`)
    if (files.script !== undefined) out.push(`A curl script of the whole sequence: ${files.script} (reads the key from $${KEY_VARIABLE})`)
  }
  if (result.createdProjects.length > 0) out.push('', `The walk created ${result.createdProjects.length} project(s) named conformance-${result.runId}-… (the API has no delete).`)
  return out.join('\n')
}

export { WALK_FORMAT }
