/**
 * The clauses a finding names: the spec's section headings
 * (`service-api.md`), and the contract's for emulator checks
 * (`emulator-contract.md`).
 */
import { routes, type OperationId } from '../src/client/index.js'

const GROUP: Record<OperationId, string> = {
  generateProject: 'Projects',
  getJobStatus: 'Projects',
  createProject: 'Projects',
  listProjects: 'Projects',
  listTemplates: 'Projects',
  getProject: 'Projects',
  renameProject: 'Projects',
  getProjectConfig: 'Projects',
  updateProjectConfig: 'Projects',
  duplicateProject: 'Projects',
  publishProject: 'Publishing',
  unpublishProject: 'Publishing',
  getProjectUrl: 'Publishing',
  listTeams: 'Teams',
  listSlides: 'Slides',
  createSlide: 'Slides',
  getSlideGuide: 'Slides',
  getSlideFiles: 'Slides',
  updateSlide: 'Slides',
  startSlideEditing: 'Slides',
  stopSlideEditing: 'Slides',
}

/** The spec's headings that group the endpoints: `Endpoints › Projects`, … */
export const ENDPOINT_GROUPS: readonly string[] = [...new Set(Object.values(GROUP))].map((group) => `Endpoints › ${group}`)

/** The group heading an endpoint's heading is under. */
export function endpointGroup(id: OperationId): string {
  return `Endpoints › ${GROUP[id]}`
}

/** The spec's heading of an endpoint: `Endpoints › Projects › PATCH /projects/{slug} (renameProject)`. */
export function endpoint(id: OperationId): string {
  const route = routes[id]
  return `Endpoints › ${GROUP[id]} › ${route.method} ${route.path} (${id})`
}

export const Clauses = {
  projectListItem: 'Resources and their fields › Project (list item)',
  projectDetail: 'Resources and their fields › Project (detail)',
  generationJob: 'Resources and their fields › Generation job',
  template: 'Resources and their fields › Template',
  team: 'Resources and their fields › Team',
  slide: 'Resources and their fields › Slide',
  config: 'Resources and their fields › Project configuration (ProjectConfig)',
  urlConfig: 'Resources and their fields › Project URL configuration',
  errorBody: 'Resources and their fields › Error body',
  jobStatus: 'States and transitions › Generation job status',
  publication: 'States and transitions › Project publication',
  editing: 'States and transitions › Slide editing indicator',
  authentication: 'Authentication',
  errors: 'Errors',
  limits: 'Limits',
  pagination: 'Limits › cursor pagination',
  versioning: 'Versioning',
  json: 'What the service does › JSON bodies',
} as const

/**
 * The sections of the emulator contract the emulator checks name: a closed
 * list, so the shipped reference (reference/api.md) has a section for each.
 */
export const CONTRACT_SECTIONS = [
  '§2 › the seeded world',
  '§3 › access rules',
  '§3 › rate limit',
  '§4 › choices for "not shown" items',
  '§5 › control plane',
  '§6 › pages',
] as const
export type ContractSection = (typeof CONTRACT_SECTIONS)[number]

/** A section of the emulator contract: `Emulator contract §4 › choices for "not shown" items`. */
export function contract(section: ContractSection): string {
  return `Emulator contract ${section}`
}
