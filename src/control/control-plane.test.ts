import { describe, expect, it } from 'vitest'
import { Emulator } from '../emulator.js'

/** How `putState` turns a document into records: an internal choice, so a unit test (integration tests see only equal state). */
describe('ControlPlane.putState', () => {
  it('copies the document it is given; with adopt, takes its objects as the records, unless a default is to be filled in', async () => {
    const emulator = new Emulator({ clock: 'manual' })
    const { control } = emulator
    const text = JSON.stringify(await control.getState())
    const copied = JSON.parse(text)
    await control.putState(copied)
    expect(emulator.world.projects.get(copied.projects[0].id)).not.toBe(copied.projects[0])
    copied.teams[0].credits = 12345
    expect(emulator.world.teams.get(copied.teams[0].id)!.credits).not.toBe(12345)

    const adopted = JSON.parse(text)
    await control.putState(adopted, { adopt: true })
    expect(emulator.world.projects.get(adopted.projects[0].id)).toBe(adopted.projects[0])
    expect(JSON.stringify(await control.getState())).toBe(text)

    // Tokens without their lists: the parse fills them in, so the records are its copies.
    const defaults = JSON.parse(text)
    defaults.projects[0].config.tokens = {}
    await control.putState(defaults, { adopt: true })
    expect(emulator.world.projects.get(defaults.projects[0].id)!.config.tokens).toStrictEqual({ palette: [], fonts: [] })
    emulator.close()
  })
})
