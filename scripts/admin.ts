import { parseArgs } from 'node:util';
import { createAuditService } from '../src/audit/audit-service';
import { configFromProcess, exitOnConfigError } from '../src/config';
import { createDb } from '../src/db/knex';
import { migrateLatest } from '../src/db/migrate';
import { AppError } from '../src/errors';
import { operatorEndSessions, operatorResetMfa } from '../src/identity/operator-identity';
import { createLogger } from '../src/logging/logger';
import { createPasswordPolicy } from '../src/identity/password-policy';
import {
  addMember,
  createOrg,
  createUser,
  setPlan,
  verifyAudit,
  type UserCreationDeps,
} from '../src/admin/operator-commands';
import { NoEmbeddedDatabase, resolveDatabase } from '../src/runtime/embedded';
import { grantAppRole } from '../src/admin/app-role';
import { createRepositoryStore } from '../src/git/repository-store';
import { createBlobStore } from '../src/registry/create-blob-store';
import { createRegistryService } from '../src/registry/registry-service';

const USAGE = `usage: npm run admin -- <command> [options] [--init]
  create-user --email E --password P [--name N]     a verified user
  create-org --slug S --name N --owner E [--plan free|pro|enterprise]
  add-member --org S --email E --role owner|admin|member|viewer   an existing user joins without an invitation
  set-plan --org S --plan free|pro|enterprise
  verify-audit                                      recompute the audit hash chains, find commits without an audit entry
                                                    and recorded commits missing from their branch (exit 1 if any)
  reset-mfa --email E                               remove a user's MFA and end their sessions (lost authenticator)
  end-sessions --email E                            end every session of a user at once
  grant-app-role --role R                           least privilege for the API/worker role: audit log SELECT+INSERT only
  registry-gc                                       delete registry blobs no repository links, and expired uploads
The CLI uses the running platform's database (same DATABASE_URL, or DATA_DIR and EMBEDDED_PG_PORT); --init lets it
create a new embedded database under DATA_DIR when there is none.`;

type Options = Record<string, string | undefined>;

function need(options: Options, name: string): string {
  const value = options[name];
  if (!value) throw new UsageError(`--${name} is required`);
  return value;
}

class UsageError extends Error {}

const commands: Record<string, (deps: UserCreationDeps, o: Options) => Promise<{ output: unknown; exitCode: number }>> =
  {
    'create-user': async (deps, o) => ({
      output: await createUser(deps, { email: need(o, 'email'), password: need(o, 'password'), name: o.name }),
      exitCode: 0,
    }),
    'create-org': async (deps, o) => ({
      output: await createOrg(deps, {
        slug: need(o, 'slug'),
        name: need(o, 'name'),
        owner: need(o, 'owner'),
        plan: o.plan,
      }),
      exitCode: 0,
    }),
    'add-member': async (deps, o) => ({
      output: await addMember(deps, { org: need(o, 'org'), email: need(o, 'email'), role: need(o, 'role') }),
      exitCode: 0,
    }),
    'set-plan': async (deps, o) => ({
      output: await setPlan(deps, { org: need(o, 'org'), plan: need(o, 'plan') }),
      exitCode: 0,
    }),
    'reset-mfa': async (deps, o) => ({
      output: await operatorResetMfa(deps, need(o, 'email'), configFromProcess()),
      exitCode: 0,
    }),
    'end-sessions': async (deps, o) => ({ output: await operatorEndSessions(deps, need(o, 'email')), exitCode: 0 }),
    'grant-app-role': async (deps, o) => ({ output: await grantAppRole(deps, need(o, 'role')), exitCode: 0 }),
    'registry-gc': async (deps) => {
      const config = configFromProcess();
      const blobs = createBlobStore(config.dataDir, config.registry.objectStore);
      const registry = createRegistryService({ ...deps, blobs, config: config.registry });
      return { output: await registry.collectGarbage(), exitCode: 0 };
    },
    'verify-audit': async (deps) => {
      const report = await verifyAudit({
        ...deps,
        repositories: createRepositoryStore(configFromProcess().gitops.repositoriesDir),
      });
      return { output: report, exitCode: report.ok ? 0 : 1 };
    },
  };

async function main(): Promise<number> {
  const [name, ...rest] = process.argv.slice(2);
  const command = name ? commands[name] : undefined;
  if (!command) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const { values } = parseArgs({
    args: rest,
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      name: { type: 'string' },
      slug: { type: 'string' },
      owner: { type: 'string' },
      plan: { type: 'string' },
      org: { type: 'string' },
      role: { type: 'string' },
      init: { type: 'boolean' },
    },
    strict: true,
  });
  let config;
  try {
    config = configFromProcess();
  } catch (err) {
    exitOnConfigError(err);
  }
  const database = await resolveDatabase(config, createLogger('warn', { process: 'admin' }), {
    mayCreate: values.init === true,
  });
  const db = createDb(database.url, 2);
  try {
    await migrateLatest(db);
    const { output, exitCode } = await command(
      {
        db,
        audit: createAuditService(db),
        passwordPolicy: createPasswordPolicy(config.identity.passwordBlocklistFile),
      },
      values as Options,
    );
    process.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
    return exitCode;
  } finally {
    await db.destroy();
    await database.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (
      err instanceof AppError ||
      err instanceof UsageError ||
      err instanceof NoEmbeddedDatabase ||
      (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
    ) {
      process.stderr.write(`error: ${(err as Error).message}\n`);
      process.exit(2);
    }
    process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
