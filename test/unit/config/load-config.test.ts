import { ConfigError, loadConfig } from '../../../src/config';

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
});
