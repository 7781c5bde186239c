import { querySource, testAppReplicas, useTestApp } from '../src';

// TEST_APP_REPLICAS: the contract suites through several instances of the app behind a
// round-robin balancer, on one PostgreSQL database. Without DATABASE_URL it is refused (PGlite
// serves one process); with it, this file runs three instances and shows how requests spread.

const withPostgres = Boolean(process.env['DATABASE_URL']);

function withReplicas<T>(value: string | undefined, run: () => T): T {
  const before = process.env['TEST_APP_REPLICAS'];
  if (value === undefined) delete process.env['TEST_APP_REPLICAS'];
  else process.env['TEST_APP_REPLICAS'] = value;
  try {
    return run();
  } finally {
    if (before === undefined) delete process.env['TEST_APP_REPLICAS'];
    else process.env['TEST_APP_REPLICAS'] = before;
  }
}

describe('TEST_APP_REPLICAS', () => {
  it('is 1 when unset and refuses what is not a small whole number', () => {
    expect(withReplicas(undefined, testAppReplicas)).toBe(1);
    expect(withReplicas('1', testAppReplicas)).toBe(1);
    for (const bad of ['0', '-2', '1.5', 'two', '9']) {
      expect(() => withReplicas(bad, testAppReplicas)).toThrow(/TEST_APP_REPLICAS must be a whole number/);
    }
  });

  it(`above 1 ${withPostgres ? 'is taken with' : 'is refused without'} DATABASE_URL`, () => {
    const outcome = (() => {
      try {
        return withReplicas('3', testAppReplicas);
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(String(outcome)).toMatch(withPostgres ? /^3$/ : /needs DATABASE_URL/);
  });
});

if (withPostgres) {
  process.env['TEST_APP_REPLICAS'] = '3';
  const seen: string[] = [];
  let created = 0;
  const service = useTestApp(async (source, { baseUrl }) => {
    const instance = created;
    created += 1;
    seen.push(baseUrl);
    return {
      app: async (req, res) => {
        if (req.method === 'POST')
          await querySource(source, `INSERT INTO notes (text) VALUES ('from ${instance}')`);
        const rows = await querySource<{ count: number }>(source, 'SELECT count(*)::int AS count FROM notes');
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ instance, notes: rows[0]?.count }));
      },
      close: async () => {},
    };
  });

  describe('three instances behind the balancer', () => {
    it('each instance is told the URL clients use', () => {
      expect(created).toBe(3);
      expect(seen).toEqual([service.baseUrl, service.baseUrl, service.baseUrl]);
    });

    it('requests go to the instances in turn, over one database', async () => {
      const answers: { instance: number; notes: number }[] = [];
      for (let i = 0; i < 6; i += 1) answers.push((await service.request.post('/notes').expect(200)).body);
      const first = answers[0]!.instance;
      expect(answers.map((answer) => answer.instance)).toEqual(
        [0, 1, 2, 3, 4, 5].map((offset) => (first + offset) % 3),
      );
      // Every instance writes to and reads the same table.
      expect(answers.map((answer) => answer.notes)).toEqual([1, 2, 3, 4, 5, 6]);
    });
  });
}
