// The one error model of Skillyard: every code a program can see, with its HTTP status and
// meaning (docs/errors.md lists the same table; lib/errors.test.ts checks they agree), one
// base class that every coded error extends (RuntimeError, SandboxFailure, AgentError), and
// one mapping from any thrown value to what a boundary shows: a route, a server action,
// the CLI, MCP. This module imports nothing, so every layer may depend on it.

type Entry = { status: number; meaning: string };

export const ERROR_CODES = {
  // the request itself
  'input/invalid': { status: 400, meaning: 'The request (body, query or path) does not match what the endpoint takes.' },
  'input/invalid-json': { status: 400, meaning: 'The request body is not valid JSON.' },
  'input/too-large': { status: 413, meaning: 'The request body is larger than the endpoint accepts.' },
  'input/too-deep': { status: 400, meaning: 'The JSON body nests arrays and objects deeper than the limit.' },
  'input/nul-byte': { status: 400, meaning: 'A NUL character (U+0000) in the path, the query or a JSON string.' },
  'input/invalid-skill-ref': { status: 400, meaning: 'A skill reference that is not @scope/name or @scope/name@version.' },
  'input/private-needs-account': { status: 401, meaning: 'Private runs need a signed-in user or an API token.' },
  'input/invalid-username': { status: 400, meaning: 'Not a valid username (lowercase letters, digits, -; not reserved).' },
  'input/invalid-event-id': { status: 400, meaning: 'Last-Event-ID or ?after= is not an event number from 0 to 2^31-1.' },
  'input/invalid-tag': { status: 400, meaning: 'Not a dist-tag name, or a tag that cannot be removed (latest).' },
  'input/invalid-version': { status: 400, meaning: 'Not a semantic version.' },
  'input/invalid-range': { status: 400, meaning: 'Not a semver range.' },
  'input/provider-unavailable': { status: 400, meaning: 'The model provider the run asks for is not configured on this server.' },
  'rate/limited': { status: 429, meaning: 'Too many requests from this token, user or address; retry after the Retry-After header.' },
  'server/busy': { status: 503, meaning: 'The server is rendering as many pages as it can and its line of waiting pages is full; retry after the Retry-After header.' },
  // who is asking
  'auth/unauthenticated': { status: 401, meaning: 'The Authorization header is malformed, or the API token is unknown, revoked or expired.' },
  'account/username-exists': { status: 409, meaning: 'The username is taken (by a user or a team scope).' },
  'account/username-conflict': { status: 409, meaning: 'The account already has a username; it cannot be changed here.' },
  'account/last-owner': { status: 409, meaning: 'The account is the last owner of a team: make another member an owner or delete the team, then delete the account.' },
  'auth/forbidden': { status: 403, meaning: 'The caller is known but may not do this (missing API token scope, not the owner of the run).' },
  'auth/sign-in-required': { status: 403, meaning: "Anonymous visitors may not do this (the server's model keys past the anonymous quota): sign in." },
  'auth/device-code-not-found': { status: 404, meaning: 'The CLI login code is unknown or expired.' },
  'auth/device-code-used': { status: 409, meaning: 'The CLI login code was already confirmed.' },
  'auth/device-code-expired': { status: 400, meaning: 'The CLI login was denied, expired or already completed: run `skillyard login` again.' },
  'auth/sign-in-failed': { status: 502, meaning: 'The sign-in could not be started (the sign-in e-mail could not be sent); try again.' },
  // teams
  'team/not-found': { status: 404, meaning: 'No team with this name that the caller is a member of.' },
  'team/forbidden': { status: 403, meaning: "The caller's role in the team is below what the action takes." },
  'team/invalid-slug': { status: 400, meaning: 'Not a valid team name (2-39 lowercase letters, digits, single hyphens).' },
  'team/slug-taken': { status: 409, meaning: 'The team name is taken or reserved.' },
  'team/too-many': { status: 403, meaning: 'The account has created the most teams one account may (SKILLYARD_MAX_TEAMS_PER_ACCOUNT).' },
  'team/last-owner': { status: 409, meaning: 'A team must keep at least one owner.' },
  'team/member-not-found': { status: 404, meaning: 'That person is not a member of the team.' },
  'team/has-published-skills': { status: 409, meaning: 'The team still has public or unlisted skills; make them private or transfer them first.' },
  'team/secret-not-found': { status: 404, meaning: 'The team has no secret of this name.' },
  'team/connection-not-found': { status: 404, meaning: 'The team has no connection to this provider.' },
  'team/too-many-secrets': { status: 409, meaning: 'The team holds the most secrets it may.' },
  'team/token-not-found': { status: 404, meaning: 'No active team API token with this id.' },
  'invite/not-found': { status: 404, meaning: 'The invitation link is not valid.' },
  'invite/revoked': { status: 410, meaning: 'The invitation was withdrawn.' },
  'invite/used': { status: 410, meaning: 'The invitation was already used; invitations are single-use.' },
  'invite/expired': { status: 410, meaning: 'The invitation has expired.' },
  'invite/wrong-account': { status: 403, meaning: 'The invitation is addressed to another (verified) e-mail.' },
  // registry
  'skill/not-found': { status: 404, meaning: 'No skill with this @scope/name that the caller may see.' },
  'skill/version-not-found': { status: 404, meaning: 'The skill exists but not the asked version or dist-tag.' },
  'skill/tarball-not-found': { status: 404, meaning: 'The version has no stored tarball.' },
  'skill/file-not-found': { status: 404, meaning: 'The skill version has no file at this path.' },
  'skill/finding-not-found': { status: 404, meaning: 'The version has no scan finding with this rule, file and line.' },
  'publish/invalid-skill': { status: 400, meaning: 'The package has validation errors; `skillyard validate` lists them.' },
  'publish/name-not-ascii': { status: 400, meaning: 'The skill name is valid Agent Skills (lowercase letters of any script) but registry names are a-z, 0-9 and -.' },
  'publish/version-exists': { status: 409, meaning: 'This version number was published before; numbers are never reused, even after a yank or deletion.' },
  'publish/empty': { status: 400, meaning: 'The publish request has no body; send the package.' },
  'publish/no-skill': { status: 400, meaning: 'No skill was found in the upload.' },
  'publish/version-required': { status: 400, meaning: 'The package has no version; pass one or set it in the metadata.' },
  'publish/invalid-version': { status: 400, meaning: 'The version is not a semantic version like 1.2.3.' },
  'publish/invalid-tag': { status: 400, meaning: 'The dist-tag is not a tag name (letters, digits, -, ., _; not a version or range).' },
  'publish/version-yanked': { status: 409, meaning: 'The version is yanked; a dist-tag cannot point at it.' },
  'publish/blocked-by-scan': { status: 422, meaning: 'The scan found a secret in the package; nothing was published.' },
  'publish/forbidden': { status: 403, meaning: 'The scope is not yours (another user, or a team scope).' },
  'publish/no-scope': { status: 400, meaning: 'The account has no username (scope) yet.' },
  'publish/too-large': { status: 413, meaning: 'The upload or the package is over its byte limit.' },
  'publish/too-many-files': { status: 413, meaning: 'The package has more files than the limit.' },
  'publish/file-too-large': { status: 413, meaning: 'A file of the package is over the per-file limit.' },
  'publish/unsafe-path': { status: 400, meaning: 'A path in the archive leaves the package folder.' },
  'publish/symlink': { status: 400, meaning: 'The archive holds a symbolic link.' },
  'publish/bad-archive': { status: 400, meaning: 'The upload is not a readable .tar.gz, .tgz, .zip or single skill file.' },
  'publish/oidc-invalid-token': { status: 401, meaning: 'The CI token is not a valid OIDC token of its issuer for this registry (signature, audience, expiry).' },
  'publish/oidc-no-publisher': { status: 403, meaning: "The skill has no trusted publisher for the CI token's issuer, or its claims do not match one." },
  'publish/oidc-issuer-unreachable': { status: 502, meaning: "The issuer's discovery document or keys could not be read (or are not on a public https address)." },
  'publish/not-trusted-for-skill': { status: 403, meaning: 'A trusted publishing token publishes only the skill it was issued for.' },
  'publish/busy': { status: 503, meaning: 'The server is reading too many other uploads; retry after the Retry-After header.' },
  // playground runs
  'run/not-found': { status: 404, meaning: 'No run with this id that the caller may see.' },
  'run/removed': { status: 410, meaning: 'The run was removed by the retention policy (SKILLYARD_RUN_RETENTION_DAYS); its link says when.' },
  'run/not-manual': { status: 409, meaning: 'Only manual runs take turns from a person.' },
  'run/not-running': { status: 409, meaning: 'The run is not running (queued or finished), so it takes no turn now.' },
  'run/too-many-active': { status: 429, meaning: 'The caller (or all anonymous visitors together) has the most runs queued or running it may have.' },
  'run/turns-pending': { status: 429, meaning: 'The run has the most turns waiting to be taken that it may have; wait for it to take one.' },
  'run/worker-stopped': { status: 503, meaning: 'The worker running the run shut down before it ended, and the run could not be handed back (its tools had acted).' },
  'run/too-deep': { status: 422, meaning: 'Data of the run (a result, an event) nests deeper than the limit; the run failed.' },
  'run/unstorable': { status: 422, meaning: 'An event the log cannot store; the run failed visibly, without a gap in seq.' },
  'run/event-log-failed': { status: 500, meaning: 'The event log could not be written; the run failed.' },
  'run/input-timeout': { status: 408, meaning: 'A manual run waited for its next turn past the input deadline.' },
  'run/lock-lost': { status: 409, meaning: 'Another instance took the run over; this worker stopped writing to it.' },
  'run/worker-lost': { status: 503, meaning: "The run's worker stopped sending heartbeats; the run was failed by another instance." },
  'run/crashed': { status: 500, meaning: 'The run failed with an unexpected error (see the server log).' },
  'run/failed': { status: 500, meaning: 'The run failed.' },
  'run/pin-changed': { status: 409, meaning: 'A version the run was pinned to is not the stored version of that number any more.' },
  'run/fork-version': { status: 400, meaning: 'The fork asks to move a skill the run does not use, or to a version that does not exist.' },
  'run/compare-same': { status: 400, meaning: 'A comparison needs two different runs.' },
  'run/upgrade-busy': { status: 429, meaning: 'An upgrade check of this skill ran moments ago; wait before starting another.' },
  // the kernel (lib/runtime)
  'ref/invalid': { status: 400, meaning: 'A tool reference that cannot be parsed.' },
  'tool/not-found': { status: 404, meaning: 'No tool of this name that the caller may see.' },
  'tool/ambiguous': { status: 409, meaning: 'Several skills have a tool of this name; name the skill.' },
  'tool/hidden': { status: 404, meaning: 'The tool is hidden and may only be called by its own skill.' },
  'tool/not-allowed': { status: 403, meaning: 'The allowed-tools policy refuses this call.' },
  'tool/foreign-scope': { status: 403, meaning: "A tool called a tool of another publisher's scope; only its own scope's tools may be called from a tool." },
  'tool/failed': { status: 422, meaning: "The tool's handler threw; the message is the handler's." },
  'tool/no-handler': { status: 501, meaning: 'The tool has no handler this server can run.' },
  'token/missing': { status: 403, meaning: 'The tool needs a token (connection) the caller does not have.' },
  'token/expired': { status: 403, meaning: 'The token the tool needs has expired.' },
  'token/not-declared': { status: 403, meaning: 'The tool uses a token its skill does not declare.' },
  'token/foreign-issuer': { status: 403, meaning: "A skill tried to mint a token for another skill's issuer." },
  'token/reserved-issuer': { status: 403, meaning: 'A skill tried to mint a token for a reserved issuer.' },
  'token/not-found': { status: 404, meaning: "No API token with this id among the caller's own." },
  'token/invalid': { status: 400, meaning: 'A token that cannot be verified.' },
  'params/invalid': { status: 400, meaning: "The arguments do not match the tool's parameter schema." },
  'returns/invalid': { status: 502, meaning: "The tool's result does not match its returns schema." },
  'schema/invalid': { status: 500, meaning: "A skill's JSON Schema cannot be compiled." },
  'capability/not-declared': { status: 403, meaning: 'The handler used a capability its skill does not declare.' },
  'capability/denied': { status: 403, meaning: 'The capability refused this use (host, path or key not allowed).' },
  'capability/unavailable': { status: 501, meaning: 'The capability is not available on this server.' },
  'capability/invalid-args': { status: 400, meaning: 'A capability was called with invalid arguments.' },
  'net/host-not-allowed': { status: 403, meaning: 'The net capability refuses this host or address.' },
  'net/too-large': { status: 502, meaning: 'The fetched response is larger than the net limit.' },
  'net/timeout': { status: 504, meaning: 'The fetch did not finish in time.' },
  'net/failed': { status: 502, meaning: 'The fetch failed (DNS, connection, TLS).' },
  'storage/too-large': { status: 413, meaning: 'A storage value or key over its size limit.' },
  'storage/quota-exceeded': { status: 507, meaning: "A storage write over the principal's quota of rows or bytes." },
  'runtime/subprocess-disabled': { status: 501, meaning: 'Script handlers (subprocesses) are disabled on this server.' },
  'runtime/subprocess-failed': { status: 502, meaning: 'The script handler exited with an error.' },
  'runtime/timeout': { status: 504, meaning: 'The call did not finish within its deadline.' },
  'runtime/output-too-large': { status: 502, meaning: "The handler's output is larger than the limit." },
  'runtime/depth-exceeded': { status: 508, meaning: 'Tools calling tools nested deeper than the limit.' },
  'runtime/too-many-calls': { status: 429, meaning: 'One invocation made more tool calls than the limit.' },
  'runtime/unsupported-handler': { status: 501, meaning: 'A handler kind this runtime does not run.' },
  'runtime/file-not-found': { status: 500, meaning: "A file the skill's handler names is missing from the package." },
  'runtime/compile-error': { status: 422, meaning: "The skill's handler source does not compile." },
  // the sandbox (lib/sandbox)
  'sandbox/timeout': { status: 504, meaning: 'Guest code ran past its wall-clock limit.' },
  'sandbox/cpu-limit': { status: 504, meaning: 'Guest code used more CPU time than its limit.' },
  'sandbox/memory-limit': { status: 507, meaning: 'Guest code allocated more memory than its limit.' },
  'sandbox/result-too-large': { status: 502, meaning: "The guest's result is larger than the limit." },
  'sandbox/too-many-host-calls': { status: 429, meaning: 'Guest code made more host calls than its limit.' },
  'sandbox/compile-error': { status: 422, meaning: 'Guest code does not compile.' },
  'sandbox/no-entry': { status: 422, meaning: 'Guest code does not export the entry it is called by.' },
  'sandbox/guest-error': { status: 422, meaning: "Guest code threw; the message is the guest's." },
  'sandbox/host-error': { status: 500, meaning: "A host function the guest called failed on the server's side." },
  'sandbox/queue-full': { status: 503, meaning: 'The sandbox queue is full; retry later.' },
  'sandbox/worker-crashed': { status: 500, meaning: 'The sandbox worker process died while running the job.' },
  'sandbox/closed': { status: 503, meaning: 'The sandbox is shutting down.' },
  // the agent (lib/agent) and model providers
  'agent/config': { status: 400, meaning: 'The agent configuration is invalid (limits, script, provider).' },
  'agent/cancelled': { status: 409, meaning: 'The run was cancelled.' },
  'agent/max-turns': { status: 422, meaning: 'The agent used all its turns without finishing.' },
  'agent/max-steps': { status: 422, meaning: 'The agent used all its tool steps without finishing.' },
  'agent/ref-refused': { status: 403, meaning: 'The agent asked for a tool outside its skills.' },
  'agent/tool-unavailable': { status: 404, meaning: 'The agent called a tool that is not available to it.' },
  'agent/returns-invalid': { status: 422, meaning: "The agent's final answer does not match the returns schema." },
  'agent/no-middleware': { status: 500, meaning: 'The agent middleware is missing from the pipeline.' },
  'agent/hook-failed': { status: 500, meaning: 'An agent hook threw.' },
  'provider/http': { status: 502, meaning: 'The model provider answered with an error.' },
  'provider/rate-limited': { status: 503, meaning: 'The model provider rate-limits this server; retry later.' },
  'provider/network': { status: 502, meaning: 'The model provider cannot be reached.' },
  'provider/stream-interrupted': { status: 502, meaning: "The model provider's stream ended early." },
  'provider/bad-response': { status: 502, meaning: 'The model provider sent something that cannot be read.' },
  'provider/script-exhausted': { status: 422, meaning: 'The scripted provider has no more turns.' },
  'provider/aborted': { status: 409, meaning: 'The model request was cancelled.' },
  // local files (the CLI)
  'file/not-found': { status: 404, meaning: 'A file named on the command line (a signing key, a file to sign) does not exist.' },
  'file/unreadable': { status: 403, meaning: 'A file named on the command line exists but cannot be read (permissions, a folder).' },
  // the one catch-all
  internal: { status: 500, meaning: 'An unexpected error; the body carries a request id, the server log the details.' },
} as const satisfies Record<string, Entry>;

