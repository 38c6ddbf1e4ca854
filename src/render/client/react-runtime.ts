/**
 * React 19 for the renderer's workers (carried as text by the renderer
 * frame's script, at the start of each worker's `blob:` script): `react`,
 * `react/jsx-runtime` and `react-dom/server`'s `renderToStaticMarkup`,
 * production builds, on `self.__slideRuntime` for
 * the worker's own script to take (and remove) before any slide code runs.
 * `scripts/build-client.mjs` bundles only the legacy (synchronous) server
 * renderer of `react-dom/server.browser`, not the streaming one.
 */
import * as React from 'react'
import { renderToStaticMarkup } from 'react-dom/server.browser'
import * as jsxRuntime from 'react/jsx-runtime'

;(self as unknown as { __slideRuntime: unknown }).__slideRuntime = Object.freeze({ React, jsxRuntime, renderToStaticMarkup })
