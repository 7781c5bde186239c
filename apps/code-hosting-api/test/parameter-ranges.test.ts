import type { Test } from 'supertest';
import { useCodeHostingApi } from './app';
import { adminAuthorization, api, createToken, createTeam, createUser, type Actor } from './actors';
import { issueFixture, uploaded, type IssueFixture } from './attachment-fixtures';
import { errorBody } from './organization-fixtures';

// Every path and query parameter of every operation, walked from the OpenAPI document the route
// table generates, given values no column can hold: the answer names what is wrong (404 for an id
// nothing can have, 422 naming a query parameter), never the database's generic refusal nor a 500.
const service = useCodeHostingApi();

/** What the database's refusals become (packages/http-errors): for what nobody foresaw, never for a parameter. */
const DATABASE_REFUSALS = [
  'request contains a value the database does not accept',
  'request contains a NUL character (U+0000), which is not accepted',
];

/** Past int64 either way, int64's largest (past 2^53, it rounds beyond), 2^53 - 1, and what no id takes. */
const INTEGERS = [
  '99999999999999999999999',
  '-9223372036854775809',
  '9223372036854775807',
  '9007199254740991',
  '-1',
  '0',
];
/** Text no column holds. */
const NUL = 'a\u0000b';
/** Years PostgreSQL cannot store (0, before 4713 BC) or that are not YYYY-MM-DD, and days no month has. */
const DATES = [
  '0000-01-01',
  '-000001-01-01',
  '-004714-01-01',
  '+010000-01-01',
  '10000-01-01',
  '2023-02-29',
  '2024-13-45',
];

interface Parameter {
  in: 'path' | 'query' | 'header';
  name: string;
  schema: { type?: string; format?: string };
}
interface Operation {
  method: string;
  path: string;
  operationId: string;
  parameters: Parameter[];
  body: boolean;
  siteRoot: boolean;
}

/** A valid body for each operation that takes one and has parameters: the walked one is what fails. */
const VALID_BODIES: Record<string, Record<string, unknown> | 'upload'> = {
  adminEditUser: {},
  userCreateToken: { name: 'walked-token' },
  orgEdit: {},
  renameOrg: { new_name: 'walked-org' },
  orgCreateTeam: { name: 'walked-team' },
  createOrgRepo: { name: 'walked-repo' },
  createOrgRepoDeprecated: { name: 'walked-repo' },
  repoEdit: {},
  repoAddCollaborator: {},
  issueCreateIssue: { title: 'walked' },
  issueEditIssue: {},
  repoCreatePullRequest: { title: 'walked', head: 'feature', base: 'main' },
  issueCreateIssueAttachment: 'upload',
  issueEditIssueAttachment: {},
};

async function operations(): Promise<Operation[]> {
  const document = (await service.request.get('/swagger.v1.json').expect(200)).body as {
    paths: Record<
      string,
      Record<
        string,
        { operationId: string; parameters?: Parameter[]; requestBody?: unknown; servers?: unknown[] }
      >
    >;
  };
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      method,
      path,
      operationId: operation.operationId,
      // The path and query parameters: a header (X-Sync) is no value a column holds.
      parameters: (operation.parameters ?? []).filter((parameter) => parameter.in !== 'header'),
      body: operation.requestBody !== undefined,
      siteRoot: operation.servers !== undefined,
    })),
  );
}

