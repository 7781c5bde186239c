import { describeServerPrototypes } from '@repo/testing';
import { appWithUnreachableDatabase } from './app';

// No database is needed: the liveness probe and an unknown path never ask it.
describeServerPrototypes({ app: appWithUnreachableDatabase, paths: ['/livez', '/no-such-path'] });
