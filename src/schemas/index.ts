/**
 * The Presentation Service API as zod schemas: resources, request bodies,
 * queries and responses. Importable on its own (`presentation-emulator/schemas`)
 * without loading the emulator.
 */
export * from './common.js'
export * from './config.js'
export * from './job.js'
export * from './operations.js'
export * from './project.js'
export * from './slide.js'
export * from './slide-content.js'
export * from './team.js'
export * from './har.js'
