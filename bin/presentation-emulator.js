#!/usr/bin/env node
// The CLI, bundled into one file by `npm run build` (scripts/build.ts) for a fast start.
import { main } from '../dist/cli/cli.js'

await main(process.argv)
