/**
 * The Node slide checker is safe by construction (issue 32): a slide it
 * checks reaches no network (a canary server on another loopback port
 * counts every connection), reads no file and no environment variable,
 * starts no process, cannot outlive its time limit or grow past its memory
 * ceiling without being ended, and leaves no process behind; the emulator
 * keeps answering its API while a hostile check runs.
 *
 * Each hostile slide reports what it got (its text) rather than failing,
 * so the test sees each way it tried; a secret in this process's
 * environment and a file only this test knows must appear nowhere.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Emulator } from '../../src/emulator.js'
import type { SlideCheckResult } from '../../src/model/slide-checker.js'
import { checkerArgs, NodeSlideChecker } from '../../web/check/node/checker.js'
import { childPids, input, running, showing } from '../check/support.js'

const SECRET = `node-checker-secret-${process.pid}`

/** A server nothing may reach: it counts every connection and request. */
interface Canary {
  origin: string
  port: number
  connections: number
  requests: string[]
  close(): Promise<void>
}

async function startCanary(): Promise<Canary> {
  const sockets = new Set<Socket>()
  const canary: Canary = { origin: '', port: 0, connections: 0, requests: [], close: async () => {} }
  const server: Server = createServer((request, response) => {
    canary.requests.push(`${request.method} ${request.url}`)
    response.end('canary')
  })
  server.on('connection', (socket) => {
    canary.connections++
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  canary.port = (server.address() as { port: number }).port
  canary.origin = `http://127.0.0.1:${canary.port}`
  canary.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy()
      server.close(() => resolve())
    })
  return canary
}

/** Tries each way quietly (the slide renders) and reports what each gave: `name: kind of value` or `name: refused (error)`. */
const TRY = `const tries: string[] = [];
function t(name: string, run: () => unknown) {
  try {
    const value = run();
    tries.push(name + ": " + (value === undefined ? "undefined" : typeof value === "object" || typeof value === "function" ? "GOT " + typeof value : "GOT " + String(value)));
  } catch (e) {
    tries.push(name + ": refused");
  }
}
const g = globalThis as any;
`

