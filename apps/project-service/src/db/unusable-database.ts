/**
 * The tables each service's migrations create. Each service has its own database: one that holds
 * another service's tables is refused at start-up (test/unusable-database.test.ts checks that a
 * service's own entry is what its migrations create).
 */
export const SERVICE_TABLES = {
  'project-service': ['projects', 'project_members'],
  'code-hosting-api': [
    'accounts',
    'access_tokens',
    'teams',
    'team_members',
    'repositories',
    'collaborations',
    'issues',
    'actions',
    'attachments',
  ],
} as const;
