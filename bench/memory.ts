import { runNode } from './lib/process.js'
import type { Row } from './lib/row.js'
import { fmt, median } from './lib/stats.js'

export async function memoryRows(options: { rounds: number; big: number }): Promise<Row[]> {
  const runs: number[] = []
  for (let i = 0; i < options.rounds; i++) {
    runs.push(Number(await runNode(['--expose-gc', '--import', 'tsx', 'bench/memory-child.ts', String(options.big)])))
  }
  const bytes = median(runs)
  return [
    {
      measure: `memory per project (config, one version, no slides), heap bytes over a ${fmt(options.big)}-project world`,
      emulator: `${fmt(bytes / 1024, 2)} KB`,
      baseline: '',
      ratio: '',
      target: '≤ 5 KB',
      met: bytes <= 5 * 1024,
    },
  ]
}
