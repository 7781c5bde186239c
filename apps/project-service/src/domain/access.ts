import { forbidden, notFound } from '@repo/http-errors';
import type { Caller } from './caller';

/**
 * What the store reports about a project and the caller, from one query over
 * the project's ancestor chain (the project itself included).
 */
export interface ChainMembership {
  isPublic: boolean;
  /** The caller is in `writers` of the project or of one of its ancestors. */
  writerOfChain: boolean;
  /** The same, ancestors only: writer of the parent. */
  writerOfAncestors: boolean;
  /** The caller is in `auditors` of the project or of one of its ancestors. */
  auditorOfChain: boolean;
}

export interface ProjectAccess {
  view: boolean;
  audit: boolean;
  write: boolean;
  /** Writer of the parent: the "owner" who may delete. */
  writeParent: boolean;
}

/**
 * The role model of the contract (docs/contracts/project-service.md), its one statement: writers and auditors inherit down the tree;
 * a writer is an auditor; a viewer is an auditor or anyone when public.
 * Its SQL lives in src/db/project-access.ts: membershipAlongChain gathers the facts this
 * decides on, and visibleToCaller is `view` for the whole list at once
 * (test/access-agreement.test.ts checks that the two agree).
 */
export function accessOf(caller: Caller, membership: ChainMembership): ProjectAccess {
  if (caller.isAdmin) return { view: true, audit: true, write: true, writeParent: true };
  const write = membership.writerOfChain;
  const audit = write || membership.auditorOfChain;
  return { view: audit || membership.isPublic, audit, write, writeParent: membership.writerOfAncestors };
}

const PROJECT_NOT_FOUND = 'project not found';

/** 404 when the caller may not even view (existence is not revealed), 403 when viewing is all they may do. */
export function requireRight(
  access: ProjectAccess | undefined,
  right: keyof ProjectAccess,
  action: string,
): ProjectAccess {
  if (!access || !access.view) throw notFound(PROJECT_NOT_FOUND);
  if (!access[right]) throw forbidden(`not allowed to ${action}`);
  return access;
}

export function projectNotFound() {
  return notFound(PROJECT_NOT_FOUND);
}
