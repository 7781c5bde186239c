import type { ServiceHome } from '../service-home';
import { PROCESS_START_MS, type ServiceProcess } from '../service-process';

/** The names of the `secrets` that appear in `logs`. */
export function credentialLeaks(logs: string, secrets: Record<string, string>): string[] {
  return Object.entries(secrets)
    .filter(([, secret]) => logs.includes(secret))
    .map(([name]) => name);
}

export interface ProcessLogSecretsOptions {
  /** Where the built service runs (a fresh home per suite). */
  serviceHome(): Promise<ServiceHome>;
  /**
   * Sends the app's batch of requests, each carrying credentials in one of the forms the app
   * accepts; resolves with every credential that must not be written, by name.
   */
  sendCredentials(service: ServiceProcess): Promise<Record<string, string>>;
}

/** Everything a service process writes at trace level, stdout and stderr, holds no credential. */
export function describeProcessLogSecrets({ serviceHome, sendCredentials }: ProcessLogSecretsOptions): void {
  describe('everything a service process writes', () => {
    let home: ServiceHome | undefined;
    let service: ServiceProcess | undefined;

    beforeAll(async () => {
      home = await serviceHome();
      service = await home.start({ LOG_LEVEL: 'trace', SHUTDOWN_DRAIN_MS: '0' });
    }, PROCESS_START_MS);

    afterAll(async () => {
      // A start that failed (or timed out) left nothing, or only the home, to clean up.
      service?.kill('SIGTERM');
      await service?.exited;
      await home?.remove();
    });

    it('holds no credential of any form either service accepts, on stdout or stderr', async () => {
      const running = service!;
      const secrets = await sendCredentials(running);
      // Everything the process writes, to its last line: stopped, and its output closed.
      running.kill('SIGTERM');
      await running.exited;

      const written = running.output.join('\n');
      expect(written).toContain('request completed');
      expect(credentialLeaks(written, secrets)).toEqual([]);
    });
  });
}
