/**
 * Run by the benchmark in a fresh process: milliseconds to load a world of
 * N projects (config, one version, no slides), either built from fixtures
 * (`createEmulator({ fixtures })` to `ready()`) or read from a state file
 * (read, parse and `putState` adopting the parsed document: what `--state FILE`
 * does at start, the read included, `readFile` of node:fs/promises, whose one
 * read into a buffer of the file's size costs half of
 * `readFileSync(file, 'utf8')` on a 137 MB file).
 */
import { readFile } from 'node:fs/promises'
import { createEmulator } from 'presentation-emulator'

const [mode, arg] = process.argv.slice(2)

export function benchFixtures(count: number) {
  return {
    format: 'presentation-emulator/fixtures@1' as const,
    users: [{ id: 'u', name: 'Bench' }],
    teams: [{ id: 't', slug: 't', name: 'Bench', personalOf: 'u', members: ['u'] }],
    apiKeys: [{ key: 'pres_bench', userId: 'u' }],
    projects: [{ teamId: 't', count, slideCount: 0, versions: 1 }],
  }
}

/** Wall time and CPU time (all threads: the main one and the garbage collector's) since `started`, in ms. */
function report(started: number, cpu: NodeJS.CpuUsage) {
  const used = process.cpuUsage(cpu)
  process.stdout.write(JSON.stringify({ wall: performance.now() - started, cpu: (used.user + used.system) / 1000 }))
}

if (mode === 'fixtures') {
  const started = performance.now()
  const cpu = process.cpuUsage()
  const emulator = createEmulator({ clock: 'manual', fixtures: benchFixtures(Number(arg)) })
  await emulator.ready()
  report(started, cpu)
  await emulator.close()
} else if (mode === 'state') {
  const emulator = createEmulator({ clock: 'manual', fixtures: benchFixtures(1) })
  await emulator.ready()
  const started = performance.now()
  const cpu = process.cpuUsage()
  await emulator.control.putState(JSON.parse(await readFile(arg!, 'utf8')), { adopt: true })
  report(started, cpu)
  await emulator.close()
}
