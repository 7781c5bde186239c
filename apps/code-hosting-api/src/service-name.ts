/** This service's name, for its logs and traces (the one thing its copied operations files differ in). */
export const SERVICE_NAME = 'code-hosting-api';
