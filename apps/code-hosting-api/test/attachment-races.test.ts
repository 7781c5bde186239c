import { useCodeHostingApi } from './app';
import { auth } from './actors';
import { issueFixture, uploaded } from './attachment-fixtures';
import { errorBody } from './organization-fixtures';

// Real parallel requests, each on its own connection, against one database (PGlite locally;
// PostgreSQL with DATABASE_URL, as CI's second run). The soak (apps/code-hosting-api/soak/) found
// two concurrent deletes of one attachment both answered 204, with one attachment.deleted event.
const service = useCodeHostingApi();

describe('attachment writes racing each other', () => {
  it('concurrent deletes of one attachment: exactly one 204, the others 404 (as one after another), and it is gone', async () => {
    const issue = await issueFixture(service);
    const attachments = await Promise.all(
      Array.from({ length: 4 }, (_, index) =>
        uploaded(service, issue.assets, issue.owner.token, `file ${index}\n`),
      ),
    );
    const outcomes = await Promise.all(
      attachments.map(async (attachment) => {
        const at = `${issue.assets}/${attachment.id}`;
        const responses = await Promise.all(
          Array.from({ length: 8 }, () => service.request.delete(at).set(...auth(issue.owner.token))),
        );
        return { at, responses };
      }),
    );
    for (const { at, responses } of outcomes) {
      const statuses = responses.map((response) => response.status);
      expect({ at, statuses: statuses.sort() }).toEqual({ at, statuses: [204, ...Array(7).fill(404)] });
      for (const refused of responses.filter((response) => response.status === 404)) {
        expect(refused.body).toEqual(errorBody(/does not exist/));
      }
      await service.request
        .get(at)
        .set(...auth(issue.owner.token))
        .expect(404);
    }
  });
});
