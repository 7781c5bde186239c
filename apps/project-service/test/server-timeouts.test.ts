import { describeServerTimeouts } from '@repo/testing';
import { serviceHome } from './service-process';

describeServerTimeouts({ serviceHome, bodyPath: '/projects' });
