import { chromiumForTests, launchChromium, watchedPage, type PageWatch } from '@repo/testing';
import type { Browser } from 'playwright-core';
import { admin, rootUid } from './project-fixtures';
import { useProjectService } from './app';

// The documentation page as a person sees it: Swagger UI in a real Chromium, over the service
// listening here.

const service = useProjectService();
const chromiumPath = chromiumForTests('project-service: /_projects/docs in Chromium');

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

if (chromiumPath) {
  describe('GET /_projects/docs in Chromium', () => {
    let browser: Browser;
    let watch: PageWatch;
    let root: string;
    let documented: string[];

    beforeAll(async () => {
      browser = await launchChromium(chromiumPath);
      root = await rootUid(service);
      const document = await service.request.get('/_projects/openapi3.json').expect(200);
      documented = Object.entries(document.body.paths as Record<string, Record<string, unknown>>)
        .flatMap(([path, item]) =>
          Object.keys(item)
            .filter((method) => METHODS.includes(method))
            .map((method) => `${method.toUpperCase()} ${path}`),
        )
        .sort();
      watch = await watchedPage(browser, service.baseUrl);
      await watch.page.goto(`${service.baseUrl}/_projects/docs`);
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
      expect(documented.length).toBe(7);
      expect([...new Set(listed)].sort()).toEqual(documented);
    });

    it('Try it out on GET /projects, with the JWT given through Authorize, renders 200', async () => {
      const { page } = watch;
      await page.locator('.auth-wrapper .authorize').click();
      const scheme = page.locator('.auth-container', {
        has: page.locator('h4 code', { hasText: /^jwt_header_Authorization$/ }),
      });
      // Nothing is pre-filled: the person pastes the token.
      await expect(scheme.locator('input').inputValue()).resolves.toBe('');
      await scheme.locator('input').fill(admin().replace(/^Bearer /, ''));
      await scheme.locator('button.authorize').click();
      await page.locator('.modal-ux .close-modal').click();

      const operation = page.locator('.opblock-get', {
        has: page.locator('.opblock-summary-path[data-path="/projects"]'),
      });
      await operation.locator('.opblock-summary-control').click();
      await operation.locator('.try-out__btn').click();
      await operation.locator('.execute').click();
      const response = operation.locator('.live-responses-table tr.response');
      await expect(response.locator('.response-col_status').textContent()).resolves.toMatch(/^\s*200/);
      await expect(response.locator('.response-col_description').textContent()).resolves.toContain(root);
    });

    it('logged no error and sent nothing outside the service', () => {
      expect(watch.offOrigin).toEqual([]);
      expect(watch.errors).toEqual([]);
      expect(watch.requests).toEqual(
        expect.arrayContaining([
          `GET ${service.baseUrl}/_projects/openapi3.json`,
          `GET ${service.baseUrl}/projects`,
        ]),
      );
    });
  });
}
