import { ConfigError, type Config } from '../config';
import type { Endpoints } from './services';

/** Production entry points (api, worker, migrate) never start embedded services: they need both addresses. */
export function externalEndpoints(config: Config): Endpoints {
  if (!config.databaseUrl) throw new ConfigError('DATABASE_URL is required for this entry point (npm start embeds it)');
  if (!config.temporal.address) {
    throw new ConfigError('TEMPORAL_ADDRESS is required for this entry point (npm start embeds it)');
  }
  return { databaseUrl: config.databaseUrl, temporalAddress: config.temporal.address };
}
