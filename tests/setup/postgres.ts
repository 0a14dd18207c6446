import type { TestProject } from 'vitest/node';
import { startThrowawayPostgres } from '../../scripts/postgres';

/**
 * Vitest globalSetup of the "api" project: provides `postgresUrl`, a PostgreSQL server URL whose
 * user may create databases (each test file makes its own). TEST_DATABASE_URL names an existing
 * server; otherwise a throwaway cluster is started from the local PostgreSQL binaries and removed
 * afterwards. Without either the run fails: API suites never skip PostgreSQL.
 */

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const external = process.env.TEST_DATABASE_URL;
  if (external) {
    project.provide('postgresUrl', external);
    return;
  }
  const postgres = await startThrowawayPostgres();
  project.provide('postgresUrl', postgres.url);
  return () => postgres.stop();
}
