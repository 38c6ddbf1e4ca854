import { spawn, type ChildProcess } from 'node:child_process'
import { mkdir, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BIN, ensureBuilt, PATIENCE_MS, ROOT, tempDir } from '../support/cli.js'

/**
 * `npx presentation-emulator` in a project that depends on the package:
 * npm 11 runs the bin through `sh -c`, so a signal sent to npx reaches the
 * shell, not node. These tests send SIGTERM / SIGINT to the npx process
 * alone (as a process manager or a test's teardown does) and check that
 * the emulator stops instead of living on, re-parented.
 */

let project: { path: string; remove: () => Promise<void> }
const started: ChildProcess[] = []

beforeAll(async () => {
  await ensureBuilt()
  project = await tempDir('presentation-emulator-npx-')
  await writeFile(join(project.path, 'package.json'), JSON.stringify({ name: 'an-app', version: '1.0.0', private: true }))
  await mkdir(join(project.path, 'node_modules', '.bin'), { recursive: true })
  await symlink(ROOT, join(project.path, 'node_modules', 'presentation-emulator'), 'dir')
  await symlink(BIN, join(project.path, 'node_modules', '.bin', 'presentation-emulator'))
})

afterAll(async () => {
  for (const child of started) child.kill('SIGKILL')
  await project?.remove()
})

/** The environment of a fresh shell: ours without what npm set for this test run. */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('npm_') && !name.startsWith('PRESENTATION_EMULATOR_')),
  )
}

function npx(args: string[], options: { npmFlags?: string[]; ownGroup?: boolean } = {}) {
  const child = spawn('npx', [...(options.npmFlags ?? []), '--no-install', 'presentation-emulator', ...args], {
    cwd: project.path,
    env: cleanEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, as a terminal's foreground job: a signal to -pid reaches npm, sh and node.
    detached: options.ownGroup === true,
  })
  started.push(child)
  let stdout = ''
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)))
  const output = async (pattern: RegExp): Promise<RegExpMatchArray> => {
    const deadline = Date.now() + PATIENCE_MS
    for (;;) {
      const match = pattern.exec(stdout)
      if (match !== null) return match
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no ${pattern} in:\n${stdout}`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
  return { child, exited, output }
}

/** Resolves once nothing answers at `origin` any more; rejects if it still answers after `PATIENCE_MS` (a hang). */
async function stopsAnswering(origin: string): Promise<void> {
  const deadline = Date.now() + PATIENCE_MS
  while (Date.now() < deadline) {
    const answered = await fetch(`${origin}/_emulator/health`).then(
      () => true,
      () => false,
    )
    if (!answered) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`${origin} still answers ${PATIENCE_MS / 1000} s after the signal`)
}

describe('npx presentation-emulator', () => {
  it('stops the emulator when npx alone receives SIGTERM (the shell between them dies; the CLI sees its parent go)', async () => {
    const run = npx(['--port', '0', '--quiet'])
    const [, origin] = await run.output(/listening on (http:\/\/\S+)/)
    expect((await fetch(`${origin}/_emulator/health`)).status).toBe(200)
    run.child.kill('SIGTERM')
    await stopsAnswering(origin!)
    await run.exited
  })

  it.each(['SIGINT', 'SIGTERM'] as const)('stops the emulator on %s to the whole process group (Ctrl-C in a terminal)', async (signal) => {
    const run = npx(['--port', '0', '--quiet'], { ownGroup: true })
    const [, origin] = await run.output(/listening on (http:\/\/\S+)/)
    process.kill(-run.child.pid!, signal)
    await stopsAnswering(origin!)
    // npm itself then re-raises the signal on itself: its exit is by signal, as npm documents.
    await run.exited
  })

  it('stops the emulator when npx alone receives SIGINT, run with --script-shell=bash (which runs the bin in its place)', async () => {
    const run = npx(['--port', '0', '--quiet'], { npmFlags: ['--script-shell=bash'] })
    const [, origin] = await run.output(/listening on (http:\/\/\S+)/)
    run.child.kill('SIGINT')
    await stopsAnswering(origin!)
    await run.exited
  })

  it('passes SIGTERM on to the command of `exec`, then stops the emulator', async () => {
    const script = `console.log('url ' + process.env.PRESENTATION_EMULATOR_URL); process.on('SIGTERM', () => { console.log('command got SIGTERM'); process.exit(0) }); setInterval(() => {}, 1000)`
    const run = npx(['exec', '--quiet', '--', process.execPath, '-e', script])
    const [, base] = await run.output(/url (http:\/\/\S+)\/v1/)
    run.child.kill('SIGTERM')
    await run.output(/command got SIGTERM/)
    await stopsAnswering(base!)
    await run.exited
  })
})
