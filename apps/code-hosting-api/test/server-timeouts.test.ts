import { describeServerTimeouts } from '@repo/testing';
import { serviceHome } from './service-process';

describeServerTimeouts({ serviceHome, bodyPath: '/api/v1/orgs' });
