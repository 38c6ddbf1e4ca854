/** The package version, reported by `GET /_emulator/health` (kept equal to package.json by a test). */
export const VERSION = '0.1.0'
