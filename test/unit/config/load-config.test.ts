import { ConfigError, loadConfig, splitModeConfig } from '../../../src/config';

describe('loadConfig', () => {
  it('gives embedded defaults with no settings', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.temporal.address).toBeUndefined();
    expect(config.temporal.uiPort).toBe(8233);
    expect(config.dataDir).toMatch(/\.data$/);
    expect(config.jwt.accessTokenTtlSeconds).toBe(900);
  });

  it.each([
    [{}, 'http://127.0.0.1:8080'],
    [{ PORT: '9000', HOST: '0.0.0.0' }, 'http://127.0.0.1:9000'],
    [{ HOST: '::1' }, 'http://[::1]:8080'],
    [{ HOST: 'localhost' }, 'http://localhost:8080'],
  ])('defaults PUBLIC_URL and the JWT issuer to the URL npm start prints, for %p', (env, url) => {
    const config = loadConfig(env);
    expect(config.publicUrl).toBe(url);
    expect(config.jwt.issuer).toBe(url);
    expect(config.identity.allowedOrigins).toEqual([url]);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT must be an integer'],
    [{ PORT: '70000' }, 'PORT must be between 0 and 65535'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL must use one of postgres:, postgresql:'],
    [{ TEMPORAL_ADDRESS: 'http://temporal:7233' }, 'TEMPORAL_ADDRESS must be host:port'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be one of'],
    [{ SHUTDOWN_GRACE: 'soon' }, 'SHUTDOWN_GRACE must be a duration'],
    [{ METRICS_ENABLED: 'maybe' }, 'METRICS_ENABLED must be true or false'],
    [{ JWT_PRIVATE_KEY: 'x' }, 'JWT_PRIVATE_KEY and JWT_PUBLIC_KEY must be set together'],
  ])('names the variable of a bad value %p', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('reads durations with units', () => {
    expect(loadConfig({ SHUTDOWN_GRACE: '1500ms' }).shutdownGraceMs).toBe(1500);
    expect(loadConfig({ SHUTDOWN_GRACE: '2m' }).shutdownGraceMs).toBe(120_000);
  });

  it('keeps registry blobs under DATA_DIR unless a bucket is set, and reads the object storage settings', () => {
    expect(loadConfig({}).registry.objectStore).toBeUndefined();
    expect(
      loadConfig({
        REGISTRY_S3_BUCKET: 'blobs',
        REGISTRY_S3_ENDPOINT: 'http://minio:9000',
        REGISTRY_S3_PREFIX: '/prod/',
        REGISTRY_S3_ACCESS_KEY_ID: 'id',
        REGISTRY_S3_SECRET_ACCESS_KEY: 'secret',
      }).registry.objectStore,
    ).toEqual({
      bucket: 'blobs',
      endpoint: 'http://minio:9000',
      region: 'us-east-1',
      prefix: 'prod/',
      forcePathStyle: true,
      credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
    });
    expect(loadConfig({ REGISTRY_S3_BUCKET: 'b' }).registry.objectStore).toMatchObject({
      endpoint: undefined,
      forcePathStyle: false,
      credentials: undefined,
    });
    expect(() => loadConfig({ REGISTRY_S3_BUCKET: 'b', REGISTRY_S3_ACCESS_KEY_ID: 'id' })).toThrow(
      'REGISTRY_S3_ACCESS_KEY_ID and REGISTRY_S3_SECRET_ACCESS_KEY must be set together',
    );
  });

  it('keeps hosted repositories under DATA_DIR/git unless GIT_REPOSITORIES_DIR names the shared folder', () => {
    expect(loadConfig({ DATA_DIR: '/srv/machine-1' }).gitops.repositoriesDir).toBe('/srv/machine-1/git');
    expect(
      loadConfig({ DATA_DIR: '/srv/machine-1', GIT_REPOSITORIES_DIR: '/mnt/shared/repos' }).gitops.repositoriesDir,
    ).toBe('/mnt/shared/repos');
  });

  it('refuses split mode without the shared settings, naming each missing one', () => {
    expect(() => splitModeConfig({ PUBLIC_URL: 'https://delivery.example.com' })).toThrow(
      new ConfigError(
        'split mode needs the shared settings JWT_PRIVATE_KEY, JWT_PUBLIC_KEY, MFA_ENCRYPTION_KEY, GIT_REPOSITORIES_DIR (docs/operations.md)',
      ),
    );
  });

  it('drains 5 s after SIGTERM in split mode, behind a balancer, and not at all for npm start', () => {
    const shared = {
      JWT_PRIVATE_KEY: 'k',
      JWT_PUBLIC_KEY: 'k',
      MFA_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
      PUBLIC_URL: 'https://delivery.example.com',
      GIT_REPOSITORIES_DIR: '/mnt/shared/repos',
    };
    expect(splitModeConfig(shared).shutdownDrainDelayMs).toBe(5000);
    expect(splitModeConfig({ ...shared, SHUTDOWN_DRAIN_DELAY: '2s' }).shutdownDrainDelayMs).toBe(2000);
    expect(loadConfig({}).shutdownDrainDelayMs).toBe(0);
  });

  it("caches users' standing for 5 seconds by default, at most a minute, or not at all", () => {
    expect(loadConfig({}).identity.standingCacheTtlMs).toBe(5000);
    expect(loadConfig({ AUTH_STANDING_CACHE: 'false' }).identity.standingCacheTtlMs).toBe(0);
    expect(() => loadConfig({ AUTH_STANDING_CACHE_TTL: '2m' })).toThrow('AUTH_STANDING_CACHE_TTL must be at most 60s');
  });
});
