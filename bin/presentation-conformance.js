#!/usr/bin/env node
// The conformance kit's CLI (bundled by `npm run build`): see `presentation-conformance --help`.
import { main } from '../dist/node/conformance-cli.js'

process.exitCode = await main(process.argv)
