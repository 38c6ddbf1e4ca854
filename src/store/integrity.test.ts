import { beforeAll, describe, expect, it } from 'vitest'
import { buildWorld } from '../fixtures/build.js'
import { BUILT_IN_FIXTURES, parseFixtures } from '../fixtures/load.js'
import { integrityProblems } from './integrity.js'
import { type TABLE_NAMES, World, type StateDocument } from './world.js'

/** A state document as a test breaks it: any record, any field. */
type Doc = Record<(typeof TABLE_NAMES)[number], any[]>

let pristine: string
beforeAll(async () => {
  pristine = JSON.stringify((await buildWorld(parseFixtures(BUILT_IN_FIXTURES), 1)).toState())
})

/** The world `putState` builds before its checks: none when a duplicate id stops the build. */
function loaded(doc: StateDocument): World | undefined {
  try {
    return World.fromState(structuredClone(doc))
  } catch {
    return undefined
  }
}

const corruptions: Array<[string, (d: Doc) => void]> = [
  ['nothing', () => undefined],
  ['a duplicate id', (d) => d.users.push({ ...d.users[0] })],
  ['a duplicate project slug', (d) => (d.projects[1].slug = d.projects[0].slug)],
  [
    'two duplicate slugs and a duplicate label',
    (d) => {
      d.projects[2].slug = d.projects[0].slug
      d.projects[3].slug = d.projects[1].slug
      d.subdomains[1].subdomain = d.subdomains[0].subdomain
    },
  ],
  ['a duplicate key value', (d) => (d.apiKeys[1].key = d.apiKeys[0].key)],
  ['a duplicate hostname', (d) => d.domains.push({ ...d.domains[0], id: 'dom_copy' })],
  ['two projects at one place', (d) => (d.projects[1].placement = { ...d.projects[0].placement })],
  ['two publications of one project', (d) => d.publications.push({ ...d.publications[0], id: 'pub_copy' })],
  [
    'places that only look alike',
    (d) => {
      d.subdomains.push({ ...d.subdomains[0], id: 'a b', subdomain: 'look-1' }, { ...d.subdomains[0], id: 'a', subdomain: 'look-2' })
      d.projects[0].placement = { type: 'subdomain', subdomainId: 'a b', linkId: 'l1', path: 'c' }
      d.projects[1].placement = { type: 'subdomain', subdomainId: 'a', linkId: 'l2', path: 'b c' }
    },
  ],
  [
    'dangling references',
    (d) => {
      d.projects[0].teamId = 'team_gone'
      d.versions[0].projectId = 'prj_gone'
      d.projects[1].collaborators = ['usr_gone']
    },
  ],
]

describe('integrityProblems with the world loaded from the document', () => {
  it.each(corruptions)('finds exactly what it finds on the document alone: %s', (_, corrupt) => {
    const broken = JSON.parse(pristine) as Doc
    corrupt(broken)
    const doc = broken as unknown as StateDocument
    const alone = integrityProblems(doc)
    const world = loaded(doc)
    expect(world === undefined).toBe(_ === 'a duplicate id')
    expect(integrityProblems(doc, world)).toEqual(alone)
    expect(alone.length > 0).toBe(_ !== 'nothing' && _ !== 'places that only look alike')
  })
})

describe('integrityProblems names each broken reference once, in document order', () => {
  const cases: Array<[string, (d: Doc) => void, (d: Doc) => string[]]> = [
    [
      'a latest version that does not exist',
      (d) => (d.projects[0].latestVersionId = 'ver_gone'),
      () => ['projects[0].latestVersionId: no versions record "ver_gone"'],
    ],
    [
      'a latest version of another project',
      (d) => (d.projects[0].latestVersionId = d.projects[1].latestVersionId),
      (d) => [
        `projects[0].latestVersionId: version "${d.projects[1].latestVersionId}" belongs to project "${d.projects[1].id}", not "${d.projects[0].id}"`,
      ],
    ],
    [
      'an own subdomain that does not exist, placed elsewhere',
      (d) => (d.projects[0].subdomainId = 'sub_gone'),
      () => ['projects[0].subdomainId: no subdomains record "sub_gone"'],
    ],
    [
      'an own subdomain that does not exist, placed on it',
      (d) => {
        d.projects[0].subdomainId = 'sub_gone'
        d.projects[0].placement = { ...d.projects[0].placement, subdomainId: 'sub_gone' }
      },
      () => [
        'projects[0].subdomainId: no subdomains record "sub_gone"',
        'projects[0].placement.subdomainId: no subdomains record "sub_gone"',
      ],
    ],
    [
      'a publication of a version that does not exist',
      (d) => (d.publications[0].versionId = 'ver_gone'),
      () => ['publications[0].versionId: no versions record "ver_gone"'],
    ],
    [
      'a published project without its publication',
      (d) =>
        d.publications.splice(
          d.publications.findIndex((p) => p.projectId === d.projects[0].id),
          1,
        ),
      () => ['projects[0].publishedAt: published, but no publications record is of it'],
    ],
    [
      'a publication of a project that is not published',
      (d) => {
        const project = d.projects.find((p) => p.publishedAt === null)
        d.publications.push({ ...d.publications[0], id: 'pub_extra', projectId: project.id, versionId: project.latestVersionId })
      },
      (d) => [`publications[${d.publications.length - 1}].projectId: project "${d.publications.at(-1).projectId}" is not published`],
    ],
  ]
  it.each(cases)('%s', (_, corrupt, expected) => {
    const broken = JSON.parse(pristine) as Doc
    const placedOnOwn =
      broken.projects[0].placement.type === 'subdomain' && broken.projects[0].placement.subdomainId === broken.projects[0].subdomainId
    expect(placedOnOwn).toBe(true)
    corrupt(broken)
    const doc = broken as unknown as StateDocument
    expect(integrityProblems(doc)).toEqual(expected(broken))
    expect(integrityProblems(doc, loaded(doc))).toEqual(expected(broken))
  })
})
