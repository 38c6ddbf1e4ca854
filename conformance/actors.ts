/**
 * The keys a scenario acts with (its actors), and how each request says
 * which key sent it (its credential, which a reproduction's curl reads from
 * the role's variable). Apart from the checks (`context.ts`): a scenario's
 * actors are made once, from the run's flags or, with a control plane,
 * fresh accounts of its own.
 */
import type { ControlClient } from '../src/client/index.js'
import { type Credential, keyCredential, keyHint, type KeyRole, literalCredential, NO_KEY } from './curl.js'
import type { Target } from './target.js'

/** A key the kit acts with, and what it knows of its owner. */
export interface Actor {
  key: string
  label: string
  /**
   * Which key this is, for reproductions: each role's curl reads its own
   * variable; `fixture` is one of the emulator's documented fixture keys,
   * shown as is. Default: the role of the key flag it came from, else `extra`.
   */
  role?: KeyRole | 'fixture'
  userId?: string
  teamId?: string
  keyId?: string
}

/** What actors need of the scenario they act in. */
export interface ActorsHost {
  /** The control plane (a scenario that makes accounts declares the need). */
  control: () => ControlClient
  /** A name carrying the run's prefix. */
  name: (purpose: string) => string
  /** Told of the main key and of a revoked key the kit made (the scenario's observer learns from them). */
  onKey?: (role: 'main' | 'revoked', key: string) => void
  /** Told of every key an actor acts with: made by the kit, or given by a flag. */
  remember?: (actor: Actor, madeByKit: boolean) => void
  /** With a control plane: the id, user and team of a key the run was given (the main key's, for scenarios that arrange things for its user). */
  keyInfo?: (key: string) => Promise<{ keyId: string; userId: string; teamId: string } | undefined>
}

/** A scenario's actors: each made once, when first asked for. */
export class Actors {
  readonly #made = new Map<string, Promise<Actor>>()
  /** The main and other-team keys, once made: the observer's isolation facts are between them. */
  readonly keys: { main?: string; other?: string } = {}

  constructor(
    readonly target: Target,
    readonly host: ActorsHost,
  ) {}

  #actor(name: string, make: () => Promise<Actor>): Promise<Actor> {
    let actor = this.#made.get(name)
    if (actor === undefined) {
      actor = make().then((made) => {
        this.host.remember?.(made, roleOf(this.target, made.key) === undefined)
        return made
      })
      this.#made.set(name, actor)
    }
    return actor
  }

  /** A fresh account (with a control plane): its own user, team, credits and rate-limit bucket. */
  async freshAccount(label: string, credits = 10): Promise<Actor> {
    const actor = await this.#fresh(label, credits)
    this.host.remember?.(actor, true)
    return actor
  }

  /** A fresh account for one of the roles (remembered once its role is set, by `#actor`). */
  async #fresh(label: string, credits = 10): Promise<Actor> {
    const account = await this.host.control().createAccount({ name: this.host.name(label).slice(0, 200), credits })
    return { key: account.apiKey, label, userId: account.userId, teamId: account.teamId, keyId: account.keyId }
  }

  /** The main key: a fresh account per scenario with a control plane, else `--api-key`. */
  main(): Promise<Actor> {
    return this.#actor('main', async () => {
      const given = this.target.keys.main
      let actor: Actor
      if (given !== undefined) {
        // The user's key, with or without a control plane; with one, its user and team are looked up there.
        const info = this.target.control === undefined ? undefined : await this.host.keyInfo?.(given)
        actor = { key: given, label: 'main key', role: 'main', ...(info ?? {}) }
      } else actor = { ...(await this.#fresh('main')), role: 'main' }
      this.keys.main = actor.key
      this.host.onKey?.('main', actor.key)
      return actor
    })
  }

  /** A key of another user, with no access to the main key's projects. */
  other(): Promise<Actor> {
    return this.#actor('other', async () => {
      const actor: Actor =
        this.target.keys.other !== undefined
          ? { key: this.target.keys.other, label: 'other-team key', role: 'otherTeam' }
          : { ...(await this.#fresh('other team')), role: 'otherTeam' }
      this.keys.other = actor.key
      return actor
    })
  }

  /** A revoked key. */
  revokedKey(): Promise<Actor> {
    return this.#actor('revoked', async () => {
      if (this.target.keys.revoked !== undefined) return { key: this.target.keys.revoked, label: 'revoked key', role: 'revoked' }
      const owner = await this.#fresh('revoked')
      const control = this.host.control()
      const key = await control.createKey({ userId: owner.userId!, name: 'to revoke' })
      await control.revokeKey(key.keyId)
      this.host.onKey?.('revoked', key.apiKey)
      return { key: key.apiKey, label: 'revoked key', role: 'revoked', userId: owner.userId!, keyId: key.keyId }
    })
  }

  /** A key whose team has no credits. */
  noCreditsKey(): Promise<Actor> {
    return this.#actor('no-credits', async () =>
      this.target.keys.noCredits !== undefined
        ? { key: this.target.keys.noCredits, label: 'no-credits key', role: 'noCredits' }
        : { ...(await this.#fresh('no credits', 0)), role: 'noCredits' },
    )
  }
}

/** The role of a key the run was given, or undefined (one the kit made, or a fixture). */
export function roleOf(target: Target, key: string): KeyRole | undefined {
  const keys = target.keys
  return key === keys.main
    ? 'main'
    : key === keys.other
      ? 'otherTeam'
      : key === keys.noCredits
        ? 'noCredits'
        : key === keys.revoked
          ? 'revoked'
          : undefined
}

/**
 * How a request authenticated, when the scenario did not say: the actor's
 * role, or for a raw `Authorization` header, the header shown as is unless
 * it carries (part of) a key the run knows, which is then redacted.
 */
export function credentialOf(target: Target, actor: Actor | null, key: string | null, authorization: string | undefined): Credential {
  if (authorization !== undefined) {
    const token = /^Bearer\s+(\S+)/i.exec(authorization)?.[1]
    const known = [target.keys.main, target.keys.other, target.keys.noCredits, target.keys.revoked, actor?.key].filter(
      (k): k is string => k !== undefined && k.length >= 8,
    )
    const secret =
      token !== undefined && known.some((k) => token.includes(k.slice(0, -1)) || k.includes(token.slice(0, Math.max(8, token.length - 1))))
    return secret
      ? { role: 'a value made from a key (redacted)', header: `'Authorization: Bearer <redacted>'` }
      : literalCredential(authorization, 'a made-up Authorization header')
  }
  if (key === null) return NO_KEY
  const own = actor !== null && actor.key === key
  const role = own ? (actor.role ?? roleOf(target, key)) : roleOf(target, key)
  if (role === 'fixture') return literalCredential(`Bearer ${key}`, `the emulator’s fixture key ${key}`)
  return keyCredential(
    role ?? 'extra',
    actor?.label,
    role !== undefined && role !== 'extra' && roleOf(target, key) === undefined,
    keyHint(key, own ? actor.keyId : undefined),
  )
}
