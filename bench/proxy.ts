/**
 * The validating proxy's cost: the median latency of one call through it
 * and straight to the emulator, side by side (alternating rounds), the
 * difference (its added latency per call) and the ratio. The proxy runs as
 * the built bin in its own process, as a person runs it, and in this
 * process (no scheduling between processes: what the proxy's own code costs);
 * the emulator and the client share this one.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startProxy } from '../conformance/proxy/server.js'
import { createEmulator } from '../src/index.js'
import { ROOT, stop } from './lib/process.js'
import { ratio, type Row } from './lib/row.js'
import { alternate, fmt, median } from './lib/stats.js'

const KEY = 'pres_test_alice_acme'

/** The median milliseconds of one call, over `count` sequential calls of an ordinary mix (detail, config, list). */
async function perCall(baseUrl: string, slug: string, count: number): Promise<number> {
  const paths = [`/projects/${slug}`, `/projects/${slug}/config`, '/projects?limit=20', '/teams']
  const times: number[] = []
  for (let i = 0; i < count; i++) {
    const started = performance.now()
    const answer = await fetch(`${baseUrl}${paths[i % paths.length]}`, { headers: { authorization: `Bearer ${KEY}` } })
    await answer.arrayBuffer()
    times.push(performance.now() - started)
    if (answer.status !== 200) throw new Error(`${paths[i % paths.length]} answered ${answer.status}`)
  }
  return median(times)
}

/** The proxy bin in front of `target`; resolves once it printed its URL. */
function startProxyBin(target: string, extra: string[] = []): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['bin/presentation-conformance.js', 'proxy', '--base-url', target, '--api-key', KEY, ...extra], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'ignore'],
  })
  return new Promise((resolve, reject) => {
    let out = ''
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const match = /^(http:\/\/\S+\/v1)$/m.exec(out)
      if (match) resolve({ child, url: match[1]! })
    })
    child.once('exit', (code) => reject(new Error(`the proxy exited ${code} before listening`)))
  })
}

export async function proxyRows(options: { rounds: number; count: number }): Promise<Row[]> {
  const emulator = createEmulator({ clock: 'manual', rateLimit: 0 })
  const server = await emulator.listen({ port: 0 })
  const direct = `${server.origin}/v1`
  const dir = mkdtempSync(join(tmpdir(), 'bench-proxy-'))
  const proxy = await startProxyBin(direct)
  const inProcess = await startProxy({ baseUrl: direct, apiKey: KEY })
  const recording = await startProxyBin(direct, ['--record', join(dir, 'bench.har')])
  try {
    const created = await fetch(`${direct}/projects`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Bench deck' }),
    })
    const { projectSlug } = (await created.json()) as { projectSlug: string }
    // Warm-up: connections, JIT.
    for (const base of [direct, proxy.url, inProcess.url, recording.url]) await perCall(base, projectSlug, 50)
    const runs = await alternate(options.rounds, {
      direct: () => perCall(direct, projectSlug, options.count),
      through: () => perCall(proxy.url, projectSlug, options.count),
      inProcess: () => perCall(inProcess.url, projectSlug, options.count),
      recording: () => perCall(recording.url, projectSlug, options.count),
    })
    const d = median(runs.direct)
    const t = median(runs.through)
    const r = median(runs.recording)
    const i = median(runs.inProcess)
    const note = `median of ${options.rounds} runs of ${options.count} sequential calls (detail, config, list, teams); the proxy in its own process`
    return [
      {
        measure: 'proxy: added latency per call (judged)',
        emulator: `${fmt(t - d, 2)} ms (${fmt(t, 2)} ms through)`,
        baseline: `direct ${fmt(d, 2)} ms`,
        ratio: ratio(t / d),
        target: '≤ 2 ms added',
        met: t - d <= 2,
        note,
      },
      {
        measure: 'proxy: added latency per call, in this process',
        emulator: `${fmt(i - d, 2)} ms (${fmt(i, 2)} ms through)`,
        baseline: `direct ${fmt(d, 2)} ms`,
        ratio: ratio(i / d),
        target: '',
        met: undefined,
        note: 'the proxy’s own code, without a second process to schedule on a shared machine',
      },
      {
        measure: 'proxy: added latency per call, recording a HAR',
        emulator: `${fmt(r - d, 2)} ms (${fmt(r, 2)} ms through)`,
        baseline: `direct ${fmt(d, 2)} ms`,
        ratio: ratio(r / d),
        target: '',
        met: undefined,
        note: 'the HAR is rewritten whole after each exchange (off the answer’s path); the file grows through the run',
      },
    ]
  } finally {
    await stop(proxy.child)
    await inProcess.close()
    await stop(recording.child)
    await emulator.close()
    rmSync(dir, { recursive: true, force: true })
  }
}
