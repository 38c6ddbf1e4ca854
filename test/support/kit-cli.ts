/** The kit's command line run in-process, its stdout and stderr collected: what the CLI tests call. */
import { main } from '../../conformance/index.js'

export async function kitCli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = ''
  let err = ''
  const code = await main(['node', 'presentation-conformance', ...args], { out: (t) => void (out += t), err: (t) => void (err += t) })
  return { code, out, err }
}
