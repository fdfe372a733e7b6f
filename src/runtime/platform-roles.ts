/** What one process of the platform runs (scripts/platform.ts): the HTTP API, the workers, the migrations. */
export interface PlatformRoles {
  api: boolean;
  worker: boolean;
  migrate: boolean;
}
