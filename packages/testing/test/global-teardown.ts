import { dropDatabaseTemplate } from '../src';

export default dropDatabaseTemplate;
