import type { Knex } from 'knex';
import * as m001 from './20261122000100_core';

export interface NamedMigration {
  name: string;
  migration: Knex.Migration;
}

/** Ordered list of every migration; append new ones at the end. */
export const migrations: NamedMigration[] = [{ name: '20261122000100_core', migration: m001 }];
