#!/usr/bin/env node
// `npm run fuzz -- --seed S --runs N`: the fuzz properties of test/fuzz with
// another seed and N runs per property (20 /v1 operations, 26 control-plane
// routes, 1 raw-HTTP property), without time limits, the files side by side.
// A line per property as it ends (test/fuzz/progress-reporter.ts), a table of
// the figures at the end. A failure prints the counterexample and the seed
// and path that replay it: `npm run fuzz -- --seed S --path P --grep NAME`
// runs that case alone (NAME: part of the property's name).
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const args = process.argv.slice(2)
const value = (name) => {
  const i = args.indexOf(name)
  return i === -1 ? undefined : args[i + 1]
}
const seed = value('--seed') ?? String(Date.now() % 2 ** 31)
const runs = value('--runs') ?? '1000'
const path = value('--path')
const grep = value('--grep')
if (!/^-?\d+$/.test(seed) || !/^\d+$/.test(runs) || Number(runs) < 1 || (path !== undefined && !/^\d+(:\d+)*$/.test(path))) {
  console.error(
    'usage: npm run fuzz -- [--seed S] [--runs N] [--path P] [--grep NAME]   (S an integer, N ≥ 1 runs per property, P a replay path)',
  )
  process.exit(2)
}
console.log(`fuzzing with seed ${seed}, ${runs} runs per property${path === undefined ? '' : `, replaying path ${path}`}`)
const root = fileURLToPath(new URL('../..', import.meta.url))
const reporters = ['--reporter=default', '--reporter=./test/fuzz/progress-reporter.ts']
// The two long files (the /v1 and the control-plane properties) each on a core, the HTTP one beside them (mostly waiting on sockets).
const filter = grep === undefined ? [] : ['-t', grep]
const child = spawn(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', 'test/fuzz', '--maxWorkers=3', ...filter, ...reporters], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, FUZZ_SEED: seed, FUZZ_RUNS: runs, FUZZ_PATH: path ?? '' },
})
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
