/**
 * A command for `presentation-emulator exec` (test/cli/client-report.test.ts):
 * makes an account through the control plane `exec` names in the
 * environment, then runs the reference client (`reference`) or one
 * misbehaving client (a rule id) with it. Run as
 * `node --import tsx test/support/client-report-exec.ts <which>`.
 */
import { createControlClient } from '../../src/client/index.js'
import { type AccountControl, clientFor, MISBEHAVING, referenceClient } from './client-report-clients.js'

const which = process.argv[2] ?? 'reference'
const control = createControlClient({ url: process.env.PRESENTATION_EMULATOR_CONTROL_URL! })
const clock = (await control.clock()).mode
const account = await control.createAccount({ credits: 10 })
const sleep = (ms: number): Promise<void> =>
  clock === 'manual'
    ? control.advanceClock({ ms: Math.ceil(ms) }).then(() => undefined)
    : new Promise<void>((resolve) => setTimeout(resolve, ms))
const { setup, helpers } = clientFor(account, {
  baseUrl: process.env.PRESENTATION_EMULATOR_URL!,
  fetch: globalThis.fetch,
  sleep,
  clock,
  control: control as AccountControl,
})

if (which === 'reference') {
  await control.addFault({ operationId: 'generateProject', status: 502, times: 1, apiKey: account.apiKey })
  await control.addFault({ operationId: 'generateProject', status: 500, times: 1, apiKey: account.apiKey })
  await control.addFault({ operationId: 'listTemplates', status: 429, times: 1, apiKey: account.apiKey })
  await referenceClient(setup)
} else {
  const misbehave = MISBEHAVING[which]
  if (misbehave === undefined) throw new Error(`no misbehaving client "${which}"`)
  await misbehave(setup, helpers)
}
console.log(`ran ${which}`)
