import path from 'node:path';
import { describeConfigurationTable } from '@repo/testing';
import { CONFIG_VARIABLES } from '../src/config';

describeConfigurationTable({ appDir: path.resolve(__dirname, '..'), variables: CONFIG_VARIABLES });
