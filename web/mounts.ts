/**
 * The web room's rows of the mount table: the pages' assets, the slide
 * renderer's documents, the dashboard, the editor pages and the published
 * sites. The composition root hands them to the emulator it builds
 * (`EmulatorParts.mounts`); each row loads its module on the first request
 * it serves, so a start loads only the API.
 */
import { MAX_NO_BODY_BYTES } from '../src/core/exchange.js'
import type { Mount } from '../src/mounts.js'
import type { DashboardHost } from './dashboard-mount.js'
import type { PageHost } from './pages/page-server.js'
import { ASSET_NAMES, assetUrl } from './pages/paths.js'
import type { RenderHost } from './render/documents.js'
import { RENDER_ASSET_NAMES, RENDER_ASSET_PATH } from './render/limits.js'

/** What the web room's rows need of the emulator that hosts them (the core's `Emulator` is one). */
export type WebHost = PageHost & RenderHost & DashboardHost

/** The dashboard's paths: exact rows for GET and HEAD, ahead of the control plane's row (which serves every other method there). */
const DASHBOARD_PATHS = ['/_emulator', '/_emulator/dashboard/fragment', '/_emulator/dashboard/events']

/** The web room's rows, most specific first; a table puts them after the API's row and before the control plane's. */
export const WEB_MOUNTS: readonly Mount<WebHost>[] = [
  // The pages' static assets hold no data: served to anyone (no admin token), so the editor and sites work with one set.
  // The slide renderer's documents (sandboxed frames) are assets too: the page's frames load them without a token.
  ...[
    ...ASSET_NAMES.map((name) => ({ name: `the pages' asset ${name}`, path: assetUrl(name) })),
    ...RENDER_ASSET_NAMES.map((name) => ({ name: `the slide renderer's ${name}`, path: `${RENDER_ASSET_PATH}${name}` })),
  ].map(
    ({ name, path }): Mount<WebHost> => ({
      name,
      path,
      match: 'exact',
      bodyLimit: MAX_NO_BODY_BYTES,
      browsers: 'own-origins',
      open: async ({ host }) => {
        const { serveAsset } = await import('./pages/assets.js')
        return (request) => serveAsset(request, host)
      },
    }),
  ),
  ...DASHBOARD_PATHS.map(
    (path): Mount<WebHost> => ({
      name: 'the dashboard',
      path,
      match: 'exact',
      methods: ['GET', 'HEAD'],
      bodyLimit: MAX_NO_BODY_BYTES,
      browsers: 'own-origins',
      open: async ({ host, onError }) => {
        const { dashboardHandler } = await import('./dashboard-mount.js')
        return dashboardHandler(host, onError)
      },
    }),
  ),
  ...['/editor', '/sites'].map(
    (path): Mount<WebHost> => ({
      name: path === '/editor' ? 'the editor pages' : 'the published sites',
      path,
      match: 'below',
      bodyLimit: MAX_NO_BODY_BYTES,
      browsers: 'own-origins',
      open: async ({ host }) => {
        const { handlePage } = await import('./pages/page-server.js')
        return (request) => handlePage(host, request)
      },
    }),
  ),
]
