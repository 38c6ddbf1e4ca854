/** Every scenario of the kit, in report order: spec checks, then emulator checks. */
import type { Scenario } from '../context.js'
import { accessScenarios } from './access.js'
import { authScenarios } from './auth.js'
import { configScenarios } from './config.js'
import { choiceScenarios } from './emulator/choices.js'
import { emulatorGenerationScenarios } from './emulator/generation.js'
import { worldScenarios } from './emulator/world.js'
import { generationScenarios } from './generation.js'
import { isolationScenarios } from './isolation.js'
import { paginationScenarios } from './pagination.js'
import { projectScenarios } from './projects.js'
import { publishingScenarios } from './publishing.js'
import { rateLimitScenarios } from './rate-limit.js'
import { readScenarios } from './reads.js'
import { slideScenarios } from './slides.js'

export const SCENARIOS: readonly Scenario[] = [
  ...authScenarios,
  ...accessScenarios,
  ...readScenarios,
  ...projectScenarios,
  ...configScenarios,
  ...publishingScenarios,
  ...slideScenarios,
  ...paginationScenarios,
  ...generationScenarios,
  ...isolationScenarios,
  ...rateLimitScenarios,
  ...choiceScenarios,
  ...emulatorGenerationScenarios,
  ...worldScenarios,
]
