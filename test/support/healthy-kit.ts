/**
 * The kit against the emulator without a defect, built and reached as the
 * defect servers are (`createHookedEmulator` with no hooks, a manual clock,
 * the control plane, writes, generation and reset, seed 11): what shows that
 * a scenario catching a seeded defect fails for the defect, not for the
 * emulator.
 */
import { runConformance } from '../../conformance/index.js'
import type { Report } from '../../conformance/types.js'
import { createHookedEmulator } from './hooked-emulator.js'

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** Runs the kit, spec and emulator checks, on exactly the scenarios `ids` against a healthy emulator. */
export function runAgainstHealthy(ids: Iterable<string>): Promise<Report> {
  const healthy = createHookedEmulator({ clock: 'manual', rateLimit: 50, onError: () => undefined }, {})
  return runConformance({
    fetch: healthy.fetch,
    baseUrl: 'http://127.0.0.1:4010/v1',
    controlUrl: 'http://127.0.0.1:4010/_emulator',
    emulatorChecks: true,
    allowWrites: true,
    allowGeneration: true,
    allowReset: true,
    seed: 11,
    grep: new RegExp(`^(${[...new Set(ids)].map(escapeRegExp).join('|')})$`),
  })
}
