import { describe, expect, it } from 'vitest'
import { createEmulator } from '../../src/index.js'
import { STATE_FORMAT, StateDocument, TABLE_NAMES } from '../../src/store/world.js'
import { expectError, expectSchema, harnessPerTest, startHarness, TEST_DEFAULTS, WAYS } from '../support/harness.js'
import { createAccount, expectBadInput, generate, rejection, stateText } from './support.js'

/** A deep copy of a state document to break on purpose. */
const copy = (doc: StateDocument): any => JSON.parse(JSON.stringify(doc))

describe.each(WAYS)('control plane: state export and import (%s)', (way) => {
  const h = harnessPerTest(way)

  /** Some of everything: accounts, teams, keys, projects, jobs in both outcomes, templates, collaborators, config, publication. */
  const busyWorld = async () => {
    const account = await createAccount(h, { name: 'Busy' })
    await h.control('POST', '/teams', { json: { name: 'Busy team', memberUserIds: [account.userId, 'usr_bob'] } })
    const key = await h.control('POST', '/keys', { json: { userId: 'usr_bob' } })
    await h.control('DELETE', `/keys/${key.body.keyId}`)
    const tpl = await h.control('POST', '/templates', { json: { teamId: account.teamId, name: 'Busy template', slideCount: 2 } })
    const done = await generate(h, account.apiKey, { prompt: 'Completed deck', templateId: tpl.body.templateId })
    await h.control('POST', `/jobs/${done.jobId}/complete`)
    const failed = await generate(h, account.apiKey, { prompt: 'Failed deck' })
    await h.control('POST', `/jobs/${failed.jobId}/fail`, { json: { error: 'nope' } })
    await generate(h, 'pres_test_alice', { prompt: 'Still running' })
    await h.control('POST', '/projects/welcome-deck/collaborators', { json: { userId: account.userId } })
    await h.api('PUT', '/projects/welcome-deck/config', {
      json: { config: { layout: 'CARD', tokens: { palette: [{ name: '--brand', value: '#ff0000' }] } } },
    })
    await h.api('POST', '/projects/welcome-deck/duplicate')
    const slides = await h.api('GET', '/projects/welcome-deck/slides')
    const editing = await h.api('POST', `/projects/welcome-deck/slides/${slides.body.slides[0].id}/editing`, { json: { agentName: 'Bot' } })
    expect(editing.status).toBe(200)
    await h.api('DELETE', '/projects/q3-business-review/publish', { key: 'pres_test_alice_acme' })
    await h.control('POST', '/clock/advance', { json: { ms: 1_000 } })
    return account
  }

  it('exports the whole world as one versioned document', async () => {
    const reply = await h.control('GET', '/state')
    expect(reply.status).toBe(200)
    const doc = expectSchema(StateDocument, reply.body)
    expect(doc.format).toBe(STATE_FORMAT)
    expect(doc.format).toBe('presentation-emulator/state@1')
    expect(doc.seed).toBe(1)
    expect(Object.keys(doc)).toEqual(['format', 'seed', 'sequence', 'clock', ...TABLE_NAMES])
    expect(doc.users.map((u) => u.id)).toEqual(['usr_alice', 'usr_bob'])
    expect(doc.apiKeys.find((k) => k.id === 'key_revoked')?.revokedAt).not.toBeNull()
  })

  it('exports, imports and exports again to the identical text', async () => {
    await busyWorld()
    const exported = await stateText(h)
    const put = await h.control('PUT', '/state', { raw: exported })
    expect(put.status, put.text).toBe(200)
    expect(put.body.format).toBe(STATE_FORMAT)
    expect(put.body.counts.users).toBe(3)
    expect(await stateText(h)).toBe(exported)
  })

  it('replaces the world: what was created after the export is gone, what was there is back', async () => {
    const exported = await stateText(h)
    const created = await h.api('POST', '/projects', { json: { name: 'After the export' } })
    const account = await createAccount(h)
    await h.control('DELETE', '/keys/key_bob')

    expect((await h.control('PUT', '/state', { raw: exported })).status).toBe(200)
    expectError(await h.api('GET', `/projects/${created.body.projectSlug}`), 404, 'NOT_FOUND')
    expectError(await h.api('GET', '/teams', { key: account.apiKey }), 401, 'UNAUTHORIZED')
    expect((await h.api('GET', '/teams', { key: 'pres_test_bob' })).status).toBe(200)
    expect(await stateText(h)).toBe(exported)
  })

  it('moves a world into another emulator, where it answers the same and ids are not reissued', async () => {
    const account = await busyWorld()
    const exported = await stateText(h)
    const other = createEmulator({ ...TEST_DEFAULTS, seed: 99 })
    try {
      const put = await other.fetch('http://127.0.0.1:4010/_emulator/state', { method: 'PUT', body: exported })
      expect(put.status).toBe(200)
      const again = await other.fetch('http://127.0.0.1:4010/_emulator/state')
      expect(await again.text()).toBe(exported)

      // The same projects, the same way (URLs aside: they follow each emulator's origin).
      const auth = { authorization: `Bearer ${account.apiKey}` }
      const withoutUrls = (projects: Array<Record<string, unknown>>) => projects.map(({ editorUrl: _, ...rest }) => rest)
      const here = await h.api('GET', '/projects', { key: account.apiKey })
      const there = await other.fetch('http://127.0.0.1:4010/v1/projects', { headers: auth })
      expect(here.body.projects).toHaveLength(3)
      expect(withoutUrls(((await there.json()) as any).projects)).toEqual(withoutUrls(here.body.projects))

      // New ids continue the sequence in both: the same next id, never an existing one.
      const nextHere = await h.api('POST', '/projects', { key: account.apiKey, json: { name: 'Next' } })
      const nextThere = (await (
        await other.fetch('http://127.0.0.1:4010/v1/projects', {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Next' }),
        })
      ).json()) as any
      expect(nextThere.projectId).toBe(nextHere.body.projectId)
      expect(JSON.parse(exported).projects.map((p: { id: string }) => p.id)).not.toContain(nextThere.projectId)
    } finally {
      await other.close()
    }
  })

  it('resumes a processing job of an imported world: it completes when the clock passes its due time', async () => {
    const job = await generate(h, 'pres_test_alice')
    const exported = await stateText(h)
    await h.control('POST', '/reset')
    expectError(await h.api('GET', `/projects/jobs/${job.jobId}`), 404, 'NOT_FOUND')

    await h.control('PUT', '/state', { raw: exported })
    expect((await h.api('GET', `/projects/jobs/${job.jobId}`)).body.status).toBe('processing')
    await h.control('POST', '/clock/advance', { json: { ms: 10_000 } })
    expect((await h.api('GET', `/projects/jobs/${job.jobId}`)).body.status).toBe('completed')
  })

  /** Each case breaks a valid export in one way; the hint must name the problem. */
  const invalid: Array<[string, (doc: any) => unknown, RegExp]> = [
    ['a wrong format tag', (d) => ({ ...d, format: 'presentation-emulator/state@0' }), /^not a valid state document: format: /],
    [
      'a missing table',
      (d) => {
        delete d.jobs
        return d
      },
      /jobs: is required/,
    ],
    ['an unknown top-level key', (d) => ({ ...d, extra: [] }), /unknown key "extra"/],
    [
      'a negative credit balance',
      (d) => {
        d.teams[0].credits = -1
        return d
      },
      /teams\[0\]\.credits: must be at least 0/,
    ],
    [
      'a date that is not a date',
      (d) => {
        d.projects[0].createdAt = 'yesterday'
        return d
      },
      /projects\[0\]\.createdAt: /,
    ],
    [
      'an invalid project config',
      (d) => {
        d.projects[0].config = { layout: 'DIAGONAL' }
        return d
      },
      /projects\[0\]\.config\.layout: /,
    ],
    [
      'a project slug the API would never make (it is in every URL)',
      (d) => {
        d.projects[0].slug = 'Bad Slug!'
        return d
      },
      /projects\[0\]\.slug: must be lowercase words joined by "-"/,
    ],
    [
      'a project of a team that does not exist',
      (d) => {
        d.projects[0].teamId = 'team_gone'
        return d
      },
      /projects\[0\]\.teamId: no teams record "team_gone"/,
    ],
    [
      'a key of a user that does not exist',
      (d) => {
        d.apiKeys[0].userId = 'usr_gone'
        return d
      },
      /apiKeys\[0\]\.userId: no users record "usr_gone"/,
    ],
    [
      'a key for a team its user is not in',
      (d) => {
        d.apiKeys.find((k: any) => k.id === 'key_bob').teamId = 'team_acme'
        return d
      },
      /is not a member of team "team_acme"/,
    ],
    [
      'a slide of a project that does not exist',
      (d) => {
        d.slides[0].projectId = 'prj_gone'
        return d
      },
      /slides\[0\]\.projectId: no projects record/,
    ],
    [
      'a membership of a team that does not exist',
      (d) => {
        d.memberships[0].teamId = 'team_gone'
        return d
      },
      /memberships\[0\]\.teamId: /,
    ],
    [
      'a collaborator who does not exist',
      (d) => {
        d.projects[0].collaborators = ['usr_gone']
        return d
      },
      /projects\[0\]\.collaborators\[0\]: /,
    ],
    [
      'a publication of a version that does not exist',
      (d) => {
        d.publications[0].versionId = 'ver_gone'
        return d
      },
      /publications\[0\]\.versionId: no versions record "ver_gone"/,
    ],
    [
      'a project whose latest version belongs to another project',
      (d) => {
        d.projects[0].latestVersionId = d.versions.find((v: any) => v.projectId === d.projects[1].id).id
        return d
      },
      /projects\[0\]\.latestVersionId: .*belongs to project/,
    ],
    [
      'an unknown key in a record',
      (d) => {
        d.users[0].nickname = 'Al'
        return d
      },
      /users\[0\]: unknown key "nickname"/,
    ],
    [
      'an unknown key deep in a record',
      (d) => {
        d.slides[0].files['slide.css'] = ''
        return d
      },
      /slides\[0\]\.files: unknown key "slide\.css"/,
    ],
    [
      'a duplicate id',
      (d) => {
        d.users.push({ ...d.users[0] })
        return d
      },
      /users\[2\]\.id: duplicate id "usr_alice"/,
    ],
    [
      'a duplicate API key value',
      (d) => {
        d.apiKeys[1].key = d.apiKeys[0].key
        return d
      },
      /apiKeys\[1\]\.key: duplicate value/,
    ],
    [
      'a duplicate project slug',
      (d) => {
        d.projects[1].slug = d.projects[0].slug
        return d
      },
      /projects\[1\]\.slug: duplicate value/,
    ],
    [
      'a duplicate team slug',
      (d) => {
        d.teams[1].slug = d.teams[0].slug
        return d
      },
      /teams\[1\]\.slug: duplicate value/,
    ],
    [
      'a user in the same team twice',
      (d) => {
        d.memberships.push({ ...d.memberships[0], id: 'mem_copy' })
        return d
      },
      /memberships\[3\]\.userId\+teamId: duplicate value/,
    ],
    [
      'a duplicate custom domain',
      (d) => {
        d.domains.push({ ...d.domains[0], id: 'dom_copy' })
        return d
      },
      /domains\[1\]\.hostname: duplicate value/,
    ],
    ...['', '/a/', '/..', '/a b', 'q3'].map(
      (path) =>
        [
          `a site path no URL reaches (${JSON.stringify(path)})`,
          (d: any) => {
            d.projects[0].placement.path = path
            return d
          },
          /projects\[0\]\.placement\.path: must be "\/" or a path like/,
        ] as [string, (doc: any) => unknown, RegExp],
    ),
    [
      'a published project without its publication (its site would answer 404)',
      (d) => {
        d.publications = d.publications.filter((p: any) => p.projectId !== d.projects[0].id)
        return d
      },
      /projects\[0\]\.publishedAt: published, but no publications record is of it/,
    ],
    [
      'two projects published at the same place',
      (d) => {
        d.projects[1].placement = d.projects[0].placement
        return d
      },
      /projects\[1\]\.placement: /,
    ],
  ]

  it.each(invalid)('rejects a document with %s with 400, changing nothing', async (_, breakIt, hint) => {
    const exported = await stateText(h)
    const broken = breakIt(copy(JSON.parse(exported)))
    const reply = await h.control('PUT', '/state', { json: broken })
    expectBadInput(reply, hint)
    expect(await stateText(h)).toBe(exported)
  })

  it.each([
    ['an empty body', undefined, /format: /],
    ['an array', [], /^not a valid state document/],
    ['a fixtures document', { format: 'presentation-emulator/fixtures@1' }, /^not a valid state document/],
  ])('rejects %s with 400, changing nothing', async (_, json, hint) => {
    const before = await stateText(h)
    expectBadInput(await h.control('PUT', '/state', json === undefined ? {} : { json }), hint)
    expect(await stateText(h)).toBe(before)
  })

  it('rejects a body that is not JSON with 400', async () => {
    const before = await stateText(h)
    expectBadInput(await h.control('PUT', '/state', { raw: '{"format":' }), /not valid JSON/)
    expect(await stateText(h)).toBe(before)
  })

  it('lists at most ten problems of an inconsistent document, and counts the rest', async () => {
    const doc = copy(JSON.parse(await stateText(h)))
    for (const slide of doc.slides) slide.projectId = 'prj_gone'
    const reply = await h.control('PUT', '/state', { json: doc })
    expectBadInput(reply, /^not a consistent state document: /)
    expect(reply.body.hint.match(/no projects record/g)).toHaveLength(10)
    expect(reply.body.hint).toMatch(new RegExp(`; \\(${doc.slides.length - 10} more\\)$`))
  })
})

