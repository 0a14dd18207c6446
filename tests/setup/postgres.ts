import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { databaseUrl, onServer, startThrowawayPostgres } from '../../scripts/postgres';
import { openDb } from '../../server/db';

/**
 * Vitest globalSetup of the "api" project: provides `postgresUrl`, a PostgreSQL server URL whose
 * user may create databases (each test file makes its own), and `postgresTemplate`, a database on
 * it with every migration applied that new test databases are copied from (copying takes a fraction
 * of the time the migrations do). TEST_DATABASE_URL names an existing server; otherwise a throwaway
 * cluster is started from the local PostgreSQL binaries and removed afterwards. Without either the
 * run fails: API suites never skip PostgreSQL.
 */

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
    postgresTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  const external = process.env.TEST_DATABASE_URL;
  const postgres = external ? undefined : await startThrowawayPostgres();
  const server = external ?? postgres!.url;
  const template = `vitrine_template_${randomBytes(6).toString('hex')}`;
  try {
    await onServer(server, `create database ${template}`);
    const migrated = await openDb({ databaseUrl: databaseUrl(server, template), dataDir: '' });
    await migrated.close();
  } catch (err) {
    await postgres?.stop();
    throw err;
  }
  project.provide('postgresUrl', server);
  project.provide('postgresTemplate', template);
  return async () => {
    await onServer(server, `drop database if exists ${template} with (force)`);
    await postgres?.stop();
  };
}
