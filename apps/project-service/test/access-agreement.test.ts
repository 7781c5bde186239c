import fc from 'fast-check';
import { bearer, useProjectService } from './app';
import { createProject, rootUid } from './project-fixtures';

// The role model has one TypeScript statement (accessOf in src/domain/access.ts, behind
// GET /projects/{uid}) and one SQL form for the list (visibleToCaller in
// src/db/project-access.ts). On random trees they must agree: the list shows a caller
// exactly the projects a GET lets that caller view. Each run builds a tree in the database,
// so the runs are few (ACCESS_RUNS for more).
const RUNS = Number(process.env.ACCESS_RUNS ?? 20);

const service = useProjectService();
let root: string;
beforeAll(async () => {
  root = await rootUid(service);
});

const ROLES = ['ann', 'bob', 'cyd'] as const;

interface NodeSpec {
  /** 0: under the root; k: under the k-th node made before this one. */
  parent: number;
  public: boolean;
  writers: string[];
  auditors: string[];
}

const node = fc.record({
  parent: fc.nat(),
  public: fc.boolean(),
  writers: fc.subarray([...ROLES]),
  auditors: fc.subarray([...ROLES]),
});
const tree = fc.array(node, { minLength: 1, maxLength: 7 });

let runs = 0;

async function build(nodes: NodeSpec[], names: (role: string) => string): Promise<string[]> {
  const uids: string[] = [];
  for (const [index, spec] of nodes.entries()) {
    const parentIndex = spec.parent % (index + 1);
    const created = await createProject(service, {
      parent_uid: parentIndex === 0 ? root : uids[parentIndex - 1]!,
      public: spec.public,
      writers: spec.writers.map((role) => ({ username: names(role) })),
      auditors: spec.auditors.map((role) => ({ username: names(role) })),
    });
    uids.push(created.uid);
  }
  return uids;
}

describe('who may view a project', () => {
  it('is the same in the list (SQL) as in GET /projects/{uid} (the domain rule), on random trees', async () => {
    await fc.assert(
      fc.asyncProperty(tree, async (nodes) => {
        // Principals of their own per run, so earlier trees grant nothing here.
        runs += 1;
        const names = (role: string) => `${role}-${process.pid}-${runs}`;
        const uids = await build(nodes, names);
        for (const principal of [...ROLES.map(names), `stranger-${process.pid}-${runs}`]) {
          const listed = await service.request.get('/projects').set('Authorization', bearer(principal));
          expect(listed.status).toBe(200);
          const inList = new Set((listed.body as { projects: { uid: string }[] }).projects.map((p) => p.uid));
          for (const uid of uids) {
            const got = await service.request.get(`/projects/${uid}`).set('Authorization', bearer(principal));
            expect({ principal, uid, status: got.status }).toEqual({
              principal,
              uid,
              status: inList.has(uid) ? 200 : 404,
            });
          }
        }
      }),
      { numRuns: RUNS },
    );
  }, 120_000);
});
