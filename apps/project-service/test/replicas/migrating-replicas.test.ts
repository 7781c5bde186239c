import path from 'node:path';
import { describeMigratingReplicas } from '@repo/testing';

// Replicas started together on an empty database, and interrupted index builds (@repo/testing's suite).
describeMigratingReplicas({ appDir: path.resolve(__dirname, '../..') });
