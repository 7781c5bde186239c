// Generated from apps/project-service/test/configuration-table.test.ts by `npm run sync:copies`: edit that file, not this copy.
import path from 'node:path';
import { describeConfigurationTable } from '@repo/testing';
import { CONFIG_VARIABLES } from '../src/config';

describeConfigurationTable({ appDir: path.resolve(__dirname, '..'), variables: CONFIG_VARIABLES });
