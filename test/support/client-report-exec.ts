/**
 * A command for `presentation-emulator exec` (test/cli/client-report.test.ts):
 * makes an account through the control plane `exec` names in the
 * environment, then runs the reference client (`reference`) or one
 * misbehaving client (a rule id) with it. Run as
 * `node --import tsx test/support/client-report-exec.ts <which>`.
 */
import { createControlClient } from '../../src/client/index.js'
import { type ClientSetup, MISBEHAVING, type MisbehaviourHelpers, referenceClient } from './client-report-clients.js'

const which = process.argv[2] ?? 'reference'
const control = createControlClient({ url: process.env.PRESENTATION_EMULATOR_CONTROL_URL! })
const clock = (await control.clock()).mode
const account = await control.createAccount({ credits: 10 })
const sleep = (ms: number): Promise<void> =>
  clock === 'manual'
    ? control.advanceClock({ ms: Math.ceil(ms) }).then(() => undefined)
    : new Promise<void>((resolve) => setTimeout(resolve, ms))
const setup: ClientSetup = {
  baseUrl: process.env.PRESENTATION_EMULATOR_URL!,
  apiKey: account.apiKey,
  fetch: globalThis.fetch,
  sleep,
  setCredits: async (credits) => {
    await control.setCredits(account.teamId, { credits })
  },
}
const helpers: MisbehaviourHelpers = {
  clock,
  async projects(n) {
    for (let i = 0; i < n; i++) {
      await fetch(`${setup.baseUrl}/projects`, {
        method: 'POST',
        headers: { authorization: `Bearer ${account.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Project ${i}` }),
      })
    }
  },
  async refusedKey() {
    const key = await control.createKey({ userId: account.userId })
    await control.revokeKey(key.keyId)
    return key.apiKey
  },
  async completeJob(jobId) {
    await control.completeJob(jobId)
  },
  async addFault(fault) {
    await control.addFault({ ...fault, apiKey: account.apiKey } as never)
  },
}

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
