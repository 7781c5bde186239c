/** This service's name, for its logs and traces: the app's own file, which the copied runtime files import. */
export const SERVICE_NAME = 'code-hosting-api';
