#!/usr/bin/env node
// `npm run fuzz -- --seed S --runs N`: the fuzz properties of test/fuzz with
// another seed and N runs per property (20 /v1 operations, 23 control-plane
// routes, 1 raw-HTTP property), without time limits. A failure prints the
// counterexample and the seed and path that replay it.
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const args = process.argv.slice(2)
const value = (name) => {
  const i = args.indexOf(name)
  return i === -1 ? undefined : args[i + 1]
}
const seed = value('--seed') ?? String(Date.now() % 2 ** 31)
const runs = value('--runs') ?? '1000'
if (!/^-?\d+$/.test(seed) || !/^\d+$/.test(runs) || Number(runs) < 1) {
  console.error('usage: npm run fuzz -- [--seed S] [--runs N]   (S an integer, N ≥ 1 runs per property)')
  process.exit(2)
}
console.log(`fuzzing with seed ${seed}, ${runs} runs per property`)
const root = fileURLToPath(new URL('../..', import.meta.url))
const child = spawn(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', 'test/fuzz'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, FUZZ_SEED: seed, FUZZ_RUNS: runs },
})
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