describe('control plane in process: state', () => {
  const h = harnessPerTest('fetch')

  it('gets a document that puts back to the identical document', async () => {
    const control = h.emulator.control
    await control.createAccount()
    const doc = await control.getState()
    expect(doc.format).toBe(STATE_FORMAT)
    const summary = await control.putState(doc)
    expect(summary.counts).toMatchObject({ users: 3, teams: 4 })
    expect(JSON.stringify(await control.getState())).toBe(JSON.stringify(doc))
  })

  it('carries a manual clock’s time, so an imported world resumes where it was taken', async () => {
    const control = h.emulator.control
    await control.advanceClock({ ms: 3_600_000 })
    const doc = await control.getState()
    expect(doc.clock).toEqual({ now: '2026-01-01T01:00:00.000Z' })
    await control.reset()
    expect(control.clock().now).toBe('2026-01-01T00:00:00.000Z')
    await control.putState(doc)
    expect(control.clock().now).toBe('2026-01-01T01:00:00.000Z')
  })

  it('leaves the time out of the document of a real clock', async () => {
    const real = await startHarness('fetch', { clock: 'real' })
    expect((await real.emulator.control.getState()).clock).toBeUndefined()
    await real.close()
  })

  it('gives a copy: changing the exported document does not change the world', async () => {
    const control = h.emulator.control
    const doc = await control.getState()
    doc.teams[0]!.credits = 12345
    expect((await control.getState()).teams[0]!.credits).not.toBe(12345)
  })

  it('refuses an invalid or inconsistent document with adopt as without it, with the same error, changing nothing', async () => {
    const control = h.emulator.control
    const before = JSON.stringify(await control.getState())
    const broken = [
      (d: any) => {
        d.projects[0].createdAt = 'yesterday'
      },
      (d: any) => {
        d.users[0].nickname = 'Al'
      },
      (d: any) => {
        d.projects[0].teamId = 'team_gone'
      },
      (d: any) => {
        d.projects[0].config.tokens = { palette: [{ name: 'brand', value: '#fff' }] }
      },
    ]
    for (const breakIt of broken) {
      const doc = JSON.parse(before)
      breakIt(doc)
      const plain = await rejection(() => control.putState(JSON.parse(JSON.stringify(doc))))
      expect(plain).toMatchObject({ status: 400 })
      expect(await rejection(() => control.putState(doc, { adopt: true }))).toEqual(plain)
    }
    expect(JSON.stringify(await control.getState())).toBe(before)
  })

  it('throws a 400 ServiceError for an invalid or inconsistent document and changes nothing', async () => {
    const control = h.emulator.control
    const before = JSON.stringify(await control.getState())
    expect(await rejection(() => control.putState({ format: STATE_FORMAT }))).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' })
    const doc = copy(await control.getState())
    doc.projects[0].teamId = 'team_gone'
    expect(await rejection(() => control.putState(doc))).toMatchObject({ status: 400, hint: expect.stringMatching(/team_gone/) })
    expect(JSON.stringify(await control.getState())).toBe(before)
  })
})
