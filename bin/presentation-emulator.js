#!/usr/bin/env node
// The CLI, bundled into one file by `npm run build` (scripts/bundle-cli.mjs) for a fast start.
import { main } from '../dist/cli.js'

await main(process.argv)
