import type { LibSQLDatabase } from 'drizzle-orm/libsql';
import * as schema from './schema';

/** The one database handle every service takes. Each host builds it from its own libSQL client. */
export type Db = LibSQLDatabase<typeof schema>;
export { schema };
