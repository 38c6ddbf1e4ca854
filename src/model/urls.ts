import type { ProjectRecord } from '../store/records.js'
import type { World } from '../store/world.js'

/**
 * The domain under which every project subdomain lives, as `GET
 * /projects/{slug}/url` reports it: `welcome-deck.sites.localhost`.
 */
export const SITES_DOMAIN = 'sites.localhost'

/** Where a project is (or would be) published: hostname and path. */
export interface SiteAddress {
  hostname: string
  path: string
}

/** The hostname and path of a project's current placement. */
export function siteAddress(world: World, project: ProjectRecord): SiteAddress {
  const { placement } = project
  if (placement.type === 'domain') {
    return { hostname: world.domains.get(placement.domainId)!.hostname, path: placement.path }
  }
  const label = world.subdomains.get(placement.subdomainId)!.subdomain
  return { hostname: `${label}.${SITES_DOMAIN}`, path: placement.path }
}

/**
 * The URLs the emulator hands out. They are built at response time from the
 * current public origin (which is only known once a server listens on port 0),
 * never stored.
 */
export class Urls {
  constructor(private readonly currentOrigin: () => string) {}

  /** The origin of every URL handed out now. */
  get origin(): string {
    return this.currentOrigin()
  }

  /** The page that shows a project in the editor. */
  editor(slug: string): string {
    return `${this.currentOrigin()}/editor/${encodeURIComponent(slug)}`
  }

  /** The URL that serves a published site: `{origin}/sites/{hostname}{path}`. */
  site(address: SiteAddress): string {
    return `${this.currentOrigin()}/sites/${address.hostname}${address.path}`
  }

  /** The public URL of a project while published, else null. */
  published(world: World, project: ProjectRecord): string | null {
    return project.publishedAt === null ? null : this.site(siteAddress(world, project))
  }
}