describe('parameters out of the range their column holds', () => {
  let all: Operation[];
  let owner: Actor;
  let fixture: IssueFixture;
  let valid: (operation: Operation, name: string) => string;
  beforeAll(async () => {
    all = await operations();
    owner = await createUser(service, 'owner');
    fixture = await issueFixture(service, { owner });
    const teamId = await createTeam(service, owner.token, fixture.org);
    const attachment = await uploaded(service, fixture.assets, owner.token);
    const collaborator = (await createUser(service, 'collaborator')).username;
    const tokenName = 'kept-token';
    await createToken(service, owner, ['all'], tokenName);
    const values: Record<string, string> = {
      username: owner.username,
      org: fixture.org,
      owner: fixture.org,
      repo: fixture.repo,
      index: String(fixture.index),
      attachment_id: String(attachment.id),
      token: tokenName,
      uuid: attachment.uuid,
      collaborator,
    };
    valid = (operation, name) => {
      if (name === 'id') return String(operation.path.startsWith('/teams/') ? teamId : owner.id);
      const value = values[name];
      if (value === undefined) throw new Error(`no valid value for {${name}} of ${operation.operationId}`);
      return value;
    };
  });

  /** The operation with every parameter valid but `walked`, which gets `value`. */
  function request(operation: Operation, walked: Parameter, value: string): Test {
    const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) =>
      encodeURIComponent(walked.in === 'path' && name === walked.name ? value : valid(operation, name)),
    );
    const url = `${operation.siteRoot ? '' : api}${path}`;
    const method = operation.method as 'get' | 'post' | 'patch' | 'put' | 'delete';
    const sent = service.request[method](url).set('Authorization', adminAuthorization);
    if (walked.in === 'query') sent.query({ [walked.name]: value });
    const body = VALID_BODIES[operation.operationId];
    if (body === 'upload') return sent.attach('attachment', Buffer.from('walked\n'), 'walked.txt');
    return operation.body ? sent.send(body) : sent;
  }

  function valuesFor(parameter: Parameter): string[] {
    if (parameter.schema.format === 'date') return [...DATES, ...INTEGERS, NUL];
    // Every path parameter: a name can be all digits, and {token} is an id or a name.
    if (parameter.in === 'path' || parameter.schema.type === 'integer') return [...INTEGERS, NUL];
    return [NUL];
  }

  it('walks every operation that has parameters, with a valid body for those that take one', () => {
    const withParameters = all.filter((operation) => operation.parameters.length > 0);
    expect(withParameters.length).toBeGreaterThan(30);
    const missing = withParameters.filter(
      (operation) => operation.body && VALID_BODIES[operation.operationId] === undefined,
    );
    expect(missing.map((operation) => operation.operationId)).toEqual([]);
  });

  it('no parameter value reaches a database that cannot hold it: never 500, never its refusal', async () => {
    const answers: string[] = [];
    for (const operation of all) {
      for (const parameter of operation.parameters) {
        // One parameter's values at once: each names nothing that exists, so none changes anything.
        await Promise.all(
          valuesFor(parameter).map(async (value) => {
            const response = await request(operation, parameter, value);
            const message = String((response.body as { message?: unknown }).message);
            if (response.status >= 500 || DATABASE_REFUSALS.includes(message)) {
              const where = `${operation.method.toUpperCase()} ${operation.path} ${parameter.in} ${parameter.name}`;
              answers.push(`${where}=${JSON.stringify(value)}: ${response.status} ${message}`);
            }
          }),
        );
      }
    }
    expect(answers).toEqual([]);
  }, 300_000);

  it('an access token id past int64 names no token: 404 (Gitea: ParseInt saturates, no token has the id)', async () => {
    const id = '99999999999999999999999';
    const response = await service.request
      .delete(`${api}/users/${owner.username}/tokens/${id}`)
      .set('Authorization', adminAuthorization);
    expect({ status: response.status, body: response.body }).toEqual({
      status: 404,
      body: errorBody(`access token ${id} does not exist`),
    });
  });

  it('a sudo naming a user no column can hold: 422 naming sudo', async () => {
    const response = await service.request
      .get(`${api}/user`)
      .query({ sudo: NUL })
      .set('Authorization', adminAuthorization);
    expect({ status: response.status, body: response.body }).toEqual({
      status: 422,
      body: errorBody('sudo: must not contain NUL (U+0000)'),
    });
  });

  it.each(DATES)('a feed date PostgreSQL cannot hold, %s: 422 naming date', async (date) => {
    const response = await service.request
      .get(`${api}/orgs/${fixture.org}/activities/feeds`)
      .query({ date })
      .set('Authorization', adminAuthorization);
    expect({ status: response.status, body: response.body }).toEqual({
      status: 422,
      body: errorBody('date: must be a date in the form YYYY-MM-DD, from 0001-01-01 to 9999-12-31'),
    });
  });
});
