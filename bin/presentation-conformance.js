#!/usr/bin/env node
// The conformance kit's CLI: see `presentation-conformance --help`.
import { main } from '../dist/conformance/cli.js'

process.exitCode = await main(process.argv)
