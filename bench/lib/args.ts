/**
 * The arguments of `npm run bench` (bench/run.ts), parsed and checked
 * without running anything.
 */
import { existsSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'

/** The groups `--against` compares, by the names `--only` takes. */
export const AGAINST_GROUPS = ['startup', 'browser', 'http', 'fetch', 'render'] as const

/** What `npm run bench -- …` asks for. */
export interface BenchArgs {
  /** `--quick`: shorter runs. */
  quick: boolean
  /** `--only=a,b`: these groups only; undefined for all. */
  only: string[] | undefined
  /** `--against=DIR` (or `--against DIR`): the other checkout, as an absolute path; undefined for the usual run. */
  against: string | undefined
}

/** A mistake in the arguments, said in one line; the bench exits 2 with it. */
export class UsageError extends Error {
  override name = 'UsageError'
}

/**
 * Parses the bench's arguments (`process.argv.slice(2)`). A relative
 * `--against` is resolved against `cwd`: the directory `npm run` was started
 * in (`INIT_CWD`), not the package root npm runs the script in.
 */
export function parseArgs(argv: readonly string[], cwd: string): BenchArgs {
  const only = argv
    .find((arg) => arg.startsWith('--only='))
    ?.slice('--only='.length)
    .split(',')
    .filter((name) => name !== '')
  const at = argv.findIndex((arg) => arg === '--against' || arg.startsWith('--against='))
  let against: string | undefined
  if (at >= 0) {
    const arg = argv[at]!
    const dir = arg === '--against' ? argv[at + 1] : arg.slice('--against='.length)
    if (dir === undefined || dir === '' || dir.startsWith('--')) {
      throw new UsageError(
        'bench: --against needs a directory: another checkout of this project, installed and built (`npm ci` there), e.g. --against=/tmp/before',
      )
    }
    against = resolve(cwd, dir)
    const unknown = (only ?? []).filter((name) => !(AGAINST_GROUPS as readonly string[]).includes(name))
    if (unknown.length > 0) throw new UsageError(`bench: --only=${unknown.join(',')}: --against compares ${AGAINST_GROUPS.join(', ')}`)
  }
  return { quick: argv.includes('--quick'), only, against }
}

/**
 * Why the checkout at `dir` cannot be measured (its directory, its CLI or its
 * built package missing), with how to make it so, in one line; undefined when
 * it can be.
 */
export function notBuilt(dir: string): string | undefined {
  const build = `build it: (cd ${dir} && npm ci), which runs \`npm run build\``
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    return `bench: --against=${dir}: no such directory; check out the build before there and build it: git worktree add ${dir} <commit> && (cd ${dir} && npm ci)`
  }
  for (const file of [join('bin', 'presentation-emulator.js'), join('dist', 'node', 'index.js')]) {
    if (!existsSync(join(dir, file)))
      return `bench: --against=${dir}: no ${join(dir, file)}, so not a built checkout of this project; ${build}`
  }
  return undefined
}
