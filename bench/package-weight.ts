/**
 * What installing the package costs: the tarball `npm pack` makes, and the
 * `node_modules` that `npm install presentation-emulator` adds to an empty
 * app (peers left out: msw is the app's own), installed offline from the
 * npm cache.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ROOT } from './lib/process.js'
import type { Row } from './lib/row.js'
import { kb, mb } from './lib/stats.js'

function npm(args: string[], cwd: string): string {
  return execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
}

/** Bytes of every file under `dir`, and the packages installed there (folders right under a `node_modules`). */
function measure(dir: string): { bytes: number; packages: number } {
  let bytes = 0
  let packages = 0
  const walk = (path: string, parent: 'modules' | 'scope' | 'other') => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const full = join(path, entry.name)
      if (entry.isDirectory()) {
        const isPackage = (parent === 'modules' && !entry.name.startsWith('.') && !entry.name.startsWith('@')) || parent === 'scope'
        if (isPackage) packages += 1
        walk(full, entry.name === 'node_modules' ? 'modules' : parent === 'modules' && entry.name.startsWith('@') ? 'scope' : 'other')
      } else if (entry.isFile()) bytes += statSync(full).size
    }
  }
  walk(dir, 'modules')
  return { bytes, packages }
}

export async function packageRows(): Promise<Row[]> {
  const work = mkdtempSync(join(tmpdir(), 'pe-pack-'))
  const [packed] = JSON.parse(npm(['pack', '--json', '--ignore-scripts', '--pack-destination', work], ROOT)) as Array<{
    filename: string
    size: number
    unpackedSize: number
    entryCount: number
  }>
  const app = join(work, 'app')
  execFileSync('mkdir', ['-p', app])
  writeFileSync(join(app, 'package.json'), '{"name":"app","private":true}\n')
  npm(
    [
      'install',
      '--offline',
      '--legacy-peer-deps',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      '--no-package-lock',
      join(work, packed!.filename),
    ],
    app,
  )
  const modules = measure(join(app, 'node_modules'))
  const own = measure(join(app, 'node_modules', 'presentation-emulator'))
  return [
    {
      measure: 'package: tarball (`npm pack`) / unpacked',
      emulator: `${kb(packed!.size)} / ${mb(packed!.unpackedSize)} (${packed!.entryCount} files)`,
      baseline: '',
      ratio: '',
      target: '(for information)',
      met: undefined,
    },
    {
      measure: "`node_modules` added by `npm install presentation-emulator` (peers left out: msw is the app's own)",
      emulator: `${mb(modules.bytes)} in ${modules.packages} packages`,
      baseline: `the package itself: ${mb(own.bytes)}`,
      ratio: '',
      target: '(for information)',
      met: undefined,
    },
  ]
}
