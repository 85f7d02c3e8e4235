// The server's messages are written for every client, so they name API routes ("log in again with
// POST /api/auth/login"). At a terminal the user types commands, not requests: each route the CLI
// has a command for is shown as that command. Keyed on the route (method and path template), not on
// the sentence around it, so a reworded server message still reads right and a new one that names
// a known route is covered too; a route with no command stays as the server wrote it.

const COMMAND_FOR_ROUTE: Record<string, string> = {
    'POST /api/auth/register': 'flowctl register',
    'POST /api/auth/verify-email': 'flowctl verify',
    'POST /api/auth/resend-otp': 'flowctl verify --resend',
    'POST /api/auth/login': 'flowctl login',
    'POST /api/auth/logout': 'flowctl logout',
    'POST /api/auth/password': 'flowctl set-password',
    'POST /api/auth/forgot-password': 'flowctl reset-password',
    'POST /api/auth/reset-password': 'flowctl reset-password --code <code>',
    'GET /api/auth/me': 'flowctl whoami',
    'PUT /api/account/settings': 'flowctl settings ai set',
    'POST /api/account/tokens': 'flowctl tokens create',
    'GET /api/account/tokens': 'flowctl tokens list',
    'DELETE /api/account/tokens/{id}': 'flowctl tokens revoke <tokenId>',
    'DELETE /api/account/tokens/{tokenId}': 'flowctl tokens revoke <tokenId>',
    'POST /api/uploads': 'flowctl upload <file.csv>',
    'GET /api/uploads': 'flowctl uploads list',
    'GET /api/workflows': 'flowctl workflows list',
    'GET /api/workflows/{workflowId}': 'flowctl workflows get <workflowId>',
    'GET /api/workflows/{workflowId}/revisions': 'flowctl workflows history <workflowId>',
    'POST /api/workflows': 'flowctl apply -f <file.yaml>',
    'GET /api/integrations/google': 'flowctl google status',
    'GET /api/integrations/google/connect': 'flowctl google connect',
    'DELETE /api/integrations/google': 'flowctl google disconnect',
    'GET /api/workflows/{workflowId}/runs': 'flowctl runs list <workflowId>',
    'GET /api/runs': 'flowctl runs list',
    'GET /api/workflows/runs/{runId}/deliveries': 'flowctl runs deliveries <runId>',
    'POST /api/workflows/{workflowId}/preview': 'flowctl preview <workflowId>',
    'POST /api/workflows/{workflowId}/revisions/{revision}/restore': 'flowctl workflows rollback <workflowId> --to <revision>',
    'POST /api/workflows/{workflowId}/hook/rotate': 'flowctl workflows rotate-hook <workflowId>',
    'GET /api/suppressions': 'flowctl suppressions list',
    'POST /api/suppressions': 'flowctl suppressions add <email>',
    'DELETE /api/suppressions/{email}': 'flowctl suppressions rm <email>',
    'GET /api/workflows/runs/{runId}': 'flowctl runs get <runId>',
    'POST /api/workflows/runs/{runId}/cancel': 'flowctl runs cancel <runId>',
    'POST /api/workflows/runs/{runId}/retry': 'flowctl runs retry <runId>'
};

const escapeRegExp = (text: string): string => text.replace(/[.*+?^$()|[\]\\]/g, '\\$&');

/** Each route as a pattern: a `{param}` matches one path segment, whose value fills the command's `<param>`. */
const COMMANDS = Object.entries(COMMAND_FOR_ROUTE).map(([route, command]) => ({
    pattern: new RegExp(`^${route.split(/\{[^}]+\}/).map(escapeRegExp).join('([^/]+)')}$`),
    command
}));

/** A concrete value, not a placeholder of the server's source (`{id}`, `${run.id}`). */
const concrete = (value: string | undefined): value is string => value !== undefined && !/[{}]/.test(value);

const commandFor = (route: string, flags: string[]): string | null => {
    for (const { pattern, command } of COMMANDS) {
        const match = pattern.exec(route);
        if (match) {
            const value = match[1];
            return [concrete(value) ? command.replace(/<[^>]+>/, value) : command, ...flags].join(' ');
        }
    }

    return null;
};

const ROUTE = /\b(GET|POST|PUT|PATCH|DELETE) (\/api\/[^\s,;:()'"`]*[^\s,;:()'"`.])/g;

/** `text` with every API route the CLI has a command for replaced by that command (with `flags`), in backticks. */
export const cliWording = (text: string, flags: string[] = []): string =>
    text.replace(ROUTE, (route: string) => {
        const command = commandFor(route, flags);
        return command ? `\`${command}\`` : route;
    });
