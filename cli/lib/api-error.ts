/** Exit codes of every command (docs/cli.md). */
export const EXIT = {
  ok: 0,
  /** The server refused the request, or what was waited for ended badly (Failed, Rejected, ...). */
  failed: 1,
  usage: 2,
  /** `--wait` reached `--timeout` before an end. */
  timeout: 3,
  /** Not signed in, or the credentials expired or were revoked. */
  auth: 4,
  /** `compare --exit-code` found differences (as `git diff --exit-code` and `argocd app diff` tell a pipeline). */
  differences: 5,
  /** The command was accepted but changed nothing (a bulk update whose every pair is pinned). */
  nothingDone: 6,
  /** A destructive or production-affecting action was not confirmed: no --yes without a terminal, or answered no. */
  notConfirmed: 7,
} as const;

/** A failure with the message the user sees and the process's exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.failed,
  ) {
    super(message);
  }
}

/** An HTTP error answer of the platform: `{"error": "..."}` with its status (and what was answered beside it). */
export class ApiError extends CliError {
  constructor(
    readonly status: number,
    message: string,
    readonly body: Record<string, unknown> = {},
  ) {
    super(`${message} (HTTP ${status})`, status === 401 ? EXIT.auth : EXIT.failed);
  }
}
