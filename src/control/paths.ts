/** True for the control plane's paths: `/_emulator` and below. */
export function isControlPath(path: string): boolean {
  return path === '/_emulator' || path.startsWith('/_emulator/')
}
