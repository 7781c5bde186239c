import type { Browser } from 'playwright-core';
import { chromiumForTests, launchChromium, watchedPage, type PageWatch } from '../browser';
import type { TestApp } from '../test-app';
import { PROCESS_START_MS } from '../service-process';

/** What a person types into Authorize, and a text the operation's answer then shows. */
export interface TryOutCaller {
  credential: string;
  answerShows: string;
}

export interface ApiDocsBrowserOptions {
  /** The app under test; its OpenAPI document's server must be this origin. */
  service: TestApp;
  /** Named where Chromium is missing. */
  appName: string;
  pagePath: string;
  documentPath: string;
  /** Checks how many operations the document has (so an emptied document fails). */
  checkOperationCount(count: number): void;
  /** The security scheme's name, as the Authorize dialog shows it. */
  securityScheme: string;
  /** What the credential is called in the test's name ("token", "JWT"). */
  credentialName: string;
  /** A GET operation to try out: its path in the document, and the path it requests. */
  tryOut: { documentedPath: string; requestedPath: string };
  /** Prepares, once the app listens, who tries the operation out. */
  caller(): Promise<TryOutCaller>;
}

/** A pattern that matches `text` and nothing longer. */
function exactly(text: string): RegExp {
  return new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** The documentation page as a person sees it: Swagger UI in a real Chromium, over the app under test. */
export function describeApiDocsBrowser(options: ApiDocsBrowserOptions): void {
  const { service, pagePath, tryOut } = options;
  const chromiumPath = chromiumForTests(`${options.appName}: ${pagePath} in Chromium`);
  if (!chromiumPath) return;

  describe(`GET ${pagePath} in Chromium`, () => {
    let browser: Browser;
    let watch: PageWatch;
    let caller: TryOutCaller;
    let documented: string[];

    beforeAll(async () => {
      browser = await launchChromium(chromiumPath);
      caller = await options.caller();
      const document = await service.request.get(options.documentPath).expect(200);
      documented = Object.entries(document.body.paths as Record<string, Record<string, unknown>>)
        .flatMap(([path, item]) =>
          Object.keys(item)
            .filter((method) => METHODS.includes(method))
            .map((method) => `${method.toUpperCase()} ${path}`),
        )
        .sort();
      watch = await watchedPage(browser, service.baseUrl);
      await watch.page.goto(`${service.baseUrl}${pagePath}`);
      await watch.page.locator('.opblock').first().waitFor({ timeout: 15_000 });
    }, PROCESS_START_MS);

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
      options.checkOperationCount(documented.length);
      expect([...new Set(listed)].sort()).toEqual(documented);
    });

    it('shows a summary beside every operation', async () => {
      const unsummarized = await watch.page.$$eval('.opblock', (blocks) =>
        blocks
          .filter((block) => !block.querySelector('.opblock-summary-description')?.textContent?.trim())
          .map((block) => block.querySelector('[data-path]')?.getAttribute('data-path') ?? '?'),
      );
      expect(unsummarized).toEqual([]);
    });

    it('describes each security scheme in the Authorize dialog as the document does', async () => {
      const { page } = watch;
      const document = await service.request.get(options.documentPath).expect(200);
      const schemes = (document.body.components?.securitySchemes ?? {}) as Record<
        string,
        { description?: string }
      >;
      await page.locator('.auth-wrapper .authorize').click();
      const shown = await page.$$eval('.modal-ux .auth-container', (containers) =>
        containers.map((container) => ({
          scheme: container.querySelector('h4 code')?.textContent ?? '?',
          text: (container.textContent ?? '').replace(/\s+/g, ' '),
        })),
      );
      await page.locator('.modal-ux .close-modal').click();
      expect(shown.map(({ scheme }) => scheme).sort()).toEqual(Object.keys(schemes).sort());
      for (const { scheme, text } of shown) {
        // Markdown's backquotes become <code>: the text reads the same without them.
        const description = (schemes[scheme]?.description ?? '').replace(/`/g, '').replace(/\s+/g, ' ');
        expect({ scheme, shows: text.includes(description) }).toEqual({ scheme, shows: true });
      }
    });

    it(`Try it out on GET ${tryOut.documentedPath}, with the ${options.credentialName} given through Authorize, renders 200`, async () => {
      const { page } = watch;
      await page.locator('.auth-wrapper .authorize').click();
      const scheme = page.locator('.auth-container', {
        has: page.locator('h4 code', { hasText: exactly(options.securityScheme) }),
      });
      // Nothing is pre-filled: the person enters the credential.
      await expect(scheme.locator('input').inputValue()).resolves.toBe('');
      await scheme.locator('input').fill(caller.credential);
      await scheme.locator('button.authorize').click();
      await page.locator('.modal-ux .close-modal').click();

      const operation = page.locator('.opblock-get', {
        has: page.locator(`.opblock-summary-path[data-path="${tryOut.documentedPath}"]`),
      });
      await operation.locator('.opblock-summary-control').click();
      await operation.locator('.try-out__btn').click();
      await operation.locator('.execute').click();
      const response = operation.locator('.live-responses-table tr.response');
      await expect(response.locator('.response-col_status').textContent()).resolves.toMatch(/^\s*200/);
      await expect(response.locator('.response-col_description').textContent()).resolves.toContain(
        caller.answerShows,
      );
    });

    it('logged no error and sent nothing outside the service', () => {
      expect(watch.offOrigin).toEqual([]);
      expect(watch.errors).toEqual([]);
      expect(watch.requests).toEqual(
        expect.arrayContaining([
          `GET ${service.baseUrl}${options.documentPath}`,
          `GET ${service.baseUrl}${tryOut.requestedPath}`,
        ]),
      );
    });
  });
}
