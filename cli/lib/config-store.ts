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

  credentialsFile(context: string): string {
    return path.join(this.dir, 'credentials', `${encodeURIComponent(context)}.json`);
  }

  read(): CliConfig {
    if (!fs.existsSync(this.configFile)) return { currentContext: null, contexts: {} };
    return JSON.parse(fs.readFileSync(this.configFile, 'utf8')) as CliConfig;
  }

  write(config: CliConfig): void {
    writePrivate(this.configFile, `${JSON.stringify(config, null, 2)}\n`);
  }

  readCredentials(context: string): Credentials | null {
    const file = this.credentialsFile(context);
    if (!fs.existsSync(file)) return null;
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Credentials;
  }

  writeCredentials(context: string, credentials: Credentials): void {
    writePrivate(this.credentialsFile(context), `${JSON.stringify(credentials, null, 2)}\n`);
  }

  removeCredentials(context: string): void {
    fs.rmSync(this.credentialsFile(context), { force: true });
  }
}

/** Writes through a temporary file and a rename, so a crash never leaves half a file; 0600 in 0700 folders. */
function writePrivate(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text, { mode: 0o600 });
  fs.renameSync(tmp, file);
}
