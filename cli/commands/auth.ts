import type { Command } from 'commander';
import type { AuthLoginRequest, AuthMfaVerifyRequest } from '../../api/request-types.generated';
import type { Answer } from '../../client/openapi-answers';
import { ApiError, CliError, EXIT } from '../lib/api-error';
import { whoAmI } from '../lib/caller';
import { act, subcommand } from '../lib/command-kit';
import type { CliContext, Credentials } from '../lib/config-store';
import { acknowledge, printList, printValue } from '../lib/output';
import { ask } from '../lib/prompt';
import { createRuntime, type Runtime } from '../lib/runtime';
import { credentialsFrom, StoredSession } from '../lib/session';

/** The sign-in steps, sent without the API client: their answers set the refresh cookie the session keeps. */
type SignInRoute = '/api/v1/auth/login' | '/api/v1/auth/mfa/verify' | '/api/v1/auth/mfa/email/send';

async function postJson<P extends SignInRoute>(rt: Runtime, path: P, body: unknown) {
  const res = await fetch(new URL(path, rt.context.server), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(body),
  }).catch((err: Error) => {
    throw new CliError(`cannot reach ${rt.context.server} (${err.message})`);
  });
  const json: unknown = await res.json().catch(() => ({}));
  if (!res.ok) {
    const error = typeof json === 'object' && json !== null && 'error' in json ? String(json.error) : res.statusText;
    throw new ApiError(res.status, error);
  }
  // The route's declared response (schemas/route-responses.json), as the API client types every answer.
  return { res, answer: json as Answer<P, 'post'> };
}

/** Password, then the second factor when the account has one (TOTP or recovery code, or a mailed code). */
async function signIn(rt: Runtime, flags: LoginFlags): Promise<Credentials> {
  const email = flags.email ?? (await ask('Email: ', { flag: '--email' }));
  const password = await ask('Password: ', { hidden: true, flag: '--password-stdin with the password on stdin' });
  const login: AuthLoginRequest = { email, password };
  const first = await postJson(rt, '/api/v1/auth/login', login);
  if (!('mfaRequired' in first.answer)) return credentialsFrom(first.res, first.answer, email);
  const { mfaToken, methods } = first.answer;
  if (flags.mfaEmail) await postJson(rt, '/api/v1/auth/mfa/email/send', { mfaToken });
  const code = flags.code ?? (await ask(`MFA code (${methods.join(', ')}): `, { flag: '--code' }));
  const verify: AuthMfaVerifyRequest = { mfaToken, ...mfaFields(code, flags.mfaEmail) };
  const second = await postJson(rt, '/api/v1/auth/mfa/verify', verify);
  return credentialsFrom(second.res, second.answer, email);
}

function mfaFields(code: string, emailed?: boolean): Omit<AuthMfaVerifyRequest, 'mfaToken'> {
  if (emailed) return { emailCode: code };
  return /^\d{6}$/.test(code) ? { code } : { recoveryCode: code };
}

interface LoginFlags {
  email?: string;
  passwordStdin?: boolean;
  code?: string;
  mfaEmail?: boolean;
  organization?: string;
}

/** Picks the organization of the session: the one named, else the only membership; refreshes into it. */
async function chooseOrganization(rt: Runtime, credentials: Credentials, slug: string | undefined) {
  const session = new StoredSession(rt.store, rt.contextName, rt.context.server);
  const me = await rt.api.get('/api/v1/auth/me').catch(() => ({ memberships: [] }));
  const wanted = slug
    ? me.memberships.find((m) => m.slug === slug)
    : me.memberships.length === 1
      ? me.memberships[0]
      : undefined;
  if (slug && !wanted) {
    const known = me.memberships.map((m) => m.slug).join(', ') || 'none';
    throw new CliError(`you are not a member of organization "${slug}" (yours: ${known})`);
  }
  if (!wanted || wanted.id === credentials.organizationId) return credentials.organizationId ? wanted : undefined;
  await session.refresh(credentials, wanted.id);
  return wanted;
}

