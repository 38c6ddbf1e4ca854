/**
 * Writes the generated part of docs/conformance/facts.md from the table of
 * facts (conformance/facts/table.ts), between its markers; a test fails when
 * the committed file differs. Run: `npm run docs:conformance`.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { FACTS, type LearnedFact, type NeverFact, type SpecFact } from '../conformance/facts/table.js'

export const FACTS_DOC = fileURLToPath(new URL('../docs/conformance/facts.md', import.meta.url))
const BEGIN = '<!-- generated from conformance/facts/table.ts: npm run docs:conformance -->'
const END = '<!-- end of generated part -->'

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ')

/** The three tables, as markdown. */
export function factsMarkdown(): string {
  const spec = FACTS.filter((f): f is SpecFact => f.basis === 'spec')
  const learned = FACTS.filter((f): f is LearnedFact => f.basis === 'learned')
  const never = FACTS.filter((f): f is NeverFact => f.basis === 'never')
  return [
    `### Held against every target: what the spec requires (${spec.length})`,
    '',
    '| id | the fact | required by | learned first |',
    '|---|---|---|---|',
    ...spec.map(
      (f) =>
        `| \`${f.id}\` | ${cell(f.statement)}${f.level === 'SHOULD' ? ' (SHOULD: a warning)' : ''} | ${cell(f.clause)} | ${cell(f.learns ?? '')} |`,
    ),
    '',
    `### Learned from the target’s own answers (${learned.length})`,
    '',
    '| id | what the spec leaves to the server | learned from, then held by |',
    '|---|---|---|',
    ...learned.map((f) => `| \`${f.id}\` | ${cell(f.statement)} | ${cell(f.how)} |`),
    '',
    `### Never judged (${never.length})`,
    '',
    '| id | what | why |',
    '|---|---|---|',
    ...never.map((f) => `| \`${f.id}\` | ${cell(f.statement)} | ${cell(f.reason)} |`),
  ].join('\n')
}

/** The file with its generated part replaced. */
export function factsDoc(current: string): string {
  const begin = current.indexOf(BEGIN)
  const end = current.indexOf(END)
  if (begin < 0 || end < begin) throw new Error(`${FACTS_DOC} has no ${BEGIN} … ${END} markers`)
  return `${current.slice(0, begin + BEGIN.length)}\n\n${factsMarkdown()}\n\n${current.slice(end)}`
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(FACTS_DOC, factsDoc(readFileSync(FACTS_DOC, 'utf8')))
  console.log(`wrote ${FACTS_DOC}`)
}
