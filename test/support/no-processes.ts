/**
 * A setup file of the fast tier (`npm run test:unit`): a test there runs in
 * its own process and starts none. Any way of starting one throws, naming
 * the file to list in the process tier (`test/tiers.ts`) instead.
 */
import { vi } from 'vitest'

const refuse = (name: string) => () => {
  throw new Error(
    `the fast tier starts no process (child_process.${name} was called): list this test file in PROCESS_TIER (test/tiers.ts), or keep it in-process`,
  )
}

vi.mock('node:child_process', () => {
  const names = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const
  const refusing = Object.fromEntries(names.map((name) => [name, refuse(name)]))
  return { ...refusing, default: refusing }
})
