import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import semver from 'semver'
import { describe, expect, it } from 'vitest'
import { ROOT } from '../support/cli.js'

/**
 * Every package the lockfile pins runs on the oldest Node we support: `npm ci`
 * on Node 20.19 would print EBADENGINE for one that does not (zod-openapi 6
 * did: Node >= 22.14). `.ci/run` also fails on that warning; this test names
 * the package and its range, and sees packages npm skips on this platform.
 */
const own = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>
}

/** The oldest Node version our `engines` allows. */
const floor = semver.minVersion(own.engines.node)!.version

describe('engines', () => {
  it('our floor is Node 20.19', () => {
    expect(floor).toBe('20.19.0')
  })

  it('every package of the lockfile declares a Node range that includes our floor', () => {
    const ranges = Object.entries(lock.packages).flatMap(([path, entry]) => {
      const node = Array.isArray(entry.engines) ? undefined : entry.engines?.node
      return path === '' || node === undefined ? [] : [{ name: `${path.replace(/^.*node_modules\//, '')}@${entry.version}`, node }]
    })
    // The lockfile is not empty of engines: most packages declare one.
    expect(ranges.length).toBeGreaterThan(100)
    const refused = ranges
      .filter(({ node }) => !semver.satisfies(floor, node, { includePrerelease: true }))
      .map(({ name, node }) => `${name} wants node ${node}`)
    expect(refused).toEqual([])
  })
})
