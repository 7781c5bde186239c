import { dropDatabaseTemplate } from '@repo/testing';

export default dropDatabaseTemplate;
