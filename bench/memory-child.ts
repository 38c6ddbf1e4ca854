/**
 * Run by the benchmark in its own process (`node --expose-gc`): heap bytes
 * per project of a world of N projects with a config and no slides, from
 * the heap with that world and the heap with a 100-project one.
 */
import { createEmulator } from 'presentation-emulator'

const projects = Number(process.argv[2] ?? 100_000)
const gc = (globalThis as { gc?: () => void }).gc
if (gc === undefined) throw new Error('run with --expose-gc')

function fixtures(count: number) {
  return {
    format: 'presentation-emulator/fixtures@1' as const,
    users: [{ id: 'u', name: 'Bench' }],
    teams: [{ id: 't', slug: 't', name: 'Bench', personalOf: 'u', members: ['u'] }],
    apiKeys: [{ key: 'pres_bench', userId: 'u' }],
    projects: [{ teamId: 't', count, slideCount: 0, versions: 1 }],
  }
}

const heap = () => {
  gc()
  gc()
  return process.memoryUsage().heapUsed
}

const small = createEmulator({ clock: 'manual', fixtures: fixtures(100) })
await small.ready()
const before = heap()
const big = createEmulator({ clock: 'manual', fixtures: fixtures(projects) })
await big.ready()
const after = heap()
process.stdout.write(String((after - before) / (projects - 100)))
await Promise.all([small.close(), big.close()])
