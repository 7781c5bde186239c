import type { TestApp } from '@repo/testing';
import { addToTeam, api, auth, createTeam } from './actors';
import { testRootUrl } from './app';

/** The error body the service answers with: the message, and the URL of the API document. */
export const errorBody = (message: string | RegExp) => ({
  message: typeof message === 'string' ? message : expect.stringMatching(message),
  url: `${testRootUrl}api/swagger`,
});

/** Makes the user a member of the organization through a new team its owner creates; answers the team's id. */
export async function addToNewTeam(
  service: TestApp,
  ownerToken: string,
  org: string,
  username: string,
  team: Parameters<typeof createTeam>[3] = {},
): Promise<number> {
  const teamId = await createTeam(service, ownerToken, org, team);
  await addToTeam(service, ownerToken, teamId, username);
  return teamId;
}

/** GET /users/{username}/orgs/{org}/permissions as the token's user, expecting 200: the body. */
export async function permissionsIn(
  service: TestApp,
  org: string,
  username: string,
  token: string,
): Promise<unknown> {
  const response = await service.request
    .get(`${api}/users/${username}/orgs/${org}/permissions`)
    .set(...auth(token))
    .expect(200);
  return response.body;
}
