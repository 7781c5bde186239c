// Generated from apps/project-service/test/replicas/migrating-replicas.test.ts by `npm run sync:copies`: edit that file, not this copy.
import path from 'node:path';
import { describeMigratingReplicas } from '@repo/testing';

// Replicas started together on an empty database, and interrupted index builds (@repo/testing's suite).
describeMigratingReplicas({ appDir: path.resolve(__dirname, '../..') });
