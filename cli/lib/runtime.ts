import { ApiClient, type TokenSource } from './api-client';
import { CliError, EXIT } from './api-error';
import { ConfigStore, configDir, type CliContext } from './config-store';
import { StoredSession } from './session';
import type { OutputFormat } from './output';

/** The options every command takes (kubectl-like: flags beat the environment, which beats the context). */
export interface GlobalOptions {
  server?: string;
  context?: string;
  token?: string;
  project?: string;
  output?: OutputFormat;
}

/** What a command runs with: the resolved context, an API client and where to write. */
export interface Runtime {
  store: ConfigStore;
  contextName: string;
  context: CliContext;
  api: ApiClient;
  output: OutputFormat;
  out: NodeJS.WritableStream & { isTTY?: boolean };
  err: NodeJS.WritableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  /** The project of --project, DELIVERY_PROJECT or the context; a clear error when none is set. */
  project(): string;
}

export const DEFAULT_SERVER = 'http://127.0.0.1:8080';

export function createRuntime(options: GlobalOptions, env: NodeJS.ProcessEnv = process.env): Runtime {
  const store = new ConfigStore(configDir(env));
  const config = store.read();
  const contextName = options.context ?? env.DELIVERY_CONTEXT ?? config.currentContext ?? 'default';
  const stored = config.contexts[contextName];
  const server = options.server ?? env.DELIVERY_SERVER ?? stored?.server ?? DEFAULT_SERVER;
  const context: CliContext = { ...stored, server };
  const fixed = options.token ?? env.DELIVERY_TOKEN;
  const tokens: TokenSource | null = fixed
    ? { token: () => Promise.resolve(fixed), refreshable: false }
    : store.readCredentials(contextName, server)
      ? sessionTokens(new StoredSession(store, contextName, server))
      : null;
  const project = options.project ?? env.DELIVERY_PROJECT ?? stored?.project;
  return {
    store,
    contextName,
    context,
    api: new ApiClient(server, tokens),
    output: options.output ?? 'table',
    out: process.stdout,
    err: process.stderr,
    env,
    project() {
      if (!project)
        throw new CliError(
          'no project: pass --project, set DELIVERY_PROJECT or run: delivery context set --project <slug>',
          EXIT.usage,
        );
      return project;
    },
  };
}

function sessionTokens(session: StoredSession): TokenSource {
  return { token: (force) => session.token(force), refreshable: true };
}
