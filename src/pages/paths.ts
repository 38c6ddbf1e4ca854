/**
 * Which paths the pages serve, apart from the pages themselves: the
 * emulator's dispatch and the control plane's ask this small module, and
 * load the pages (their HTML, styles, scripts and colour maths) only when
 * such a path is first requested. No API answer needs them.
 */
import { isRenderAssetPath } from '../render/limits.js'

/** True for the paths the pages serve: `/editor/…` and `/sites/…`. */
export function isPagePath(path: string): boolean {
  return path.startsWith('/editor/') || path.startsWith('/sites/')
}

export const ASSET_PREFIX = '/_emulator/assets/'

/** The pages' static assets (`pages/assets.ts` holds their bodies). */
export const ASSET_NAMES = ['pages.css', 'viewer.js', 'dashboard.js', 'favicon.svg'] as const
export type AssetName = (typeof ASSET_NAMES)[number]

/** The path of an asset. */
export function assetUrl(name: AssetName): string {
  return `${ASSET_PREFIX}${name}`
}

/** True for the path of a known asset (served without the admin token): the pages' own and the slide renderer's. */
export function isAssetPath(path: string): boolean {
  return (
    (path.startsWith(ASSET_PREFIX) && (ASSET_NAMES as readonly string[]).includes(path.slice(ASSET_PREFIX.length))) ||
    isRenderAssetPath(path)
  )
}
