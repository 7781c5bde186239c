import { chromiumForTests, launchChromium, watchedPage, type PageWatch } from '@repo/testing';
import type { Browser } from 'playwright-core';
import { createUser, type Actor } from './actors';
import { useCodeHostingApi } from './app';

// The documentation page as a person sees it: Swagger UI in a real Chromium, over the service
// listening here (ROOT_URL is its own address, so the document's server is this origin).

const service = useCodeHostingApi({}, { rootUrlIsServer: true });
const chromiumPath = chromiumForTests('code-hosting-api: /api/swagger in Chromium');

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

if (chromiumPath) {
  describe('GET /api/swagger in Chromium', () => {
    let browser: Browser;
    let watch: PageWatch;
    let user: Actor;
    let documented: string[];

    beforeAll(async () => {
      browser = await launchChromium(chromiumPath);
      user = await createUser(service, 'reader');
      const document = await service.request.get('/swagger.v1.json').expect(200);
      documented = Object.entries(document.body.paths as Record<string, Record<string, unknown>>)
        .flatMap(([path, item]) =>
          Object.keys(item)
            .filter((method) => METHODS.includes(method))
            .map((method) => `${method.toUpperCase()} ${path}`),
        )
        .sort();
      watch = await watchedPage(browser, service.baseUrl);
      await watch.page.goto(`${service.baseUrl}/api/swagger`);
      await watch.page.locator('.opblock').first().waitFor({ timeout: 15_000 });
    });

    afterAll(async () => {
      await browser?.close();
    });

    it('lists every operation of the OpenAPI document', async () => {
      const listed = await watch.page.$$eval('.opblock', (blocks) =>
        blocks.map(
          (block) =>
            `${block.querySelector('.opblock-summary-method')?.textContent ?? '?'} ${
              // A deprecated operation's path has a class of its own.
              block.querySelector('[data-path]')?.getAttribute('data-path') ?? '?'
            }`,
        ),
      );
      expect(documented.length).toBeGreaterThan(30);
      expect([...new Set(listed)].sort()).toEqual(documented);
    });

    it('Try it out on GET /user, with the token given through Authorize, renders 200', async () => {
      const { page } = watch;
      await page.locator('.auth-wrapper .authorize').click();
      const scheme = page.locator('.auth-container', {
        has: page.locator('h4 code', { hasText: /^AuthorizationHeaderToken$/ }),
      });
      // Nothing is pre-filled: the person types the token.
      await expect(scheme.locator('input').inputValue()).resolves.toBe('');
      await scheme.locator('input').fill(`token ${user.token}`);
      await scheme.locator('button.authorize').click();
      await page.locator('.modal-ux .close-modal').click();

      const operation = page.locator('.opblock-get', {
        has: page.locator('.opblock-summary-path[data-path="/user"]'),
      });
      await operation.locator('.opblock-summary-control').click();
      await operation.locator('.try-out__btn').click();
      await operation.locator('.execute').click();
      const status = operation.locator('.live-responses-table tr.response .response-col_status');
      await expect(status.textContent()).resolves.toMatch(/^\s*200/);
      await expect(
        operation.locator('.live-responses-table tr.response .response-col_description').textContent(),
      ).resolves.toContain(`"login": "${user.username}"`);
    });

    it('logged no error and sent nothing outside the service', () => {
      expect(watch.offOrigin).toEqual([]);
      expect(watch.errors).toEqual([]);
      expect(watch.requests).toEqual(
        expect.arrayContaining([
          `GET ${service.baseUrl}/swagger.v1.json`,
          `GET ${service.baseUrl}/api/v1/user`,
        ]),
      );
    });
  });
}
