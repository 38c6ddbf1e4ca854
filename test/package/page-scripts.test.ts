/**
 * The pages' and the renderer's browser scripts are build output: made by
 * `scripts/build-client.mjs` into the ignored `web/generated/`, again only
 * when one of their inputs changed, and never tracked by git.
 */
import { execFile, execFileSync } from 'node:child_process'
import { readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '..', '..')
const STAMP = join(ROOT, 'web', 'generated', 'inputs.json')
const OUTPUTS = ['web/generated/pages-scripts.ts', 'web/generated/render-scripts.ts', 'web/generated/check-scripts.ts']
const run = promisify(execFile)
const buildClient = (...args: string[]) => run(process.execPath, ['scripts/build-client.mjs', ...args], { cwd: ROOT })
const mtimes = () => OUTPUTS.map((file) => statSync(join(ROOT, file)).mtimeMs)

function isGitCheckout(): boolean {
  try {
    return execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd: ROOT }).toString().trim() === ROOT.replace(/\/$/, '')
  } catch {
    return false
  }
}

describe('the browser scripts the pages serve', () => {
  it('are written again only when an input changed, and the stamp names every file the bundles read', async () => {
    await buildClient()
    const stamp = JSON.parse(readFileSync(STAMP, 'utf8')) as { outputs: Record<string, string>; inputs: Record<string, string> }
    expect(Object.keys(stamp.outputs)).toEqual(OUTPUTS)
    expect(Object.keys(stamp.inputs)).toEqual(
      expect.arrayContaining([
        'scripts/build-client.mjs',
        'package-lock.json',
        'web/pages/client/viewer.ts',
        'web/render/client/renderer.ts',
        'web/render/limits.ts',
        'src/model/slide-box.ts',
        'web/check/node/child.ts',
        'web/render/client/slide-world.ts',
      ]),
    )
    const before = mtimes()
    await buildClient()
    expect(mtimes(), 'nothing changed: nothing written').toEqual(before)
    // An input whose hash no longer matches the stamp's (as after an edit) makes the next run write.
    stamp.inputs['web/render/limits.ts'] = '0'.repeat(64)
    writeFileSync(STAMP, JSON.stringify(stamp))
    await buildClient()
    expect(mtimes().every((time, i) => time > before[i]!)).toBe(true)
    const rewritten = JSON.parse(readFileSync(STAMP, 'utf8')) as typeof stamp
    expect(rewritten.inputs['web/render/limits.ts']).not.toBe('0'.repeat(64))
  })

  it.skipIf(!isGitCheckout())('are not tracked by git, and neither is any other build output', () => {
    const tracked = execFileSync('git', ['ls-files'], { cwd: ROOT }).toString().split('\n')
    const generated = tracked.filter((file) => /^web\/generated\/|\.generated\.|^dist\//.test(file))
    expect(generated).toEqual([])
    // And git ignores the folder the build writes them to.
    expect(execFileSync('git', ['check-ignore', 'web/generated/render-scripts.ts'], { cwd: ROOT }).toString().trim()).toBe(
      'web/generated/render-scripts.ts',
    )
  })
})
