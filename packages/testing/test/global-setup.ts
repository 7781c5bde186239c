import { prepareDatabaseTemplate } from '../src';
import { migrateNotes } from './notes-database';

export default () => prepareDatabaseTemplate({ name: 'testing_harness', migrate: migrateNotes });