export function registerAuth(program: Command): void {
  subcommand(program, 'login', 'Sign in (password, then the MFA code when the account has MFA)', [
    'delivery login --server https://delivery.example.com --email me@example.com',
    'printf "%s\\n%s\\n" "$PASSWORD" "$CODE" | delivery login --email me@example.com --password-stdin',
  ])
    .option('--email <email>', 'account email (asked when missing)')
    .option('--password-stdin', 'read the password (and then the MFA code) from standard input')
    .option('--code <code>', 'the MFA code: 6-digit TOTP, a recovery code, or the mailed code with --mfa-email')
    .option('--mfa-email', 'have a code mailed instead of using the authenticator app')
    .option('--organization <slug>', 'organization to work in (default: your only one)')
    .action(
      act<LoginFlags>(async (rt, flags) => {
        const credentials = await signIn(rt, flags);
        rt.store.writeCredentials(rt.contextName, rt.context.server, credentials);
        const signedIn = createRuntime({ context: rt.contextName, server: rt.context.server });
        const org = await chooseOrganization(signedIn, credentials, flags.organization);
        saveContext(rt, { server: rt.context.server, organization: org?.slug ?? rt.context.organization });
        acknowledge(
          rt,
          `signed in to ${rt.context.server} as ${credentials.email}` +
            (org
              ? ` (organization ${org.slug}, ${org.role})`
              : ' (no organization chosen: delivery context set --organization <slug>)'),
          { server: rt.context.server, email: credentials.email, organization: org ?? null },
        );
      }),
    );

  subcommand(program, 'logout', 'End the session of the current context and forget its credentials').action(
    act(async (rt) => {
      const credentials = rt.store.readCredentials(rt.contextName, rt.context.server);
      if (credentials) {
        await fetch(new URL('/api/v1/auth/logout', rt.context.server), {
          method: 'POST',
          headers: {
            Cookie: `${credentials.refreshCookie}=${credentials.refreshToken}`,
            Authorization: `Bearer ${credentials.accessToken}`,
          },
        }).catch(() => undefined);
      }
      rt.store.removeCredentials(rt.contextName, rt.context.server);
      acknowledge(rt, `signed out of context ${rt.contextName}`, { signedOut: rt.contextName });
    }),
  );

  subcommand(
    program,
    'whoami',
    'Who the credentials are: the user, organization and memberships; or the API key or token, its project and scopes',
    ['delivery whoami', 'DELIVERY_TOKEN=svc_... delivery whoami -o json'],
  ).action(
    act(async (rt) => {
      const caller = await whoAmI(rt.api);
      if (caller.kind !== 'user') {
        if (rt.output !== 'table') return printValue(rt.out, rt.output, caller);
        return printValue(rt.out, 'table', {
          kind: caller.kind === 'api_key' ? 'project API key' : 'service-account token',
          name: caller.credential.name,
          id: caller.credential.id,
          organization: caller.organization?.slug ?? null,
          project: caller.project?.slug ?? null,
          scopes: (caller.scopes ?? []).join(', '),
          actions: (caller.allowedActions ?? []).join(', '),
          paths: caller.paths === null ? null : `${caller.paths.length} (-o json lists them)`,
          server: rt.context.server,
        });
      }
      const me = await rt.api.get('/api/v1/auth/me');
      if (rt.output !== 'table') return printValue(rt.out, rt.output, me);
      printValue(rt.out, 'table', {
        email: me.user.email,
        name: me.user.name,
        organization: me.organization ? `${me.organization.slug} (${me.organization.role})` : null,
        memberships: me.memberships.map((m) => `${m.slug} (${m.role})`).join(', '),
        server: rt.context.server,
        context: rt.contextName,
      });
    }),
  );

  registerContext(program);
}

function saveContext(rt: Runtime, patch: Partial<CliContext>, name = rt.contextName) {
  const config = rt.store.read();
  const current = config.contexts[name] ?? { server: rt.context.server };
  const next: CliContext = { ...current, ...patch };
  config.contexts[name] = next;
  config.currentContext ??= name;
  rt.store.write(config);
}

function registerContext(program: Command): void {
  const context = subcommand(program, 'context', 'Contexts (server, organization, project), like kubectl contexts');
  subcommand(context, 'list', 'Every context, the current one marked').action(
    act(async (rt) => {
      const config = rt.store.read();
      const rows = Object.entries(config.contexts).map(([name, c]) => ({
        name,
        ...c,
        current: name === config.currentContext,
      }));
      printList(rt.out, rt.output, rows, [
        { header: 'current', value: (r) => (r.current ? '*' : '') },
        { header: 'name', value: (r) => r.name },
        { header: 'server', value: (r) => r.server },
        { header: 'organization', value: (r) => r.organization },
        { header: 'project', value: (r) => r.project },
        { header: 'signed in', value: (r) => (rt.store.readCredentials(r.name, r.server) ? 'yes' : 'no') },
      ]);
    }),
  );
  subcommand(context, 'use', 'Make a context the current one', ['delivery context use staging'])
    .argument('<name>')
    .action(
      act(async (rt, _flags, [name]) => {
        const config = rt.store.read();
        if (!config.contexts[name!]) throw new CliError(`no context "${name}" (delivery context list)`, EXIT.usage);
        config.currentContext = name!;
        rt.store.write(config);
        acknowledge(rt, `current context: ${name}`, { currentContext: name });
      }),
    );
  subcommand(context, 'set', 'Create or change a context (the current one unless --name)', [
    'delivery context set --name staging --server https://staging.example.com',
    'delivery context set --project shop --organization acme',
  ])
    .option('--name <name>', 'context to create or change')
    .option('--organization <slug>', 'organization (switches the signed-in session too)')
    .action(
      act<{ name?: string; organization?: string; server?: string; project?: string }>(async (rt, flags) => {
        const name = flags.name ?? rt.contextName;
        saveContext(
          rt,
          { ...(flags.server ? { server: flags.server } : {}), ...(flags.project ? { project: flags.project } : {}) },
          name,
        );
        if (flags.organization) {
          const server = rt.store.read().contexts[name]?.server ?? rt.context.server;
          const credentials = rt.store.readCredentials(name, server);
          if (credentials) await chooseOrganization(rt, credentials, flags.organization);
          saveContext(rt, { organization: flags.organization }, name);
        }
        acknowledge(rt, `context ${name} updated`, { context: name, ...rt.store.read().contexts[name] });
      }),
    );
}
