// Run by `npm run bench -- --against=DIR`, one process per side: `node bench/transpile-child.mjs ROOT` times
// `transpileSlideTsx` of the checkout at ROOT (its source, web/render/transpile.ts, or src/render/transpile.ts in
// a build before the web room), each checkout with its own heap and compiled code (serveTranspileTimes in
// bench/lib/transpile-time.ts says the protocol). The transpiler is not exported by the built package, so both
// sides load their source through tsx's scoped import, alike.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { tsImport } from 'tsx/esm/api'

const root = process.argv[2]
if (root === undefined) throw new Error('usage: node bench/transpile-child.mjs ROOT')
const file = [join(root, 'web', 'render', 'transpile.ts'), join(root, 'src', 'render', 'transpile.ts')].find((path) => existsSync(path))
if (file === undefined) throw new Error(`no transpile.ts in ${root}/web/render or ${root}/src/render`)
const { transpileSlideTsx } = await tsImport(pathToFileURL(file).href, import.meta.url)
const { serveTranspileTimes } = await tsImport('./lib/transpile-time.ts', import.meta.url)
serveTranspileTimes(transpileSlideTsx)
