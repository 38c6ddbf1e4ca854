import { basename } from 'node:path'
import type { Reporter, TestCase, TestModule } from 'vitest/node'

/**
 * The progress of `npm run fuzz` (test/fuzz/run.mjs), printed as it goes:
 * a line per property as soon as it ends (its cases, time and cases per
 * second), and at the end a table of every property, the figures
 * docs/fuzzing.md keeps. vitest's own reporter prints a file's results only
 * once the whole file has run, which for a long run is many minutes.
 */
export default class FuzzProgressReporter implements Reporter {
  readonly #runs = Number(process.env.FUZZ_RUNS ?? '0')
  readonly #rows: Array<{ file: string; name: string; cases: number; ms: number; state: string }> = []
  #started = 0
  #total = 0

  onTestRunStart(): void {
    this.#started = performance.now()
  }

  onTestModuleCollected(module: TestModule): void {
    this.#total += [...module.children.allTests()].length
  }

  onTestCaseResult(test: TestCase): void {
    const file = basename(test.module.moduleId).replace(/\.fuzz\.test\.ts$/, '')
    const name = test.name.replace(/:.*$/, '')
    const { duration } = test.diagnostic() ?? { duration: 0 }
    const state = test.result().state
    // A failing property stops at its counterexample: its count is not the full run.
    const cases = state === 'passed' ? this.#runs : 0
    this.#rows.push({ file, name, cases, ms: duration, state })
    const rate = cases > 0 && duration > 0 ? `, ${Math.round((cases / duration) * 1000)} cases/s` : ''
    const elapsed = ((performance.now() - this.#started) / 1000).toFixed(0)
    process.stdout.write(
      `[fuzz ${this.#rows.length}/${this.#total}, ${elapsed} s] ${file} › ${name}: ${state}, ${cases} cases in ${(duration / 1000).toFixed(1)} s${rate}\n`,
    )
  }

  onTestRunEnd(): void {
    if (this.#rows.length === 0) return
    const seconds = (performance.now() - this.#started) / 1000
    const cases = this.#rows.reduce((sum, row) => sum + row.cases, 0)
    const lines = [
      '',
      `[fuzz] ${cases.toLocaleString('en')} cases in ${seconds.toFixed(0)} s of wall time (${Math.round(cases / seconds)} cases/s overall)`,
      '',
      '| file | property | cases | s | cases/s |',
      '|---|---|---:|---:|---:|',
      ...this.#rows.map(
        (row) =>
          `| ${row.file} | ${row.name}${row.state === 'passed' ? '' : ` (${row.state})`} | ${row.cases} | ${(row.ms / 1000).toFixed(1)} | ${row.cases > 0 && row.ms > 0 ? Math.round((row.cases / row.ms) * 1000) : ''} |`,
      ),
      '',
    ]
    process.stdout.write(`${lines.join('\n')}\n`)
  }
}
