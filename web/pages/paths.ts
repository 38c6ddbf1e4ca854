/**
 * The pages' static assets, by name: the mount table (`mounts.ts`) serves
 * each at its path without loading the pages (their HTML, styles, scripts
 * and colour maths), which load only when such a path is first requested.
 */

export const ASSET_PREFIX = '/_emulator/assets/'

/** The pages' static assets (`pages/assets.ts` holds their bodies). */
export const ASSET_NAMES = ['pages.css', 'viewer.js', 'dashboard.js', 'favicon.svg'] as const
export type AssetName = (typeof ASSET_NAMES)[number]

/** The path of an asset. */
export function assetUrl(name: AssetName): string {
  return `${ASSET_PREFIX}${name}`
}
