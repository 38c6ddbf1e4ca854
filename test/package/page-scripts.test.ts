import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

describe('the pages’ browser scripts', () => {
  it('are served from a bundle that matches their source (run `npm run build:client` after editing web/pages/client/)', async () => {
    const run = promisify(execFile)
    const result = await run(process.execPath, ['scripts/build-client.mjs', '--check']).then(
      () => 'fresh',
      (error: { stderr?: string }) => error.stderr ?? String(error),
    )
    expect(result).toBe('fresh')
  })
})
