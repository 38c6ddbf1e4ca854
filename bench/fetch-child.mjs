// Run by `npm run bench -- --against=DIR`, one process per side: `node bench/fetch-child.mjs ROOT` measures
// `emulator.fetch` on the built package of the checkout at ROOT (`ROOT/dist/node/index.js`), each build with its
// own heap and compiled code (serveListFetch in bench/lib/list-fetch.ts says the protocol).
// Plain JavaScript, without `--import tsx`: tsx rewrites every .js file outside node_modules it loads, and the
// build is measured as it ships; only the bench's own TypeScript goes through tsx (tsImport, scoped to that module).
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { tsImport } from 'tsx/esm/api'

const root = process.argv[2]
if (root === undefined) throw new Error('usage: node bench/fetch-child.mjs ROOT')
const build = await import(pathToFileURL(join(root, 'dist', 'node', 'index.js')).href)
const { serveListFetch } = await tsImport('./lib/list-fetch.ts', import.meta.url)
await serveListFetch(build)