describe('the Node slide checker, against hostile slides', () => {
  let emulator: Emulator
  let checker: NodeSlideChecker
  let canary: Canary
  let directory: string
  let secretFile: string

  beforeAll(async () => {
    process.env.PRESENTATION_EMULATOR_TEST_SECRET = SECRET
    canary = await startCanary()
    directory = mkdtempSync(join(tmpdir(), 'node-checker-'))
    secretFile = join(directory, 'secret.txt')
    writeFileSync(secretFile, SECRET)
    emulator = new Emulator({ clock: 'manual' }, {})
    await emulator.ready()
    checker = new NodeSlideChecker(emulator)
  })
  afterAll(async () => {
    await checker?.close()
    emulator?.close()
    await canary?.close()
    rmSync(directory, { recursive: true, force: true })
    delete process.env.PRESENTATION_EMULATOR_TEST_SECRET
  })

  /** Checks a slide; it must not show the secret, and nothing may have reached the canary. */
  async function check(slide: ReturnType<typeof input>): Promise<SlideCheckResult> {
    const result = await checker.check(slide)
    expect(JSON.stringify(result)).not.toContain(SECRET)
    expect(canary.connections).toBe(0)
    expect(canary.requests).toEqual([])
    return result
  }

  it('reaches no network: fetch, XMLHttpRequest, WebSocket, http, net, and import() of node:http, node:net, node:fs or a URL', async () => {
    const result = await check(
      showing(
        'tries.join("; ")',
        `${TRY}t("fetch", () => g.fetch("${canary.origin}/fetch"));
t("XMLHttpRequest", () => new g.XMLHttpRequest());
t("WebSocket", () => new g.WebSocket("ws://127.0.0.1:${canary.port}/"));
t("EventSource", () => new g.EventSource("${canary.origin}/events"));
t("require http", () => g.require("node:http").get("${canary.origin}/http"));
t("process.binding", () => g.process.binding("tcp_wrap"));
t("navigator.sendBeacon", () => g.navigator.sendBeacon("${canary.origin}/beacon"));
t("module", () => g.module.require("node:net").connect(${canary.port}, "127.0.0.1"));`,
      ),
    )
    expect(result.status).toBe('rendered')
    for (const part of result.text.split('; ')) expect(part).toMatch(/: refused$/)
    // A dynamic import goes through the slide's own require, as every import does: refused, whatever it names.
    const imported = await check(
      input(`let loaded = "nothing";
for (const name of ["node:http", "node:net", "node:fs", "${canary.origin}/module.js"]) {
  try { await import(name); loaded += " " + name; } catch (e) { loaded += " refused"; }
}
export default function S() {
  return <p>{loaded}</p>;
}
`),
    )
    expect(imported).toMatchObject({ status: 'rendered', text: 'nothing refused refused refused refused' })
  })

  it('reads no environment variable and no file: process.env, require("fs"), the Function constructor; import.meta is a plain object', async () => {
    const result = await check(
      showing(
        'tries.join("; ")',
        `${TRY}t("process.env", () => g.process.env.PRESENTATION_EMULATOR_TEST_SECRET);
t("require fs", () => g.require("fs").readFileSync(${JSON.stringify(secretFile)}, "utf8"));
t("Function constructor", () => g.constructor.constructor("return process")().env.PRESENTATION_EMULATOR_TEST_SECRET);
t("an async function's constructor", () => (async () => {}).constructor("return process")());
t("eval", () => g.eval("process.env"));
t("indirect eval", () => (0, eval)("1 + 1"));
t("getBuiltinModule", () => g.process.getBuiltinModule("fs"));
t("Buffer", () => g.Buffer.from("x"));`,
      ),
    )
    expect(result.status).toBe('rendered')
    expect(result.text.split('; ')).toEqual([
      'process.env: refused',
      'require fs: refused',
      'Function constructor: refused',
      "an async function's constructor: refused",
      'eval: refused',
      'indirect eval: refused',
      'getBuiltinModule: refused',
      'Buffer: refused',
    ])
    // import.meta is the renderer's own small object, as in the browser.
    const meta = await check(input('export default function S() {\n  return <p>{JSON.stringify(import.meta)}</p>;\n}\n'))
    expect(meta).toMatchObject({ status: 'rendered', text: '{"url":"slide.tsx"}' })
  })

  it('gets no frames to climb with stack tricks: Error.prepareStackTrace is pinned and the stack is text', async () => {
    const result = await check(
      showing(
        'tries.join("; ")',
        `${TRY}t("prepareStackTrace set", () => { (Error as any).prepareStackTrace = (_e: unknown, frames: any[]) => frames; return typeof (new Error("x").stack as unknown); });
t("prepareStackTrace defined", () => Object.defineProperty(Error, "prepareStackTrace", { value: (_e: unknown, frames: any[]) => frames }));
t("stack type", () => typeof (new Error("x").stack as unknown));
t("captured stack type", () => { const o: any = {}; Error.captureStackTrace(o); return typeof o.stack; });
t("a frame's function", () => { const o: any = {}; Error.captureStackTrace(o); return (o.stack as any)[0].getFunction(); });`,
      ),
    )
    expect(result.text.split('; ')).toEqual([
      'prepareStackTrace set: refused',
      'prepareStackTrace defined: refused',
      'stack type: GOT string',
      'captured stack type: GOT string',
      "a frame's function: refused",
    ])
  })

  it('starts no process and no worker', async () => {
    const before = childPids()
    const result = await check(
      showing(
        'tries.join("; ")',
        `${TRY}t("child_process", () => g.require("child_process").spawnSync("touch", [${JSON.stringify(join(directory, 'spawned'))}]));
t("process.dlopen", () => g.process.dlopen({}, "/nonexistent.node"));
t("Worker", () => new g.Worker("data:text/javascript,1"));
t("worker_threads", () => new (g.require("worker_threads").Worker)("1", { eval: true }));`,
      ),
    )
    expect(result.text.split('; ').every((part) => part.endsWith(': refused'))).toBe(true)
    expect(childPids()).toEqual(before)
  })

  it('cannot outlive its time limit: a loop, an endless promise chain, each ended, no process left', async () => {
    for (const tsx of [
      'export default function Forever() {\n  for (;;) {}\n}\n',
      'export default async function Later() {\n  for (;;) await null;\n}\n',
      'const spin = (): Promise<void> => Promise.resolve().then(spin);\nexport default function Spin() {\n  spin();\n  return <p>left running</p>;\n}\n',
    ]) {
      await checker.check(showing('"warm"'))
      const pid = checker.pid!
      const result = await check(input(tsx))
      // The slide that leaves work running renders (its answer comes first); its process is ended, not reused.
      expect(['timeout', 'error', 'rendered']).toContain(result.status)
      // Within its 2 s, or the 2 s a process has to show it is idle after its answer.
      await expect.poll(() => running(pid), { timeout: 10_000 }).toBe(false)
    }
    // No process but the checker's current one (if it has one): both read at each poll, since the checker may
    // still be ending the process of the last slide's retry when the loop above ends.
    await expect
      .poll(
        () => {
          const current = checker.pid
          return childPids().filter((pid) => pid !== current)
        },
        { timeout: 10_000 },
      )
      .toEqual([])
  })

  it('keeps the emulator answering its API while a hostile check runs', async () => {
    await checker.check(showing('"warm"'))
    const hostile = checker.check(input('export default function Forever() {\n  for (;;) {}\n}\n'))
    let answered = 0
    let settled = false
    void hostile.finally(() => {
      settled = true
    })
    // API calls while the slide spins in the checker's process: each is answered (the emulator's own thread is free).
    while (!settled && answered < 20) {
      const response = await emulator.handle({ method: 'GET', path: '/v1/projects', query: '', headers: {}, body: null })
      expect(response.status).toBe(401)
      answered++
      await new Promise((resolve) => setImmediate(resolve))
    }
    expect(answered).toBe(20)
    expect(settled).toBe(false)
    expect((await hostile).status).toBe('timeout')
  })

  it('starts its process so that even code outside the locked scope reads no file or environment and starts nothing', () => {
    // The second wall: a script with all of Node's globals, started as the checker starts its process.
    const script = `const out = [];
const t = (name, run) => { try { run(); out.push(name + ": done"); } catch (e) { out.push(name + ": " + (e.code || e.name)); } };
t("read", () => require("fs").readFileSync(${JSON.stringify(secretFile)}, "utf8"));
t("write", () => require("fs").writeFileSync(${JSON.stringify(join(directory, 'written'))}, "x"));
t("spawn", () => require("child_process").spawnSync("true"));
t("worker", () => new (require("worker_threads").Worker)("1", { eval: true }));
t("eval", () => eval("1"));
out.push("env: " + JSON.stringify(process.env));
process.stdout.write(out.join("\\n"));`
    const ran = spawnSync(process.execPath, checkerArgs(), { input: script, env: {}, encoding: 'utf8' })
    expect(ran.stdout.split('\n')).toEqual([
      'read: ERR_ACCESS_DENIED',
      'write: ERR_ACCESS_DENIED',
      'spawn: ERR_ACCESS_DENIED',
      'worker: ERR_ACCESS_DENIED',
      'eval: EvalError',
      'env: {}',
    ])
    expect(existsSync(join(directory, 'written'))).toBe(false)
  })

  it('leaves no process behind when closed', async () => {
    await checker.check(showing('"warm"'))
    expect(childPids()).toHaveLength(1)
    await checker.close()
    expect(childPids()).toEqual([])
  })
})
