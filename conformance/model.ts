/**
 * The model: what this sequence created and what state the contract says each entity is in.
 * Deliberately small: no store, no paging, no field semantics, just states, versions and links.
 */
import type { Kind } from './kinds.ts';

/**
 * `limbo`: the entity exists but the contract leaves its state open after what happened
 * (e.g. children of an entity restored by PUT); a read resolves it.
 */
type EntityState = 'active' | 'deleted' | 'gone' | 'limbo';

export type Vote = 'votedUp' | 'votedDown' | 'unVoted';

export interface ModelEntity {
  kind: Kind;
  name: string;
  fqn: string;
  id: string;
  /** The service (children), or the parent container (nested containers). */
  parent: ModelEntity | null;
  /** The service that roots this entity (itself for services and classifications). */
  root: ModelEntity | null;
  state: EntityState;
  /** null when the contract does not pin it after the last operation. */
  version: number | null;
  /** The last create/upsert body sent for it (PUT of the same body must be a no-op). */
  body: Record<string, unknown>;
  /** The entity whose recursive delete took this one. */
  deletedWith: ModelEntity | null;
  following: boolean;
  vote: Vote;
}

export class Model {
  readonly entities: ModelEntity[] = [];
  private counter = 0;

  constructor(readonly namePrefix: string) {}

  /** A name never used before in this run. */
  freshName(tag: string): string {
    this.counter += 1;
    return `${this.namePrefix}_${tag}${this.counter}`;
  }

  add(entity: ModelEntity): ModelEntity {
    this.entities.push(entity);
    return entity;
  }

  /** The entity at `position` among those matching `filter` (positions wrap, so shrinking keeps them valid). */
  pick(position: number, filter: (e: ModelEntity) => boolean): ModelEntity | undefined {
    const candidates = this.entities.filter(filter);
    if (candidates.length === 0) return undefined;
    return candidates[position % candidates.length];
  }

  children(parent: ModelEntity): ModelEntity[] {
    return this.entities.filter((e) => e.parent === parent);
  }

  descendants(parent: ModelEntity): ModelEntity[] {
    const out: ModelEntity[] = [];
    const walk = (p: ModelEntity) => {
      for (const c of this.children(p)) {
        out.push(c);
        walk(c);
      }
    };
    walk(parent);
    return out;
  }

  /** Descendants that still exist on the target. */
  existingDescendants(parent: ModelEntity): ModelEntity[] {
    return this.descendants(parent).filter((e) => e.state !== 'gone');
  }

  /** True when every ancestor is active (a child of a deleted parent is left alone). */
  ancestorsActive(entity: ModelEntity): boolean {
    for (let p = entity.parent; p; p = p.parent) if (p.state !== 'active') return false;
    return true;
  }
}

export function nextVersion(v: number | null): number | null {
  return v === null ? null : Math.round((v + 0.1) * 10) / 10;
}

export function sameVersion(a: unknown, b: number | null): boolean {
  return b === null || (typeof a === 'number' && Math.abs(a - b) < 1e-9);
}

export function describe(e: ModelEntity): string {
  return `${e.kind.id} ${e.fqn}`;
}
