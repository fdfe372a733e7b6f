import type { Command } from 'commander';
import type {
  ApiKeyCreateRequest,
  ServiceAccountCreateRequest,
  ServiceAccountTokenCreateRequest,
} from '../../api/request-types.generated';
import { CliError, EXIT } from '../lib/api-error';
import { act, subcommand } from '../lib/command-kit';
import { list } from '../lib/lookups';
import { acknowledge, printList, printValue } from '../lib/output';
import type { Runtime } from '../lib/runtime';

/** A secret value is printed once, on stdout alone, so `$(delivery key create ...)` captures just the value. */
function printSecretOnce<F extends string>(rt: Runtime, answer: Record<F, unknown>, field: F): void {
  if (rt.output !== 'table') return printValue(rt.out, rt.output, answer);
  rt.err.write(`the ${field} is shown once; store it now\n`);
  rt.out.write(`${String(answer[field])}\n`);
}

function required<T extends string>(values: string[] | undefined, flag: string): [T, ...T[]] {
  if (!values?.length) throw new CliError(`${flag} needs at least one value`, EXIT.usage);
  return values as [T, ...T[]];
}

export function registerMachineAccess(program: Command): void {
  const key = subcommand(program, 'key', 'Project API keys for pipelines');
  subcommand(key, 'list', "The project's API keys (never their values)").action(
    act(async (rt) => {
      const answer = await rt.api.get('/api/v2/projects/{slug}/api-keys', { path: { slug: rt.project() } });
      printList(
        rt.out,
        rt.output,
        answer.items,
        [
          { header: 'id', value: (k) => k.id },
          { header: 'name', value: (k) => k.name },
          { header: 'scopes', value: (k) => k.scopes.join(',') },
          { header: 'last used', value: (k) => k.lastUsedAt },
        ],
        answer,
      );
    }),
  );
  subcommand(key, 'create', 'Create a key; its value is printed once', [
    'delivery key create --name ci --scopes read,write',
  ])
    .requiredOption('--name <name>', 'name')
    .requiredOption('--scopes <list>', 'read, write, admin, image:update')
    .action(
      act<{ name: string; scopes: string }>(async (rt, flags) => {
        const body: ApiKeyCreateRequest = { name: flags.name, scopes: required(list(flags.scopes), '--scopes') };
        printSecretOnce(
          rt,
          await rt.api.post('/api/v2/projects/{slug}/api-keys', { path: { slug: rt.project() }, body }),
          'key',
        );
      }),
    );
  subcommand(key, 'delete', 'Delete a key; its next request fails')
    .argument('<id>')
    .action(
      act(async (rt, _flags, [id]) => {
        await rt.api.delete('/api/v2/projects/{slug}/api-keys/{id}', { path: { slug: rt.project(), id: id! } });
        acknowledge(rt, `key ${id} deleted`, { deleted: id });
      }),
    );

  const account = subcommand(program, 'service-account', 'Service accounts and their tokens');
  subcommand(account, 'list', 'Service accounts of the organization').action(
    act(async (rt) => {
      const answer = await rt.api.get('/api/v2/iam/service-accounts');
      printList(
        rt.out,
        rt.output,
        answer.items,
        [
          { header: 'id', value: (a) => a.id },
          { header: 'name', value: (a) => a.name },
          { header: 'role', value: (a) => a.role },
        ],
        answer,
      );
    }),
  );
  subcommand(account, 'create', 'Create a service account with a base role')
    .requiredOption('--name <name>', 'name')
    .requiredOption('--role <role>', 'viewer, member or admin')
    .option('--description <text>', 'description')
    .action(
      act<{ name: string; role: string; description?: string }>(async (rt, flags) => {
        const body: ServiceAccountCreateRequest = {
          name: flags.name,
          role: flags.role as ServiceAccountCreateRequest['role'],
          description: flags.description,
        };
        printValue(rt.out, rt.output, await rt.api.post('/api/v2/iam/service-accounts', { body }));
      }),
    );
  subcommand(account, 'token', 'Create a token of a service account; its value is printed once', [
    'delivery service-account token <account-id> --scopes write --actions "projects.shop.releases.*"',
  ])
    .argument('<account-id>')
    .requiredOption('--scopes <list>', 'read, write, admin')
    .requiredOption('--actions <list>', 'allowed action patterns, comma-separated')
    .option('--expires-in <seconds>', 'lifetime in seconds')
    .option('--description <text>', 'description')
    .action(
      act<{ scopes: string; actions: string; expiresIn?: string; description?: string }>(async (rt, flags, [id]) => {
        const body: ServiceAccountTokenCreateRequest = {
          scopes: required(list(flags.scopes), '--scopes'),
          allowedActions: required(list(flags.actions), '--actions'),
          expiresIn: flags.expiresIn === undefined ? undefined : Number(flags.expiresIn),
          description: flags.description,
        };
        printSecretOnce(
          rt,
          await rt.api.post('/api/v2/iam/service-accounts/{id}/tokens', { path: { id: id! }, body }),
          'token',
        );
      }),
    );
}
