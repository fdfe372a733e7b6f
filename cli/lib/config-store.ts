import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Where a context points: the server, and optionally the organization and project commands default to. */
export interface CliContext {
  server: string;
  organization?: string;
  project?: string;
}

export interface CliConfig {
  currentContext: string | null;
  contexts: Record<string, CliContext>;
}

/** A signed-in session: the refresh token is single-use, so it is rewritten after every refresh. */
export interface Credentials {
  email: string;
  refreshToken: string;
  refreshCookie: string;
  accessToken: string;
  accessTokenExpiresAt: string;
  organizationId: string | null;
}

/** `DELIVERY_CONFIG_DIR`, else `$XDG_CONFIG_HOME/delivery`, else `~/.config/delivery`. */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.DELIVERY_CONFIG_DIR) return env.DELIVERY_CONFIG_DIR;
  const base = env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
  return path.join(base, 'delivery');
}

/** The config file and one credentials file per context, readable by the user only (0700 folder, 0600 files). */
export class ConfigStore {
  constructor(readonly dir: string) {}

  private get configFile(): string {
    return path.join(this.dir, 'config.json');
  }

  /**
   * Credentials are kept per context and per server (as gh keeps them per host): a token is only ever read back for
   * the server it was issued by, so `--server` or `DELIVERY_SERVER` naming another server never receives it.
   */
  credentialsFile(context: string, server: string): string {
    return path.join(
      this.dir,
      'credentials',
      encodeURIComponent(context),
      `${encodeURIComponent(originOf(server))}.json`,
    );
  }

  read(): CliConfig {
    if (!fs.existsSync(this.configFile)) return { currentContext: null, contexts: {} };
    return JSON.parse(fs.readFileSync(this.configFile, 'utf8')) as CliConfig;
  }

  write(config: CliConfig): void {
    writePrivate(this.dir, this.configFile, `${JSON.stringify(config, null, 2)}\n`);
  }

  readCredentials(context: string, server: string): Credentials | null {
    const file = this.credentialsFile(context, server);
    if (!fs.existsSync(file)) return null;
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Credentials;
  }

  writeCredentials(context: string, server: string, credentials: Credentials): void {
    writePrivate(this.dir, this.credentialsFile(context, server), `${JSON.stringify(credentials, null, 2)}\n`);
  }

  removeCredentials(context: string, server: string): void {
    fs.rmSync(this.credentialsFile(context, server), { force: true });
  }
}

/** A server as credentials are keyed: its origin (scheme, lowercase host, port), or the text when it is no URL. */
function originOf(server: string): string {
  return URL.canParse(server) ? new URL(server).origin : server;
}

/**
 * Writes through a temporary file and a rename, so a crash never leaves half a file. Every folder from the config
 * folder down is set to 0700 and the file to 0600 on every write: `mkdir`'s mode only applies to a folder it creates,
 * so a folder that already existed (made by hand, or by an older version) stayed world-readable (issue 42).
 */
function writePrivate(root: string, file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    fs.chmodSync(dir, 0o700);
    if (path.relative(root, dir) === '' || dir === path.dirname(dir)) break;
  }
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text, { mode: 0o600 });
  fs.chmodSync(tmp, 0o600);
  fs.renameSync(tmp, file);
}
