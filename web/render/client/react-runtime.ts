/**
 * React 19 for the renderer's workers (carried as text by the renderer
 * frame's script, which gives each worker a `blob:` address for it): `react`,
 * `react/jsx-runtime` and `react-dom/server`'s `renderToStaticMarkup`,
 * production builds, put in the `__slideRuntime` slot for the worker's own
 * script to take. A worker loads it once per render: each slide gets a
 * React of its own.
 * `scripts/build-client.mjs` bundles only the legacy (synchronous) server
 * renderer of `react-dom/server.browser`, not the streaming one.
 */
import * as React from 'react'
import { renderToStaticMarkup } from 'react-dom/server.browser'
import * as jsxRuntime from 'react/jsx-runtime'

// The slot the worker's script declares: a global binding, not a property (the worker's global object is frozen).
// biome-ignore lint/style/useConst: declared `let` by the worker's script, which fills and empties it per render
declare let __slideRuntime: unknown
__slideRuntime = Object.freeze({ React, jsxRuntime, renderToStaticMarkup })
