/**
 * A global setup of every test run: the pages' and the renderer's browser
 * scripts (`web/generated/`, build output that git ignores) exist and match
 * their sources before any test imports them. `scripts/build-client.mjs`
 * writes nothing when no input changed, so this costs a fraction of a
 * second after the first run.
 */
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'

export default function setup(): void {
  execFileSync(process.execPath, [join(import.meta.dirname, '..', '..', 'scripts', 'build-client.mjs')], { stdio: 'inherit' })
}
