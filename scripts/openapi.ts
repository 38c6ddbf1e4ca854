/**
 * `npm run openapi`: writes the OpenAPI document generated from the zod
 * schemas to reference/openapi.json, and the API reference table into
 * docs/reference/api.md. `npm run openapi -- --check` writes nothing and exits 1 when
 * either is stale (the tests run the same check).
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { openApiText } from './openapi/generate.js'
import { API_REFERENCE_DOC, withApiReference } from './openapi/reference.js'

const root = fileURLToPath(new URL('..', import.meta.url))
const check = process.argv.includes('--check')
const targets: Array<[string, string]> = [
  [`${root}reference/openapi.json`, openApiText()],
  [`${root}${API_REFERENCE_DOC}`, withApiReference(readFileSync(`${root}${API_REFERENCE_DOC}`, 'utf8'))],
]
let stale = 0
for (const [file, text] of targets) {
  let current = ''
  try {
    current = readFileSync(file, 'utf8')
  } catch {}
  if (current === text) continue
  stale += 1
  if (check) console.error(`${file} is stale: run npm run openapi`)
  else {
    writeFileSync(file, text)
    console.log(`wrote ${file}`)
  }
}
process.exitCode = check && stale > 0 ? 1 : 0