export type ErrorCode = keyof typeof ERROR_CODES;

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.prototype.hasOwnProperty.call(ERROR_CODES, code);
}

/** HTTP status of a code (500 for a code the table does not know). */
export function statusForCode(code: string): number {
  return isErrorCode(code) ? ERROR_CODES[code].status : 500;
}

/**
 * The one base class of every coded error: `code` is stable, `message` is for people, the
 * HTTP status always comes from the table (never passed in, so it cannot drift).
 */
export class AppError<C extends ErrorCode = ErrorCode> extends Error {
  readonly code: C;
  /** the HTTP status, from the table */
  readonly status: number;
  readonly details?: Record<string, unknown>;

  constructor(code: C, message: string, opts: { details?: Record<string, unknown>; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = statusForCode(code);
    if (opts.details) this.details = opts.details;
  }

  toJSON(): { code: C; message: string } {
    return { code: this.code, message: this.message };
  }
}

export function isAppError(err: unknown): err is AppError {
  return err instanceof AppError;
}

/** A failure as a boundary shows it. `expected` is false for anything that must be logged. */
export type MappedError = { status: number; code: ErrorCode; message: string; expected: boolean };

const INTERNAL_MESSAGE = 'Something went wrong on our side.';

function zodMessage(err: { issues: Array<{ message?: string; path?: PropertyKey[] }> }): string {
  const issue = err.issues[0];
  const where = issue?.path?.length ? ` at ${issue.path.map(String).join('.')}` : '';
  return `${issue?.message ?? 'invalid input'}${where}`;
}

/**
 * The one mapping from a thrown value to code, status and message. Coded errors (our
 * classes, or plain `{code, message}` values that crossed a process boundary) keep their
 * code; a Zod error is `input/invalid`; anything else is `internal`. Codes whose status is
 * 500 never show their message: it may hold internals (a SQL error, a path).
 */
export function mapError(err: unknown): MappedError {
  if (err && typeof err === 'object') {
    const e = err as { code?: unknown; message?: unknown; name?: unknown; issues?: unknown };
    if (isErrorCode(e.code)) {
      const status = ERROR_CODES[e.code].status;
      const message = typeof e.message === 'string' ? e.message : String(err);
      if (status === 500) return { status, code: e.code, message: INTERNAL_MESSAGE, expected: false };
      return { status, code: e.code, message, expected: true };
    }
    if (e.name === 'ZodError' && Array.isArray(e.issues)) {
      return { status: 400, code: 'input/invalid', message: zodMessage(e as never), expected: true };
    }
  }
  return { status: 500, code: 'internal', message: INTERNAL_MESSAGE, expected: false };
}

/** The `{error: {code, message, requestId?}}` body every boundary answers with. */
export function errorBody(mapped: MappedError, requestId?: string) {
  const message = !mapped.expected && requestId ? `${mapped.message} Quote request id ${requestId} when you report it.` : mapped.message;
  return { error: requestId && !mapped.expected ? { code: mapped.code, message, requestId } : { code: mapped.code, message } };
}

/** Process exit status for the CLI: 2 for a request it could not even make (bad reference or input), 1 for a failed call. */
export function exitCodeFor(code: string): number {
  return /^(input|ref)\//.test(code) ? 2 : 1;
}
