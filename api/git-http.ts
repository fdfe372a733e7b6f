import { spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import type { Next } from 'koa';
import { InvalidInput, NotFound, Unauthorized } from '../src/errors';
import type { RepositoryStore } from '../src/git/repository-store';
import type { Authenticator } from '../src/iam/authenticator';
import type { AuthorizationChain } from '../src/iam/authorization-chain';
import type { Principal } from '../src/iam/principal';
import { checkKeyAccess } from '../src/machine-access/key-allowlist';
import type { CallerScope } from '../src/views/caller-scope';
import type { AppContext } from './context';

const GIT_PATH = /^\/git\/r\/([a-z0-9-]{1,63})\/([a-z0-9-]{1,63})\.git(\/.*)$/;
/** The smart-HTTP read endpoints; the dumb protocol and everything else answer 404. */
const READ_PATHS = new Set(['/info/refs', '/git-upload-pack']);
const PUSH_REFUSED =
  'pushing is not supported: every change goes through the API (files, delivery generate, bulk update) so it is ' +
  'validated and audited\n';

export interface GitHttpDeps {
  callerScope: CallerScope;
  authenticators: Authenticator[];
  authorization: AuthorizationChain;
  repositories: RepositoryStore;
}

/**
 * The query of a request, read strictly (docs/security.md A-90): `/info/refs` takes exactly one `service` parameter,
 * every other path none. Anything else (a doubled or unknown parameter) answers 400, so `git http-backend` and this
 * check can never read the query differently. Answers the service asked for, or null.
 */
function serviceOf(ctx: AppContext, rest: string): string | null {
  const params = [...new URLSearchParams(ctx.querystring)];
  if (params.length === 0) return null;
  const [first] = params;
  if (rest !== '/info/refs' || params.length !== 1 || first?.[0] !== 'service') {
    throw new InvalidInput('invalid query: only /info/refs takes one service parameter');
  }
  if (first[1] !== 'git-upload-pack' && first[1] !== 'git-receive-pack') throw new InvalidInput('unknown service');
  return first[1];
}

function unauthorized(): Unauthorized {
  const err = new Unauthorized('authentication required: use an access token as the password');
  err.headers['WWW-Authenticate'] = 'Basic realm="delivery-platform git", charset="UTF-8"';
  return err;
}

async function principalOf(ctx: AppContext, authenticators: Authenticator[]): Promise<Principal> {
  const match = /^Basic ([A-Za-z0-9+/=]{1,8192})$/.exec(ctx.get('Authorization'));
  if (!match?.[1]) throw unauthorized();
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const token = decoded.slice(decoded.indexOf(':') + 1);
  for (const authenticator of authenticators) {
    const principal = token ? await authenticator.authenticate(token) : null;
    if (principal) return principal;
  }
  throw unauthorized();
}

/** Splits the CGI header block from the body of `git http-backend`'s output and streams the body on. */
function pipeCgi(ctx: AppContext, stdout: NodeJS.ReadableStream): Promise<void> {
  return new Promise((resolve, reject) => {
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      stdout.removeListener('data', onData);
      stdout.pause();
      for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
        const colon = line.indexOf(':');
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === 'status') ctx.status = Number(value.split(' ')[0]);
        else if (name) ctx.set(name, value);
      }
      const body = new PassThrough();
      body.write(head.subarray(end + 4));
      stdout.pipe(body);
      ctx.body = body;
      resolve();
    };
    stdout.on('data', onData);
    stdout.on('error', reject);
    stdout.on('end', () => resolve());
  });
}

/**
 * Git over HTTP at `/git/r/<organization slug>/<project slug>.git`: clone and fetch through `git http-backend` (smart
 * HTTP, streamed both ways, nothing buffered), HTTP Basic with an access token as the password, read access by the
 * authorization chain (`projects.<slug>.git.read`). Another organization's repository answers 404 like a missing
 * one. Push is refused with a message git shows to the user. Mounted before the body reader: packs are streamed.
 */
export function gitHttp(deps: GitHttpDeps) {
  return async (ctx: AppContext, next: Next): Promise<void> => {
    const match = GIT_PATH.exec(ctx.path);
    if (!match) return next();
    const [, orgSlug = '', projectSlug = '', rest = ''] = match;
    const service = serviceOf(ctx, rest);
    if (rest === '/git-receive-pack' || service === 'git-receive-pack') {
      ctx.status = 403;
      ctx.type = 'text/plain';
      ctx.body = PUSH_REFUSED;
      return;
    }
    const principal = await principalOf(ctx, deps.authenticators);
    if (!READ_PATHS.has(rest)) throw new NotFound('not found');
    const project = await deps.callerScope.projectOf(principal, orgSlug, projectSlug);
    if (!project || !(await deps.repositories.exists(project.organizationId, project.id))) {
      throw new NotFound('repository not found');
    }
    checkKeyAccess(principal, ctx.method, ctx.path, `/git/r/:org/:slug.git${rest}`);
    await deps.authorization.authorize(principal, `projects.${project.slug}.git.read`, ctx);
    const child = spawn('git', ['http-backend'], {
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        GIT_PROJECT_ROOT: deps.repositories.organizationRoot(project.organizationId),
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: `/${deps.repositories.nameOf(project.id)}${rest}`,
        REQUEST_METHOD: ctx.method,
        QUERY_STRING: service === null ? '' : `service=${service}`,
        CONTENT_TYPE: ctx.get('Content-Type'),
        HTTP_CONTENT_ENCODING: ctx.get('Content-Encoding'),
        GIT_PROTOCOL: ctx.get('Git-Protocol'),
        REMOTE_USER: principal.actor,
        REMOTE_ADDR: ctx.ip,
      },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    ctx.req.pipe(child.stdin);
    child.stdin.on('error', () => undefined);
    // A client that goes away mid-transfer stops the backend (the request stream closes early for GET, the response not).
    ctx.res.on('close', () => child.stdout.readableEnded || child.kill());
    await pipeCgi(ctx, child.stdout);
  };
}
