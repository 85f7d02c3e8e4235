// Generated from the server's /openapi.json by `npm run generate -w @flowctl/sdk`. Do not edit:
// a test fails when this file differs from what the running server describes.

export interface paths {
    "/api/account/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account settings (the AI API key only as set or not, and its last four characters) */
        get: operations["getAccountSettings"];
        /**
         * Change account settings
         * @description Fields left out keep their value; null clears one. Answers with the settings as GET shows them.
         */
        put: operations["putAccountSettings"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/account/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's personal API tokens, newest first (never their secrets) */
        get: operations["getAccountTokens"];
        put?: never;
        /**
         * Create a personal API token for programs and CI
         * @description The answer carries the token once; only its hash is stored. It is accepted as `Authorization: Bearer` wherever an access token is, until it expires (90 days unless `expiresInDays` says otherwise, at most 365) or is revoked; a password change that signs out the session creating it revokes it too. Needs an access token from a sign-in of the last 10 minutes, or the password again as `password` (403 otherwise); an API token cannot create others (403). At most 50 per account (409).
         */
        post: operations["postAccountTokens"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/account/tokens/{tokenId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke a personal API token
         * @description Takes effect at once, in every API process.
         */
        delete: operations["deleteAccountTokensByTokenId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/forgot-password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * E-mail a six-digit code to reset the password
         * @description Always 202 with the same message, whether or not the address has a verified account. At most one code a minute is sent.
         */
        post: operations["postAuthForgotPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Log in with e-mail address and password
         * @description A wrong password and an unknown address both answer 401 with the same message; an unverified account answers 403.
         */
        post: operations["postAuthLogin"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign out: revoke the session the refresh token belongs to
         * @description Every refresh token descended from the same log-in stops working; access tokens already issued expire on their own within 15 minutes. An unknown or already revoked token answers 204 too.
         */
        post: operations["postAuthLogout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account the access token belongs to */
        get: operations["getAuthMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Set the account’s password; signs every other session out
         * @description Needs an access token from a sign-in (log-in or verify-email) of the last 10 minutes, or the current password as `password` (403 otherwise); an API token cannot (403). The way to get a password after a contested sign-up (verify-email answered `passwordSetupRequired: true`).
         *
         *     Every other session is signed out (its access and refresh tokens answer 401), and the personal API tokens those sessions created are revoked with them: `revokedApiTokens`. This session stays, with its own tokens. Tokens created by sessions that had already ended, or before the server recorded which session created a token, are kept: `apiTokens` lists every token still working, to revoke any not recognised with DELETE /api/account/tokens/{id}.
         */
        post: operations["postAuthPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/refresh-token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Exchange a refresh token for a new access token and a new refresh token
         * @description Refresh tokens last 30 days and work once. Presenting one that was already used signs that session out (every token descended from the same log-in) and answers 401.
         */
        post: operations["postAuthRefreshToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create an account and e-mail a six-digit verification code
         * @description Always 201 with the same message, whether the address is unknown, awaiting verification or verified (a verified address is e-mailed how to log in or reset its password instead of a code).
         *
         *     Each registration of an unverified address is a sign-up of its own: its code activates only the password and name given with it, never those of another registration of the same address.
         */
        post: operations["postAuthRegister"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/resend-otp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * E-mail a new verification code
         * @description Always 202 with the same message, whether or not the address has an account, so it cannot be used to find accounts. At most one code a minute per address: within a minute of the last resend or registration of the address, 429 with Retry-After (the seconds to wait), for every address alike. When several sign-ups of the address are pending, no code is sent, only a note to register again.
         */
        post: operations["postAuthResendOtp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/reset-password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Set a new password with the e-mailed reset code; signs every session out
         * @description A code lasts 10 minutes, allows 5 wrong tries and works once. Every refresh token of the account is revoked; log in again with the new password. Every wrong case answers the same 400.
         */
        post: operations["postAuthResetPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/verify-email": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Confirm the e-mailed code; activates the account and returns tokens
         * @description A code lasts 10 minutes and allows 5 wrong tries; after that, request a new one with POST /api/auth/resend-otp. Every wrong case (unknown address, wrong, expired or used-up code, address already verified) answers the same 400.
         *
         *     When more than one sign-up of the address was pending, no password or name given at sign-up is kept (any of them may be a stranger’s; the account is named after its address): the answer says `passwordSetupRequired: true`, and the account needs POST /api/auth/password (with these tokens) or a password reset before a password log-in works.
         */
        post: operations["postAuthVerifyEmail"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/hooks/{hookId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a run of a workflow with rows: its TRIGGER outputs them as {{<trigger id>.rows}} and .count
         * @description No sign-in: the hook URL is the secret (shown when the hook is made, and by POST /api/workflows/{workflowId}/hook/rotate).
         *
         *     The body: a JSON array of objects, {"rows": [...]}, or a CSV file (Content-Type: text/csv) checked as uploads are; at most 10 MiB (MAX_HOOK_BYTES). Values are typed as CSV cells are. Every row posted is a row: one whose values are all empty or null, a key that is empty, a NUL character or a lone surrogate is a 400 naming the row. No body: no rows.
         *
         *     Requests to one hook are limited to 120 per 60 s (RATE_LIMIT_PER_HOOK), apart from the account's own budget.
         *
         *     An unknown or rotated hook answers 404; a paused workflow 409. Send an Idempotency-Key so that a retry starts one run.
         */
        post: operations["postHooksByHookId"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/integrations/google": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Unlink the Google account: revokes its token at Google (best effort) and forgets it */
        delete: operations["deleteIntegrationsGoogle"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/integrations/google/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Where Google sends the browser back after consent; answers a small HTML page */
        get: operations["getIntegrationsGoogleCallback"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/integrations/google/connect": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Start linking a Google account: redirects to Google's consent page
         * @description Meant for a browser, so the access token (or a personal API token) may come as ?access_token= instead of the Authorization header.
         *
         *     With ?format=json the answer is 200 {url} instead of the redirect, for clients that open the browser themselves.
         *
         *     The state in the address is signed, bound to the account, works once and expires in 10 minutes.
         */
        get: operations["getIntegrationsGoogleConnect"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/integrations/google/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether a Google account is linked, and which */
        get: operations["getIntegrationsGoogleStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The account's recent runs across its workflows, newest first
         * @description 50 per page by default, at most 500. The next page's address is in the Link header (rel="next").
         *
         *     One workflow's runs: GET /api/workflows/{workflowId}/runs. A run with its nodes: GET /api/workflows/runs/{runId}.
         */
        get: operations["getRuns"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/suppressions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The account's suppression list, newest first: addresses no OUTPUT node mails
         * @description 50 per page by default, at most 500. The next page's address is in the Link header (rel="next").
         */
        get: operations["getSuppressions"];
        put?: never;
        /**
         * Add addresses to the suppression list (reason manual)
         * @description All or nothing: one address that is not an e-mail address answers 400 listing each (details[].path emails[i]) and adds none. An address already on the list keeps its reason and date, and is counted in alreadyPresent.
         */
        post: operations["postSuppressions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/suppressions/{email}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove an address from the suppression list: OUTPUT nodes mail it again
         * @description The address is compared trimmed and case-insensitively. 404 when it is not on the list.
         */
        delete: operations["deleteSuppressionsByEmail"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/uploads": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List uploads, newest first
         * @description 50 per page by default, at most 500. The next page's address is in the Link header (rel="next").
         *
         *     With `sha256`, only uploads of those bytes: how a client asks whether the server already has a file without sending it.
         */
        get: operations["getUploads"];
        put?: never;
        /**
         * Upload a CSV file
         * @description multipart/form-data with the file in a field named 'file'. The file must be UTF-8 with a header row of unique, non-empty column names, and the same number of fields on every row.
         *
         *     It is checked while it streams in; on any problem nothing is kept. At most 50 MiB.
         *
         *     The same bytes under the same name as an upload the account already has answer 200 with that upload (its `uploadId`), and keep no second copy: applying unchanged files from a fresh machine creates nothing. A new upload answers 201. A deleted upload is not matched.
         *
         *     The file's name (the part's `filename`, or `filename*`) is kept without any folder path, up to 255 characters. A name with a control character (ESC, CSI, BEL, a line break, tab), a bidi control (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C) or another invisible format character (zero-width space, soft hyphen, BOM…) is refused with 400: it would show as another name. ZWNJ and ZWJ are kept. Names stored by earlier versions with such characters are shown with each one written as `<U+202E>`.
         */
        post: operations["postUploads"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/uploads/{uploadId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One upload’s metadata */
        get: operations["getUploadsByUploadId"];
        put?: never;
        post?: never;
        /**
         * Delete an upload and its bytes
         * @description Answers 409, naming them, while workflows of the account or runs not yet finished read the upload: they would otherwise fail later.
         */
        delete: operations["deleteUploadsByUploadId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List workflows, newest first
         * @description 50 per page by default, at most 500. The next page's address is in the Link header (rel="next").
         */
        get: operations["getWorkflows"];
        put?: never;
        /**
         * Create a workflow
         * @description The graph is validated and every problem is reported at once in details, each with its path. At most 500 nodes and 5000 edges. Send an Idempotency-Key to retry safely: a repeat gets the first answer and creates nothing.
         */
        post: operations["postWorkflows"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows/{workflowId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One workflow
         * @description ETag is "r<revision>.<digest>" (it changes with anything in the answer, so If-None-Match revalidates): send it as If-Match with a PATCH to be refused (412) should the workflow change meanwhile.
         */
        get: operations["getWorkflowsByWorkflowId"];
        put?: never;
        post?: never;
        /**
         * Delete a workflow and all its runs
         * @description Cancels its PENDING and RUNNING runs first and waits up to 5 s for a running one to stop; 409 names a run that did not.
         */
        delete: operations["deleteWorkflowsByWorkflowId"];
        options?: never;
        head?: never;
        /**
         * Change a workflow’s name, graph or webhook, or pause and resume it
         * @description Keys left out keep their value. A new graph is validated like on create. A change of name or graph makes the next revision; one that changes neither (webhookUrl, paused) makes none. With If-Match (the ETag of GET, or "r<revision>"), 412 when its name or graph has changed since, and nothing is written. Runs already enqueued keep the revision they were enqueued with.
         */
        patch: operations["patchWorkflowsByWorkflowId"];
        trace?: never;
    };
    "/api/workflows/{workflowId}/hook/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replace a workflow's hook URL
         * @description The old URL answers 404 at once, in every process. 409 when the TRIGGER has no webhook: true.
         */
        post: operations["postWorkflowsByWorkflowIdHookRotate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows/{workflowId}/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Preview what a run would send now
         * @description Executes the graph as a run would, sending nothing and recording no run: the first `limit` e-mails per OUTPUT node, every node’s state and output, and the counts. A node that fails answers 200 with its error; an invalid `graph` answers 400 like create. AI nodes ask the model only for the elements the shown e-mails need; a run enqueued later reuses those replies. One preview at a time per account (429 with Retry-After).
         */
        post: operations["postWorkflowsByWorkflowIdPreview"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows/{workflowId}/revisions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A workflow's revisions, newest first
         * @description 50 per page by default, at most 500. The next page's address is in the Link header (rel="next"). Revision 1 is the workflow as created; each change of name or graph made the next. Kept: every revision a run names (as long as the run), and the newest 100.
         */
        get: operations["getWorkflowsByWorkflowIdRevisions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows/{workflowId}/revisions/{revision}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One revision of a workflow: its name and graph then */
        get: operations["getWorkflowsByWorkflowIdRevisionsByRevision"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows/{workflowId}/revisions/{revision}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Make a workflow what it was at a revision
         * @description The name and graph of that revision become a new revision, checked like a PATCH (an upload it reads may have been deleted since); the answer is the workflow, as GET gives it. Restoring the current revision changes nothing. If-Match as for PATCH.
         */
        post: operations["postWorkflowsByWorkflowIdRevisionsByRevisionRestore"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows/{workflowId}/run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Enqueue a run
         * @description Answers 202 at once: the run waits PENDING until no other run of the workflow executes, in enqueue order. It keeps the graph as it is now. Send an Idempotency-Key to retry safely: a repeat gets the first answer and enqueues nothing (422 if the key was used for another request; 409 while the first is still being answered).
         */
        post: operations["postWorkflowsByWorkflowIdRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows/{workflowId}/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the runs of a workflow
         * @description Most recent first (order=asc for oldest first), 50 per page by default, at most 500. The next page's address is in the Link header (rel="next").
         */
        get: operations["getWorkflowsByWorkflowIdRuns"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows/{workflowId}/webhook-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The workflow's webhook signing secret
         * @description Webhook requests carry X-Flowctl-Signature: sha256=<hex HMAC-SHA256 of the raw body with this secret>. Created on first use.
         */
        get: operations["getWorkflowsByWorkflowIdWebhookSecret"];
        put?: never;
        /**
         * Replace the workflow's webhook signing secret
         * @description Deliveries still queued are signed with the new secret.
         */
        post: operations["postWorkflowsByWorkflowIdWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows/runs/{runId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A run with its nodes
         * @description Poll from 1–2 s after enqueueing, backing off from 2 s to 30 s. Node outputs are summaries; page through one with …/nodes/{nodeId}/output.
         *
         *     Cheaper watching: every answer has a strong ETag; send it back as If-None-Match to get 304 Not Modified while nothing changed. Add `Prefer: wait=N` (N ≤ 30) and the request is held until the run or one of its nodes changes or N seconds pass (answered with `Preference-Applied: wait=N`); a finished run is answered at once.
         */
        get: operations["getWorkflowsRunsByRunId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows/runs/{runId}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a run
         * @description A PENDING run is CANCELLED at once (200). A RUNNING run stops at its next element boundary, its remaining nodes SKIPPED, and ends CANCELLED (202: poll it). A finished run answers 409.
         */
        post: operations["postWorkflowsRunsByRunIdCancel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows/runs/{runId}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Who got what: one entry per element of each OUTPUT node
         * @description Read from the run's delivery records, not from logs: answers whether an address got its e-mail after a failed mail server, a crash or a retry. In OUTPUT node (graph order) and element order.
         *
         *     status: sent (accepted by the mail server); failed (refused, or not sendable: a bad address, a field the row lacks; error says why); unknown (handed to the mail server and no answer recorded: under way while the run runs; after it ended, it may have arrived, as counted in unknownOutcome, and no retry sends it); pending (no record: not reached yet, or never, as the run stopped first; to is null); suppressed (the address is on the suppression list).
         *
         *     Pending elements are listed once the OUTPUT node has started. A retry run lists the e-mails it sent again; the run it retries keeps its own records.
         *
         *     50 per page by default, at most 500. The next page's address is in the Link header (rel="next").
         */
        get: operations["getWorkflowsRunsByRunIdDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows/runs/{runId}/nodes/{nodeId}/output": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Page through one node's whole output
         * @description A DATA_SOURCE's rows and a FILTER's items are read again from the run's upload for each page (a Drive file as it is now): two such pages at a time per server and one per account (429 with Retry-After while another of the account's is read or waits): a page past those waits its turn, accounts taking turns (503 with Retry-After only when 100 accounts wait). A page within the first elements the run detail holds is answered from them. Other outputs are kept whole when small; of a larger one only the elements the run detail shows are kept, and a page past them answers 409.
         */
        get: operations["getWorkflowsRunsByRunIdNodesByNodeIdOutput"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows/runs/{runId}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Retry a finished run
         * @description Enqueues a new run (202, like an enqueue) whose retryOf names the given run. It executes the given run's revision, not the workflow as it is now (a prompt changed since applies to new runs only), unless the body is {"revision": "latest"}: then the current revision.
         *
         *     A run that ended FAILED or CANCELLED before each of its nodes other than OUTPUT succeeded (an AI node answered 401, refused past AI_RETRY_BUDGET_MS, a reply invalid twice, a cancel mid-node; a DATA_SOURCE that failed), or that was given up after repeated interruptions: the retry executes the graph again. Outputs the run kept are reused; an AI node asks the model only for elements without a reply recorded for that run under the same node, element index and hash of the rendered request (model, system, prompt, schema: a changed row is asked again), and those reused replies count no aiCalls; OUTPUT nodes send each row that no run of its chain of retries sent or may have sent, refused ones included.
         *
         *     Any other finished run (it failed or was cancelled at its OUTPUT nodes): the retry sends again, exactly as they were rendered, the e-mails the mail server refused in it and that no retry has delivered since; nothing else is executed. Rows with an invalid address are not retried.
         *
         *     Either way a row whose outcome is unknown is not sent: left under way by a worker that died, or sent again after such a copy (counted in possiblyDuplicated), even if the server refused the later copy, since the first may have arrived and the retry's own Message-ID would not let a receiver drop it. Each OUTPUT node's output counts such rows as unknownOutcome.
         *
         *     So nobody who got an e-mail gets it twice. 409 when the run has not ended, or is of the second kind with no such e-mail (a run that succeeded, say); its message says how many rows were left out as their outcome is unknown.
         */
        post: operations["postWorkflowsRunsByRunIdRetry"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The process is up */
        get: operations["getHealthz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Prometheus metrics: process, HTTP requests by route template, and the run worker */
        get: operations["getMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This API as an OpenAPI 3.0 document, generated from the route schemas */
        get: operations["getOpenapiJson"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The store answers */
        get: operations["getReadyz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/u/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The unsubscribe page of an e-mail: the address (masked), the sender, and one button
         * @description Changes nothing: only the POST unsubscribes. 404 for a link this server did not make (or changed), or whose account is gone.
         */
        get: operations["getUByToken"];
        put?: never;
        /**
         * Unsubscribe: adds the e-mail's address to its account's suppression list (RFC 8058 one-click)
         * @description Body `List-Unsubscribe=One-Click` (any content type) or empty; at most 1024 bytes (413). 200 also when the address was already suppressed; 404 for a link this server did not make (or changed), or whose account is gone; 400 for another body.
         */
        post: operations["postUByToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Error: {
            details?: {
                message?: string;
                path?: string;
            }[];
            error: string;
            message: string;
            statusCode: number;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getAccountSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        ai: {
                            /** @description Last four characters of the key; null when unset or shorter than 12 characters */
                            apiKeyLast4: string | null;
                            apiKeySet: boolean;
                            baseUrl: string | null;
                            /** @description Model calls in flight per AI node at most; null: the server's AI_CONCURRENCY */
                            concurrency: number | null;
                            /**
                             * @description Whose key AI nodes use: the account's, the server's own (its OPENAI_API_KEY, when the account set none), or none (AI nodes fail)
                             * @enum {string}
                             */
                            keyInUse: "account" | "server" | "none";
                            model: string | null;
                        };
                    };
                };
            };
            /** @description Invalid input: `message` says what to fix, `details` lists each field */
            400: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired access token */
            401: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited: retry after the `Retry-After` header’s seconds */
            429: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unavailable for a moment (the store or the mail server): retry later */
            503: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putAccountSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    ai?: {
                        /** @description Write-only; stored encrypted. null removes it. */
                        apiKey?: string | null;
                        /**
                         * Format: uri
                         * @description An OpenAI-compatible endpoint, e.g. https://api.openai.com/v1. null: the server default.
                         */
                        baseUrl?: string | null;
                        /** @description Fewer model calls in flight per AI node than the server's AI_CONCURRENCY (a higher value has no effect). null: the server's. */
                        concurrency?: number | null;
                        /** @description null: the server default. */
                        model?: string | null;
                    };
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        ai: {
                            /** @description Last four characters of the key; null when unset or shorter than 12 characters */
                            apiKeyLast4: string | null;
                            apiKeySet: boolean;
                            baseUrl: string | null;
                            /** @description Model calls in flight per AI node at most; null: the server's AI_CONCURRENCY */
                            concurrency: number | null;
                            /**
                             * @description Whose key AI nodes use: the account's, the server's own (its OPENAI_API_KEY, when the account set none), or none (AI nodes fail)
                             * @enum {string}
                             */
                            keyInUse: "account" | "server" | "none";
                            model: string | null;
                        };
                    };
                };
            };
            /** @description Invalid input: `message` says what to fix, `details` lists each field */
            400: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired access token */
            401: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body stopped arriving */
            408: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body is too large */
            413: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported Content-Type */
            415: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited: retry after the `Retry-After` header’s seconds */
            429: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unavailable for a moment (the store or the mail server): retry later */
            503: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAccountTokens: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        createdAt: string;
                        /**
                         * Format: date-time
                         * @description null only for tokens made before expiries were required
                         */
                        expiresAt: string | null;
                        id: string;
                        /**
                         * Format: date-time
                         * @description Updated at most once a minute
                         */
                        lastUsedAt: string | null;
                        name: string;
                        /** @description The first characters of the token, to tell tokens apart */
                        prefix: string;
                    }[];
                };
            };
            /** @description Invalid input: `message` says what to fix, `details` lists each field */
            400: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired access token */
            401: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited: retry after the `Retry-After` header’s seconds */
            429: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unavailable for a moment (the store or the mail server): retry later */
            503: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAccountTokens: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description Days until the token expires (default 90, at most 365)
                     * @default 90
                     */
                    expiresInDays?: number;
                    /** @description What the token is for, e.g. "CI deploys" */
                    name: string;
                    /** @description The account's password, needed when the session signed in more than 10 minutes ago (instead of logging in again) */
                    password?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        createdAt: string;
                        /**
                         * Format: date-time
                         * @description null only for tokens made before expiries were required
                         */
                        expiresAt: string | null;
                        id: string;
                        /**
                         * Format: date-time
                         * @description Updated at most once a minute
                         */
                        lastUsedAt: string | null;
                        name: string;
                        /** @description The first characters of the token, to tell tokens apart */
                        prefix: string;
                        /** @description The secret, shown this once: send it as `Authorization: Bearer flc_…` */
                        token: string;
                    };
                };
            };
            /** @description Invalid input: `message` says what to fix, `details` lists each field */
            400: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired access token */
            401: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body stopped arriving */
            408: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state: `message` says which */
            409: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body is too large */
            413: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported Content-Type */
            415: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited: retry after the `Retry-After` header’s seconds */
            429: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unavailable for a moment (the store or the mail server): retry later */
            503: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteAccountTokensByTokenId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tokenId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no content */
            204: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input: `message` says what to fix, `details` lists each field */
            400: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired access token */
            401: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body stopped arriving */
            408: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body is too large */
            413: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited: retry after the `Retry-After` header’s seconds */
            429: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unavailable for a moment (the store or the mail server): retry later */
            503: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthForgotPassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: email
                     * @description The account’s e-mail address (case-insensitive)
                     */
                    email: string;
                };
            };
        };
        responses: {
            /** @description Success */
            202: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                    };
                };
            };
            /** @description Invalid input: `message` says what to fix, `details` lists each field */
            400: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body stopped arriving */
            408: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body is too large */
            413: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported Content-Type */
            415: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited: retry after the `Retry-After` header’s seconds */
            429: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unavailable for a moment (the store or the mail server): retry later */
            503: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthLogin: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: email
                     * @description The account’s e-mail address (case-insensitive)
                     */
                    email: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description JWT for `Authorization: Bearer …` */
                        accessToken: string;
                        /** @description Seconds until the access token expires */
                        expiresIn: number;
                        /** @description Works once: exchange it at POST /api/auth/refresh-token for a new pair */
                        refreshToken: string;
                    };
                };
            };
            /** @description Invalid input: `message` says what to fix, `details` lists each field */
            400: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired access token */
            401: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body stopped arriving */
            408: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body is too large */
            413: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported Content-Type */
            415: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited: retry after the `Retry-After` header’s seconds */
            429: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unavailable for a moment (the store or the mail server): retry later */
            503: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthLogout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The refresh token from log-in, verify-email or the previous refresh */
                    refreshToken: string;
                };
            };
        };
        responses: {
            /** @description Done; no content */
            204: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input: `message` says what to fix, `details` lists each field */
            400: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body stopped arriving */
            408: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body is too large */
            413: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported Content-Type */
            415: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited: retry after the `Retry-After` header’s seconds */
            429: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unavailable for a moment (the store or the mail server): retry later */
            503: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAuthMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        createdAt: string;
                        email: string;
                        fullName: string;
                        id: string;
                    };
                };
            };
            /** @description Invalid input: `message` says what to fix, `details` lists each field */
            400: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired access token */
            401: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited: retry after the `Retry-After` header’s seconds */
            429: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unavailable for a moment (the store or the mail server): retry later */
            503: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthPassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    newPassword: string;
                    /** @description The current password, when the sign-in is older than 10 minutes */
                    password?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Every personal API token still working, newest first */
                        apiTokens: {
                            /** Format: date-time */
                            createdAt: string;
                            /**
                             * Format: date-time
                             * @description null only for tokens made before expiries were required
                             */
                            expiresAt: string | null;
                            id: string;
                            /**
                             * Format: date-time
                             * @description Updated at most once a minute
                             */
                            lastUsedAt: string | null;
                            name: string;
                            /** @description The first characters of the token, to tell tokens apart */
                            prefix: string;
                        }[];
                        /** @description Personal API tokens created by the sessions this signed out: revoked with them */
                        revokedApiTokens: {
                            /** Format: date-time */
                            createdAt: string;
                            /**
                             * Format: date-time
                             * @description null only for tokens made before expiries were required
                             */
                            expiresAt: string | null;
                            id: string;
                            /**
                             * Format: date-time
                             * @description Updated at most once a minute
                             */
                            lastUsedAt: string | null;
                            name: string;
                            /** @description The first characters of the token, to tell tokens apart */
                            prefix: string;
                        }[];
                    };
                };
            };
            /** @description Invalid input: `message` says what to fix, `details` lists each field */
            400: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired access token */
            401: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body stopped arriving */
            408: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body is too large */
            413: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported Content-Type */
            415: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited: retry after the `Retry-After` header’s seconds */
            429: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unavailable for a moment (the store or the mail server): retry later */
            503: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthRefreshToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The refresh token from log-in, verify-email or the previous refresh */
                    refreshToken: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description JWT for `Authorization: Bearer …` */
                        accessToken: string;
                        /** @description Seconds until the access token expires */
                        expiresIn: number;
                        /** @description Works once: exchange it at POST /api/auth/refresh-token for a new pair */
                        refreshToken: string;
                    };
                };
            };
            /** @description Invalid input: `message` says what to fix, `details` lists each field */
            400: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired access token */
            401: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body stopped arriving */
            408: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body is too large */
            413: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported Content-Type */
            415: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited: retry after the `Retry-After` header’s seconds */
            429: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unavailable for a moment (the store or the mail server): retry later */
            503: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthRegister: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: email
                     * @description The account’s e-mail address (case-insensitive)
                     */
                    email: string;
                    fullName: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                    };
                };
            };
            /** @description Invalid input: `message` says what to fix, `details` lists each field */
            400: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body stopped arriving */
            408: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body is too large */
            413: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported Content-Type */
            415: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited: retry after the `Retry-After` header’s seconds */
            429: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unavailable for a moment (the store or the mail server): retry later */
            503: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthResendOtp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: email
                     * @description The account’s e-mail address (case-insensitive)
                     */
                    email: string;
                };
            };
        };
        responses: {
            /** @description Success */
            202: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                    };
                };
            };
            /** @description Invalid input: `message` says what to fix, `details` lists each field */
            400: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body stopped arriving */
            408: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body is too large */
            413: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported Content-Type */
            415: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited: retry after the `Retry-After` header’s seconds */
            429: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unavailable for a moment (the store or the mail server): retry later */
            503: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthResetPassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: email
                     * @description The account’s e-mail address (case-insensitive)
                     */
                    email: string;
                    newPassword: string;
                    /** @description The six-digit code from the password reset e-mail */
                    otp: string;
                };
            };
        };
        responses: {
            /** @description Done; no content */
            204: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input: `message` says what to fix, `details` lists each field */
            400: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body stopped arriving */
            408: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body is too large */
            413: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported Content-Type */
            415: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited: retry after the `Retry-After` header’s seconds */
            429: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unavailable for a moment (the store or the mail server): retry later */
            503: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthVerifyEmail: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: email
                     * @description The account’s e-mail address (case-insensitive)
                     */
                    email: string;
                    /** @description The six-digit code from the e-mail */
                    otp: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description JWT for `Authorization: Bearer …` */
                        accessToken: string;
                        /** @description Seconds until the access token expires */
                        expiresIn: number;
                        /** @description true when more than one sign-up of the address was pending: none of their passwords was kept, so set one with POST /api/auth/password before logging in with a password */
                        passwordSetupRequired: boolean;
                        /** @description Works once: exchange it at POST /api/auth/refresh-token for a new pair */
                        refreshToken: string;
                    };
                };
            };
            /** @description Invalid input: `message` says what to fix, `details` lists each field */
            400: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body stopped arriving */
            408: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state: `message` says which */
            409: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body is too large */
            413: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported Content-Type */
            415: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited: retry after the `Retry-After` header’s seconds */
            429: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unavailable for a moment (the store or the mail server): retry later */
            503: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postHooksByHookId: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any unique string (e.g. a UUID). A retry with the same key within 24 hours gets the first answer, with Idempotent-Replayed: true, instead of running again. */
                "idempotency-key"?: string;
            };
            path: {
                hookId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            202: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        runId: string;
                        /** @enum {string} */
                        status: "PENDING";
                    };
                };
            };
            /** @description Invalid input: `message` says what to fix, `details` lists each field */
            400: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body stopped arriving */
            408: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state: `message` says which */
            409: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body is too large */
            413: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported Content-Type */
            415: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            422: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited: retry after the `Retry-After` header’s seconds */
            429: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unavailable for a moment (the store or the mail server): retry later */
            503: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteIntegrationsGoogle: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no content */
            204: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input: `message` says what to fix, `details` lists each field */
            400: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired access token */
            401: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body stopped arriving */
            408: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body is too large */
            413: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited: retry after the `Retry-After` header’s seconds */
            429: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unavailable for a moment (the store or the mail server): retry later */
            503: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getIntegrationsGoogleCallback: {
        parameters: {
            query?: {
                code?: string;
                error?: string;
                state?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Invalid input: `message` says what to fix, `details` lists each field */
            400: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "text/html": string;
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "text/html": string;
                };
            };
            /** @description Rate limited: retry after the `Retry-After` header’s seconds */
            429: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "text/html": string;
                };
            };
            /** @description Error */
            502: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "text/html": string;
                };
            };
            /** @description Unavailable for a moment (the store or the mail server): retry later */
            503: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "text/html": string;
                };
            };
        };
    };
    getIntegrationsGoogleConnect: {
        parameters: {
            query?: {
                /** @description The bearer token, for a browser that cannot send the header */
                access_token?: string;
                format?: "redirect" | "json";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uri */
                        url: string;
                    };
                };
            };
            /** @description Redirect */
            302: {
                headers: {
                    /** @description Where to go next */
                    Location: string;
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input: `message` says what to fix, `details` lists each field */
            400: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired access token */
            401: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited: retry after the `Retry-After` header’s seconds */
            429: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unavailable for a moment (the store or the mail server): retry later */
            503: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getIntegrationsGoogleStatus: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        connected: boolean;
                        /** @description The linked Google account; absent when not connected */
                        email?: string;
                    };
                };
            };
            /** @description Invalid input: `message` says what to fix, `details` lists each field */
            400: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired access token */
            401: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited: retry after the `Retry-After` header’s seconds */
            429: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unavailable for a moment (the store or the mail server): retry later */
            503: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getRuns: {
        parameters: {
            query?: {
                /** @description From the Link header of the previous page */
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description `<…>; rel="next"`: the address of the next page, absent on the last one */
                    Link?: string;
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        completedAt: string | null;
                        /** Format: date-time */
                        createdAt: string;
                        /** @description From start to end (to now while running); null before it starts */
                        durationMs: number | null;
                        /** @description Null before the run has figures */
                        emailsSent: number | null;
                        retryOf: string | null;
                        runId: string;
                        /** Format: date-time */
                        startedAt: string | null;
                        /** @enum {string} */
                        status: "PENDING" | "RUNNING" | "SUCCESS" | "FAILED" | "CANCELLED";
                        /**
                         * @description `manual`: enqueued through the API (CLI, SDK); `schedule`: a tick of its schedule; `webhook`: its hook; `retry`: a retry of `retryOf`
                         * @enum {string}
                         */
                        trigger: "manual" | "schedule" | "webhook" | "retry";
                        workflowId: string;
                        workflowName: string;
                    }[];
                };
            };
            /** @description Invalid input: `message` says what to fix, `details` lists each field */
            400: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired access token */
            401: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited: retry after the `Retry-After` header’s seconds */
            429: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unavailable for a moment (the store or the mail server): retry later */
            503: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSuppressions: {
        parameters: {
            query?: {
                /** @description From the Link header of the previous page */
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description `<…>; rel="next"`: the address of the next page, absent on the last one */
                    Link?: string;
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        createdAt: string;
                        /** @description As it was first given */
                        email: string;
                        /** @enum {string} */
                        reason: "unsubscribed" | "bounced" | "complained" | "manual";
                        /** @description The workflow whose e-mail led to it (unsubscribe, bounce, complaint); null when added by hand */
                        workflowId: string | null;
                    }[];
                };
            };
            /** @description Invalid input: `message` says what to fix, `details` lists each field */
            400: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired access token */
            401: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited: retry after the `Retry-After` header’s seconds */
            429: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unavailable for a moment (the store or the mail server): retry later */
            503: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postSuppressions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Addresses to suppress (reason manual), at most 5000 a request; compared trimmed and case-insensitively */
                    emails: string[];
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        added: number;
                        alreadyPresent: number;
                    };
                };
            };
            /** @description Invalid input: `message` says what to fix, `details` lists each field */
            400: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired access token */
            401: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body stopped arriving */
            408: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body is too large */
            413: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported Content-Type */
            415: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited: retry after the `Retry-After` header’s seconds */
            429: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unavailable for a moment (the store or the mail server): retry later */
            503: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteSuppressionsByEmail: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                email: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no content */
            204: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input: `message` says what to fix, `details` lists each field */
            400: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired access token */
            401: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body stopped arriving */
            408: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body is too large */
            413: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited: retry after the `Retry-After` header’s seconds */
            429: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unavailable for a moment (the store or the mail server): retry later */
            503: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getUploads: {
        parameters: {
            query?: {
                /** @description From the Link header of the previous page */
                cursor?: string;
                limit?: number;
                /** @description Hex SHA-256 of a file: list only uploads of those bytes */
                sha256?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description `<…>; rel="next"`: the address of the next page, absent on the last one */
                    Link?: string;
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Column names from the header row, trimmed */
                        columns: string[];
                        /** Format: date-time */
                        createdAt: string;
                        filename: string;
                        /** @description Data rows, the header row excluded */
                        rows: number;
                        /** @description Hex SHA-256 of the bytes; null for uploads stored before the server kept it */
                        sha256: string | null;
                        sizeBytes: number;
                        uploadId: string;
                    }[];
                };
            };
            /** @description Invalid input: `message` says what to fix, `details` lists each field */
            400: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired access token */
            401: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited: retry after the `Retry-After` header’s seconds */
            429: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unavailable for a moment (the store or the mail server): retry later */
            503: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postUploads: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /**
                     * Format: binary
                     * @description A UTF-8 CSV whose first row names the columns
                     */
                    file: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Column names from the header row, trimmed */
                        columns: string[];
                        /** Format: date-time */
                        createdAt: string;
                        filename: string;
                        /** @description Data rows, the header row excluded */
                        rows: number;
                        /** @description Hex SHA-256 of the bytes; null for uploads stored before the server kept it */
                        sha256: string | null;
                        sizeBytes: number;
                        uploadId: string;
                    };
                };
            };
            /** @description Success */
            201: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Column names from the header row, trimmed */
                        columns: string[];
                        /** Format: date-time */
                        createdAt: string;
                        filename: string;
                        /** @description Data rows, the header row excluded */
                        rows: number;
                        /** @description Hex SHA-256 of the bytes; null for uploads stored before the server kept it */
                        sha256: string | null;
                        sizeBytes: number;
                        uploadId: string;
                    };
                };
            };
            /** @description Invalid input: `message` says what to fix, `details` lists each field */
            400: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired access token */
            401: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body stopped arriving */
            408: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body is too large */
            413: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported Content-Type */
            415: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited: retry after the `Retry-After` header’s seconds */
            429: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unavailable for a moment (the store or the mail server): retry later */
            503: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getUploadsByUploadId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                uploadId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Column names from the header row, trimmed */
                        columns: string[];
                        /** Format: date-time */
                        createdAt: string;
                        filename: string;
                        /** @description Data rows, the header row excluded */
                        rows: number;
                        /** @description Hex SHA-256 of the bytes; null for uploads stored before the server kept it */
                        sha256: string | null;
                        sizeBytes: number;
                        uploadId: string;
                    };
                };
            };
            /** @description Invalid input: `message` says what to fix, `details` lists each field */
            400: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired access token */
            401: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited: retry after the `Retry-After` header’s seconds */
            429: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unavailable for a moment (the store or the mail server): retry later */
            503: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteUploadsByUploadId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                uploadId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no content */
            204: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input: `message` says what to fix, `details` lists each field */
            400: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired access token */
            401: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body stopped arriving */
            408: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state: `message` says which */
            409: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body is too large */
            413: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited: retry after the `Retry-After` header’s seconds */
            429: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unavailable for a moment (the store or the mail server): retry later */
            503: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWorkflows: {
        parameters: {
            query?: {
                /** @description From the Link header of the previous page */
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description `<…>; rel="next"`: the address of the next page, absent on the last one */
                    Link?: string;
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        createdAt: string;
                        graph: {
                            edges: unknown[];
                            nodes: unknown[];
                        };
                        id: string;
                        name: string;
                        /** @description Present for a workflow with a schedule or a hook */
                        paused?: boolean;
                        /** @description Current revision: 1 at creation, one more for each change of name or graph */
                        revision: number;
                        /** @description Present when the TRIGGER has a schedule */
                        schedule?: {
                            cron: string;
                            /**
                             * Format: date-time
                             * @description When the next run starts; null while paused
                             */
                            nextRunAt: string | null;
                            paused: boolean;
                            /** @description Ticks without a run: a run of the workflow was PENDING or RUNNING then (ticks are never queued), or the tick was passed over when handled late; each tick has one run or is counted here */
                            skippedTicks: number;
                            timezone: string;
                        };
                        /** @description Whether runs can be started by POSTing rows to its hook URL */
                        webhook?: boolean;
                    }[];
                };
            };
            /** @description Invalid input: `message` says what to fix, `details` lists each field */
            400: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired access token */
            401: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited: retry after the `Retry-After` header’s seconds */
            429: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unavailable for a moment (the store or the mail server): retry later */
            503: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postWorkflows: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any unique string (e.g. a UUID). A retry with the same key within 24 hours gets the first answer, with Idempotent-Replayed: true, instead of running again. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A directed graph: exactly one TRIGGER, every node reachable from it, no cycles */
                    graph: {
                        edges: (unknown[] | boolean | number | Record<string, never> | string)[];
                        nodes: (unknown[] | boolean | number | Record<string, never> | string)[];
                    };
                    /** @description Text up to 200 characters on one line, trimmed; no control characters (line breaks, tabs, ESC, BEL, U+0080–U+009F) */
                    name: string;
                    /**
                     * Format: uri
                     * @description POSTed a signed run summary when a run ends; null removes it
                     */
                    webhookUrl?: string | null;
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        createdAt: string;
                        /** @description The URL that starts a run (POST rows to it); shown only when made. Keep it secret: it needs no sign-in */
                        hookUrl?: string;
                        name: string;
                        workflowId: string;
                    };
                };
            };
            /** @description Invalid input: `message` says what to fix, `details` lists each field */
            400: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired access token */
            401: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body stopped arriving */
            408: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state: `message` says which */
            409: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body is too large */
            413: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported Content-Type */
            415: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            422: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited: retry after the `Retry-After` header’s seconds */
            429: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unavailable for a moment (the store or the mail server): retry later */
            503: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWorkflowsByWorkflowId: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of the last answer: 304 while the answer is the same */
                "if-none-match"?: string;
            };
            path: {
                workflowId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description Version of this answer: send it back as If-None-Match to be answered 304 while nothing changed */
                    ETag?: string;
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        createdAt: string;
                        graph: {
                            edges: unknown[];
                            nodes: unknown[];
                        };
                        /** @description The URL that starts a run (POST rows to it); shown only when made. Keep it secret: it needs no sign-in */
                        hookUrl?: string;
                        id: string;
                        name: string;
                        /** @description Present for a workflow with a schedule or a hook */
                        paused?: boolean;
                        /** @description Current revision: 1 at creation, one more for each change of name or graph */
                        revision: number;
                        /** @description Present when the TRIGGER has a schedule */
                        schedule?: {
                            cron: string;
                            /**
                             * Format: date-time
                             * @description When the next run starts; null while paused
                             */
                            nextRunAt: string | null;
                            paused: boolean;
                            /** @description Ticks without a run: a run of the workflow was PENDING or RUNNING then (ticks are never queued), or the tick was passed over when handled late; each tick has one run or is counted here */
                            skippedTicks: number;
                            timezone: string;
                        };
                        /** Format: date-time */
                        updatedAt: string;
                        /** @description Whether runs can be started by POSTing rows to its hook URL */
                        webhook?: boolean;
                        webhookUrl?: string;
                    };
                };
            };
            /** @description Not modified: nothing changed since the ETag sent as If-None-Match */
            304: {
                headers: {
                    /** @description Version of this answer: send it back as If-None-Match to be answered 304 while nothing changed */
                    ETag?: string;
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input: `message` says what to fix, `details` lists each field */
            400: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired access token */
            401: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited: retry after the `Retry-After` header’s seconds */
            429: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unavailable for a moment (the store or the mail server): retry later */
            503: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteWorkflowsByWorkflowId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                workflowId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no content */
            204: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input: `message` says what to fix, `details` lists each field */
            400: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired access token */
            401: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body stopped arriving */
            408: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state: `message` says which */
            409: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body is too large */
            413: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited: retry after the `Retry-After` header’s seconds */
            429: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unavailable for a moment (the store or the mail server): retry later */
            503: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchWorkflowsByWorkflowId: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of the workflow as you read it ("r<revision>.<digest>", or "r<revision>"): 412 when its name or graph has changed since, and nothing is written */
                "if-match"?: string;
            };
            path: {
                workflowId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A directed graph: exactly one TRIGGER, every node reachable from it, no cycles */
                    graph?: {
                        edges: (unknown[] | boolean | number | Record<string, never> | string)[];
                        nodes: (unknown[] | boolean | number | Record<string, never> | string)[];
                    };
                    /** @description Text up to 200 characters on one line, trimmed; no control characters (line breaks, tabs, ESC, BEL, U+0080–U+009F) */
                    name?: string;
                    /** @description Pauses (true) or resumes (false) the workflow's schedule and hook; a resumed schedule starts at its next tick, with no backlog. Alone it makes no revision */
                    paused?: boolean;
                    /**
                     * Format: uri
                     * @description POSTed a signed run summary when a run ends; null removes it
                     */
                    webhookUrl?: string | null;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        createdAt: string;
                        graph: {
                            edges: unknown[];
                            nodes: unknown[];
                        };
                        /** @description The URL that starts a run (POST rows to it); shown only when made. Keep it secret: it needs no sign-in */
                        hookUrl?: string;
                        id: string;
                        name: string;
                        /** @description Present for a workflow with a schedule or a hook */
                        paused?: boolean;
                        /** @description Current revision: 1 at creation, one more for each change of name or graph */
                        revision: number;
                        /** @description Present when the TRIGGER has a schedule */
                        schedule?: {
                            cron: string;
                            /**
                             * Format: date-time
                             * @description When the next run starts; null while paused
                             */
                            nextRunAt: string | null;
                            paused: boolean;
                            /** @description Ticks without a run: a run of the workflow was PENDING or RUNNING then (ticks are never queued), or the tick was passed over when handled late; each tick has one run or is counted here */
                            skippedTicks: number;
                            timezone: string;
                        };
                        /** Format: date-time */
                        updatedAt: string;
                        /** @description Whether runs can be started by POSTing rows to its hook URL */
                        webhook?: boolean;
                        webhookUrl?: string;
                    };
                };
            };
            /** @description Invalid input: `message` says what to fix, `details` lists each field */
            400: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired access token */
            401: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body stopped arriving */
            408: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Changed since the If-Match ETag was read: nothing was written; `message` says which revision is current */
            412: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body is too large */
            413: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported Content-Type */
            415: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited: retry after the `Retry-After` header’s seconds */
            429: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unavailable for a moment (the store or the mail server): retry later */
            503: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postWorkflowsByWorkflowIdHookRotate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                workflowId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The new URL; the old one answers 404 from now on */
                        hookUrl: string;
                    };
                };
            };
            /** @description Invalid input: `message` says what to fix, `details` lists each field */
            400: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired access token */
            401: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body stopped arriving */
            408: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state: `message` says which */
            409: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body is too large */
            413: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited: retry after the `Retry-After` header’s seconds */
            429: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unavailable for a moment (the store or the mail server): retry later */
            503: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postWorkflowsByWorkflowIdPreview: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                workflowId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description An unsaved graph to preview instead of the saved one; validated like create */
                    graph?: {
                        edges: (unknown[] | boolean | number | Record<string, never> | string)[];
                        nodes: (unknown[] | boolean | number | Record<string, never> | string)[];
                    };
                    /** @description E-mails shown per OUTPUT node (default 3); also the most elements each AI node asks the model about */
                    limit?: number;
                    /**
                     * @description "me": also sends the shown e-mails to your own account address (never to the rows' addresses), subject prefixed "[test] "; the first 20 of them at most, and at most 10 test sends an hour
                     * @enum {string}
                     */
                    sendTestTo?: "me";
                } | null;
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The first `limit` e-mails per OUTPUT node, as a run would render them now */
                        emails: {
                            /** @description The sender a run uses (MAIL_FROM) */
                            from: string;
                            /** @description Present when the OUTPUT has an html part */
                            html?: string;
                            /** @description The element's index in the OUTPUT's forEach */
                            index: number;
                            nodeId: string;
                            subject: string;
                            /** @description The address is on the suppression list: a run would not mail it */
                            suppressed: boolean;
                            text: string;
                            to: string;
                        }[];
                        /** @description In graph order */
                        nodes: {
                            error: string | null;
                            nodeId: string;
                            /** @description As in run detail (arrays as {count, first}); an OUTPUT node shows {emailsToSend, suppressed}; an AI node counts elements not asked as aiNotAsked */
                            output: {
                                [key: string]: unknown;
                            } | null;
                            /** @enum {string} */
                            status: "SUCCESS" | "FAILED" | "SKIPPED";
                            type: string;
                        }[];
                        result: {
                            /** @description What a run would send now; null when that depends on model replies the preview did not ask for */
                            emailsToSend: number | null;
                            filteredOut: number;
                            suppressed: number;
                            totalRows: number;
                        };
                        /** @description With sendTestTo: test e-mails sent to your address */
                        testSent?: number;
                    };
                };
            };
            /** @description Invalid input: `message` says what to fix, `details` lists each field */
            400: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired access token */
            401: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body stopped arriving */
            408: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body is too large */
            413: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported Content-Type */
            415: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited: retry after the `Retry-After` header’s seconds */
            429: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            502: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unavailable for a moment (the store or the mail server): retry later */
            503: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWorkflowsByWorkflowIdRevisions: {
        parameters: {
            query?: {
                /** @description From the Link header of the previous page */
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path: {
                workflowId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description `<…>; rel="next"`: the address of the next page, absent on the last one */
                    Link?: string;
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        createdAt: string;
                        name: string;
                        revision: number;
                    }[];
                };
            };
            /** @description Invalid input: `message` says what to fix, `details` lists each field */
            400: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired access token */
            401: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited: retry after the `Retry-After` header’s seconds */
            429: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unavailable for a moment (the store or the mail server): retry later */
            503: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWorkflowsByWorkflowIdRevisionsByRevision: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A revision number: 1, 2, … */
                revision: number;
                workflowId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        createdAt: string;
                        graph: {
                            edges: unknown[];
                            nodes: unknown[];
                        };
                        name: string;
                        revision: number;
                    };
                };
            };
            /** @description Invalid input: `message` says what to fix, `details` lists each field */
            400: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired access token */
            401: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited: retry after the `Retry-After` header’s seconds */
            429: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unavailable for a moment (the store or the mail server): retry later */
            503: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postWorkflowsByWorkflowIdRevisionsByRevisionRestore: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of the workflow as you read it ("r<revision>.<digest>", or "r<revision>"): 412 when its name or graph has changed since, and nothing is written */
                "if-match"?: string;
            };
            path: {
                /** @description A revision number: 1, 2, … */
                revision: number;
                workflowId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        createdAt: string;
                        graph: {
                            edges: unknown[];
                            nodes: unknown[];
                        };
                        /** @description The URL that starts a run (POST rows to it); shown only when made. Keep it secret: it needs no sign-in */
                        hookUrl?: string;
                        id: string;
                        name: string;
                        /** @description Present for a workflow with a schedule or a hook */
                        paused?: boolean;
                        /** @description Current revision: 1 at creation, one more for each change of name or graph */
                        revision: number;
                        /** @description Present when the TRIGGER has a schedule */
                        schedule?: {
                            cron: string;
                            /**
                             * Format: date-time
                             * @description When the next run starts; null while paused
                             */
                            nextRunAt: string | null;
                            paused: boolean;
                            /** @description Ticks without a run: a run of the workflow was PENDING or RUNNING then (ticks are never queued), or the tick was passed over when handled late; each tick has one run or is counted here */
                            skippedTicks: number;
                            timezone: string;
                        };
                        /** Format: date-time */
                        updatedAt: string;
                        /** @description Whether runs can be started by POSTing rows to its hook URL */
                        webhook?: boolean;
                        webhookUrl?: string;
                    };
                };
            };
            /** @description Invalid input: `message` says what to fix, `details` lists each field */
            400: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired access token */
            401: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body stopped arriving */
            408: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Changed since the If-Match ETag was read: nothing was written; `message` says which revision is current */
            412: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body is too large */
            413: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited: retry after the `Retry-After` header’s seconds */
            429: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unavailable for a moment (the store or the mail server): retry later */
            503: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postWorkflowsByWorkflowIdRun: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any unique string (e.g. a UUID). A retry with the same key within 24 hours gets the first answer, with Idempotent-Replayed: true, instead of running again. */
                "idempotency-key"?: string;
            };
            path: {
                workflowId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            202: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        runId: string;
                        /** @enum {string} */
                        status: "PENDING";
                        /** Format: date-time */
                        triggeredAt: string;
                        workflowId: string;
                    };
                };
            };
            /** @description Invalid input: `message` says what to fix, `details` lists each field */
            400: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired access token */
            401: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body stopped arriving */
            408: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state: `message` says which */
            409: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body is too large */
            413: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error */
            422: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited: retry after the `Retry-After` header’s seconds */
            429: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unavailable for a moment (the store or the mail server): retry later */
            503: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWorkflowsByWorkflowIdRuns: {
        parameters: {
            query?: {
                /** @description From the Link header of the previous page */
                cursor?: string;
                limit?: number;
                order?: "asc" | "desc";
            };
            header?: never;
            path: {
                workflowId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description `<…>; rel="next"`: the address of the next page, absent on the last one */
                    Link?: string;
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        createdAt: string;
                        /** @description The workflow revision the run executes: see …/revisions/{revision} of its workflow */
                        revision: number;
                        runId: string;
                        /** @enum {string} */
                        status: "PENDING" | "RUNNING" | "SUCCESS" | "FAILED" | "CANCELLED";
                        /** @description What started the run */
                        trigger: {
                            /**
                             * Format: date-time
                             * @description The tick a scheduled run is for
                             */
                            scheduledFor?: string;
                            /** @enum {string} */
                            type: "manual" | "schedule" | "webhook" | "retry";
                        };
                        workflowId: string;
                    }[];
                };
            };
            /** @description Invalid input: `message` says what to fix, `details` lists each field */
            400: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired access token */
            401: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited: retry after the `Retry-After` header’s seconds */
            429: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unavailable for a moment (the store or the mail server): retry later */
            503: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWorkflowsByWorkflowIdWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                workflowId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        webhookSecret: string;
                        workflowId: string;
                    };
                };
            };
            /** @description Invalid input: `message` says what to fix, `details` lists each field */
            400: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired access token */
            401: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited: retry after the `Retry-After` header’s seconds */
            429: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unavailable for a moment (the store or the mail server): retry later */
            503: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postWorkflowsByWorkflowIdWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                workflowId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        webhookSecret: string;
                        workflowId: string;
                    };
                };
            };
            /** @description Invalid input: `message` says what to fix, `details` lists each field */
            400: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired access token */
            401: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body stopped arriving */
            408: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body is too large */
            413: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited: retry after the `Retry-After` header’s seconds */
            429: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unavailable for a moment (the store or the mail server): retry later */
            503: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWorkflowsRunsByRunId: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of the last answer: 304 when the resource is unchanged */
                "if-none-match"?: string;
                /** @description wait=N (RFC 7240; seconds, at most 30): with a matching If-None-Match, hold the request until the resource changes or N seconds pass */
                prefer?: string;
            };
            path: {
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description Version of this answer: send it back as If-None-Match to be answered 304 while nothing changed */
                    ETag?: string;
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * Format: date-time
                         * @description Present while a RUNNING run is being cancelled
                         */
                        cancelRequestedAt?: string;
                        /**
                         * Format: date-time
                         * @description Present once the run is terminal
                         */
                        completedAt?: string;
                        /** Format: date-time */
                        createdAt: string;
                        /**
                         * Format: date-time
                         * @description Same instant as createdAt
                         */
                        enqueuedAt: string;
                        /** @description Why a FAILED run failed */
                        error: string | null;
                        /** @description In graph order */
                        nodes: {
                            /** Format: date-time */
                            completedAt: string | null;
                            error: string | null;
                            nodeId: string;
                            /** @description Bounded summary: each array output as {count, first} (its first 5 elements); other values as they are. While it runs, an OUTPUT node has {emailsSent, emailsTotal} and an AI node {aiDone, aiTotal}: what progress bars need */
                            output: {
                                [key: string]: unknown;
                            } | null;
                            /** Format: date-time */
                            startedAt: string | null;
                            /** @enum {string} */
                            status: "PENDING" | "RUNNING" | "SUCCESS" | "FAILED" | "SKIPPED";
                            type: string;
                        }[];
                        /** @description Final once the run is terminal; while it runs, rows loaded and e-mails sent so far */
                        result: {
                            /** @description Present once an AI node ran: language-model calls made for the run (a reply asked again counts twice) */
                            aiCalls?: number;
                            /** @description Present once an AI node ran: completion tokens, as the replies' usage reported them */
                            aiCompletionTokens?: number;
                            /** @description Present once an AI node ran: prompt tokens, as the replies' usage reported them */
                            aiPromptTokens?: number;
                            emailsSent: number;
                            filteredOut: number;
                            /** @description Present when a worker died between an e-mail being accepted and its record: such e-mails were sent again with the same Message-ID (receivers that deduplicate drop them); this many recipients may have two copies */
                            possiblyDuplicated?: number;
                            /** @description Present when some elements were left out because their address is on the account's suppression list (GET /api/suppressions): neither sent nor failures; each OUTPUT node's output counts its own as suppressed */
                            suppressed?: number;
                            totalRows: number;
                            /** @description Present when some e-mails' outcome is unknown: a copy went out and its answer was never read (a worker died, an answer timed out) and no later copy was accepted, or (in a retry) such e-mails were left out. They may have arrived, so they are counted neither in emailsSent nor as failures, and no retry sends them; each OUTPUT node's output counts its own as unknownOutcome */
                            unknownOutcome?: number;
                        };
                        /** @description For a retry run: the run it retries (POST …/runs/{runId}/retry) */
                        retryOf?: string;
                        /** @description The workflow revision the run executes: see …/revisions/{revision} of its workflow */
                        revision: number;
                        runId: string;
                        /**
                         * Format: date-time
                         * @description Present once execution has begun
                         */
                        startedAt?: string;
                        /** @enum {string} */
                        status: "PENDING" | "RUNNING" | "SUCCESS" | "FAILED" | "CANCELLED";
                        /** @description What started the run */
                        trigger: {
                            /**
                             * Format: date-time
                             * @description The tick a scheduled run is for
                             */
                            scheduledFor?: string;
                            /** @enum {string} */
                            type: "manual" | "schedule" | "webhook" | "retry";
                        };
                        /**
                         * Format: date-time
                         * @description Same instant as createdAt
                         */
                        triggeredAt: string;
                        workflowId: string;
                    };
                };
            };
            /** @description Not modified: nothing changed since the ETag sent as If-None-Match */
            304: {
                headers: {
                    /** @description Version of this answer: send it back as If-None-Match to be answered 304 while nothing changed */
                    ETag?: string;
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input: `message` says what to fix, `details` lists each field */
            400: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired access token */
            401: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited: retry after the `Retry-After` header’s seconds */
            429: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unavailable for a moment (the store or the mail server): retry later */
            503: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postWorkflowsRunsByRunIdCancel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * Format: date-time
                         * @description Present while a RUNNING run is being cancelled
                         */
                        cancelRequestedAt?: string;
                        /**
                         * Format: date-time
                         * @description Present once the run is terminal
                         */
                        completedAt?: string;
                        /** Format: date-time */
                        createdAt: string;
                        /**
                         * Format: date-time
                         * @description Same instant as createdAt
                         */
                        enqueuedAt: string;
                        /** @description Why a FAILED run failed */
                        error: string | null;
                        /** @description In graph order */
                        nodes: {
                            /** Format: date-time */
                            completedAt: string | null;
                            error: string | null;
                            nodeId: string;
                            /** @description Bounded summary: each array output as {count, first} (its first 5 elements); other values as they are. While it runs, an OUTPUT node has {emailsSent, emailsTotal} and an AI node {aiDone, aiTotal}: what progress bars need */
                            output: {
                                [key: string]: unknown;
                            } | null;
                            /** Format: date-time */
                            startedAt: string | null;
                            /** @enum {string} */
                            status: "PENDING" | "RUNNING" | "SUCCESS" | "FAILED" | "SKIPPED";
                            type: string;
                        }[];
                        /** @description Final once the run is terminal; while it runs, rows loaded and e-mails sent so far */
                        result: {
                            /** @description Present once an AI node ran: language-model calls made for the run (a reply asked again counts twice) */
                            aiCalls?: number;
                            /** @description Present once an AI node ran: completion tokens, as the replies' usage reported them */
                            aiCompletionTokens?: number;
                            /** @description Present once an AI node ran: prompt tokens, as the replies' usage reported them */
                            aiPromptTokens?: number;
                            emailsSent: number;
                            filteredOut: number;
                            /** @description Present when a worker died between an e-mail being accepted and its record: such e-mails were sent again with the same Message-ID (receivers that deduplicate drop them); this many recipients may have two copies */
                            possiblyDuplicated?: number;
                            /** @description Present when some elements were left out because their address is on the account's suppression list (GET /api/suppressions): neither sent nor failures; each OUTPUT node's output counts its own as suppressed */
                            suppressed?: number;
                            totalRows: number;
                            /** @description Present when some e-mails' outcome is unknown: a copy went out and its answer was never read (a worker died, an answer timed out) and no later copy was accepted, or (in a retry) such e-mails were left out. They may have arrived, so they are counted neither in emailsSent nor as failures, and no retry sends them; each OUTPUT node's output counts its own as unknownOutcome */
                            unknownOutcome?: number;
                        };
                        /** @description For a retry run: the run it retries (POST …/runs/{runId}/retry) */
                        retryOf?: string;
                        /** @description The workflow revision the run executes: see …/revisions/{revision} of its workflow */
                        revision: number;
                        runId: string;
                        /**
                         * Format: date-time
                         * @description Present once execution has begun
                         */
                        startedAt?: string;
                        /** @enum {string} */
                        status: "PENDING" | "RUNNING" | "SUCCESS" | "FAILED" | "CANCELLED";
                        /** @description What started the run */
                        trigger: {
                            /**
                             * Format: date-time
                             * @description The tick a scheduled run is for
                             */
                            scheduledFor?: string;
                            /** @enum {string} */
                            type: "manual" | "schedule" | "webhook" | "retry";
                        };
                        /**
                         * Format: date-time
                         * @description Same instant as createdAt
                         */
                        triggeredAt: string;
                        workflowId: string;
                    };
                };
            };
            /** @description Success */
            202: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * Format: date-time
                         * @description Present while a RUNNING run is being cancelled
                         */
                        cancelRequestedAt?: string;
                        /**
                         * Format: date-time
                         * @description Present once the run is terminal
                         */
                        completedAt?: string;
                        /** Format: date-time */
                        createdAt: string;
                        /**
                         * Format: date-time
                         * @description Same instant as createdAt
                         */
                        enqueuedAt: string;
                        /** @description Why a FAILED run failed */
                        error: string | null;
                        /** @description In graph order */
                        nodes: {
                            /** Format: date-time */
                            completedAt: string | null;
                            error: string | null;
                            nodeId: string;
                            /** @description Bounded summary: each array output as {count, first} (its first 5 elements); other values as they are. While it runs, an OUTPUT node has {emailsSent, emailsTotal} and an AI node {aiDone, aiTotal}: what progress bars need */
                            output: {
                                [key: string]: unknown;
                            } | null;
                            /** Format: date-time */
                            startedAt: string | null;
                            /** @enum {string} */
                            status: "PENDING" | "RUNNING" | "SUCCESS" | "FAILED" | "SKIPPED";
                            type: string;
                        }[];
                        /** @description Final once the run is terminal; while it runs, rows loaded and e-mails sent so far */
                        result: {
                            /** @description Present once an AI node ran: language-model calls made for the run (a reply asked again counts twice) */
                            aiCalls?: number;
                            /** @description Present once an AI node ran: completion tokens, as the replies' usage reported them */
                            aiCompletionTokens?: number;
                            /** @description Present once an AI node ran: prompt tokens, as the replies' usage reported them */
                            aiPromptTokens?: number;
                            emailsSent: number;
                            filteredOut: number;
                            /** @description Present when a worker died between an e-mail being accepted and its record: such e-mails were sent again with the same Message-ID (receivers that deduplicate drop them); this many recipients may have two copies */
                            possiblyDuplicated?: number;
                            /** @description Present when some elements were left out because their address is on the account's suppression list (GET /api/suppressions): neither sent nor failures; each OUTPUT node's output counts its own as suppressed */
                            suppressed?: number;
                            totalRows: number;
                            /** @description Present when some e-mails' outcome is unknown: a copy went out and its answer was never read (a worker died, an answer timed out) and no later copy was accepted, or (in a retry) such e-mails were left out. They may have arrived, so they are counted neither in emailsSent nor as failures, and no retry sends them; each OUTPUT node's output counts its own as unknownOutcome */
                            unknownOutcome?: number;
                        };
                        /** @description For a retry run: the run it retries (POST …/runs/{runId}/retry) */
                        retryOf?: string;
                        /** @description The workflow revision the run executes: see …/revisions/{revision} of its workflow */
                        revision: number;
                        runId: string;
                        /**
                         * Format: date-time
                         * @description Present once execution has begun
                         */
                        startedAt?: string;
                        /** @enum {string} */
                        status: "PENDING" | "RUNNING" | "SUCCESS" | "FAILED" | "CANCELLED";
                        /** @description What started the run */
                        trigger: {
                            /**
                             * Format: date-time
                             * @description The tick a scheduled run is for
                             */
                            scheduledFor?: string;
                            /** @enum {string} */
                            type: "manual" | "schedule" | "webhook" | "retry";
                        };
                        /**
                         * Format: date-time
                         * @description Same instant as createdAt
                         */
                        triggeredAt: string;
                        workflowId: string;
                    };
                };
            };
            /** @description Invalid input: `message` says what to fix, `details` lists each field */
            400: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired access token */
            401: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body stopped arriving */
            408: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state: `message` says which */
            409: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body is too large */
            413: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited: retry after the `Retry-After` header’s seconds */
            429: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unavailable for a moment (the store or the mail server): retry later */
            503: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWorkflowsRunsByRunIdDeliveries: {
        parameters: {
            query?: {
                /** @description From the Link header of the previous page */
                cursor?: string;
                limit?: number;
                /** @description Only entries of this status */
                status?: "sent" | "failed" | "unknown" | "suppressed" | "pending";
            };
            header?: never;
            path: {
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description `<…>; rel="next"`: the address of the next page, absent on the last one */
                    Link?: string;
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * Format: date-time
                         * @description When the record last changed; null while pending
                         */
                        at: string | null;
                        /** @description Copies this run handed to the mail server (more than 1 after an interruption) */
                        attempts: number;
                        /** @description Why it failed */
                        error: string | null;
                        /** @description Element index in the OUTPUT node's forEach, from 0 */
                        index: number;
                        messageId: string | null;
                        nodeId: string;
                        /** @enum {string} */
                        status: "sent" | "failed" | "unknown" | "suppressed" | "pending";
                        /** @description The recipient; null while pending, or when the element had no address */
                        to: string | null;
                    }[];
                };
            };
            /** @description Invalid input: `message` says what to fix, `details` lists each field */
            400: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired access token */
            401: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited: retry after the `Retry-After` header’s seconds */
            429: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unavailable for a moment (the store or the mail server): retry later */
            503: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWorkflowsRunsByRunIdNodesByNodeIdOutput: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
            };
            header?: never;
            path: {
                nodeId: string;
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description `<…>; rel="next"`: the address of the next page, absent on the last one */
                    Link?: string;
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        limit: number;
                        nodeId: string;
                        offset: number;
                        /** @description Every output key; arrays cut to [offset, offset + limit) */
                        output: {
                            [key: string]: unknown;
                        } | null;
                        runId: string;
                        status: string;
                        /** @description Length of the longest array output */
                        total: number;
                    };
                };
            };
            /** @description Invalid input: `message` says what to fix, `details` lists each field */
            400: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired access token */
            401: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state: `message` says which */
            409: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited: retry after the `Retry-After` header’s seconds */
            429: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unavailable for a moment (the store or the mail server): retry later */
            503: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postWorkflowsRunsByRunIdRetry: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                runId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description "latest": execute the workflow's current revision instead of the run's
                     * @enum {string}
                     */
                    revision?: "latest";
                } | null;
            };
        };
        responses: {
            /** @description Success */
            202: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        runId: string;
                        /** @enum {string} */
                        status: "PENDING";
                        /** Format: date-time */
                        triggeredAt: string;
                        workflowId: string;
                    };
                };
            };
            /** @description Invalid input: `message` says what to fix, `details` lists each field */
            400: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid or expired access token */
            401: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body stopped arriving */
            408: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflicts with the current state: `message` says which */
            409: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body is too large */
            413: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unsupported Content-Type */
            415: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited: retry after the `Retry-After` header’s seconds */
            429: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unavailable for a moment (the store or the mail server): retry later */
            503: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getHealthz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status?: "ok";
                    };
                };
            };
            /** @description Invalid input: `message` says what to fix, `details` lists each field */
            400: {
                headers: {
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unavailable for a moment (the store or the mail server): retry later */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            /** @description Invalid input: `message` says what to fix, `details` lists each field */
            400: {
                headers: {
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "text/plain": string;
                };
            };
            /** @description Unavailable for a moment (the store or the mail server): retry later */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "text/plain": string;
                };
            };
        };
    };
    getOpenapiJson: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description Invalid input: `message` says what to fix, `details` lists each field */
            400: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited: retry after the `Retry-After` header’s seconds */
            429: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unavailable for a moment (the store or the mail server): retry later */
            503: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getReadyz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status?: "ready";
                    };
                };
            };
            /** @description Invalid input: `message` says what to fix, `details` lists each field */
            400: {
                headers: {
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unavailable for a moment (the store or the mail server): retry later */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getUByToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Invalid input: `message` says what to fix, `details` lists each field */
            400: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "text/html": string;
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "text/html": string;
                };
            };
            /** @description Rate limited: retry after the `Retry-After` header’s seconds */
            429: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "text/html": string;
                };
            };
            /** @description Unavailable for a moment (the store or the mail server): retry later */
            503: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "text/html": string;
                };
            };
        };
    };
    postUByToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Invalid input: `message` says what to fix, `details` lists each field */
            400: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "text/html": string;
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "text/html": string;
                };
            };
            /** @description The request body stopped arriving */
            408: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "text/html": string;
                };
            };
            /** @description The request body is too large */
            413: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "text/html": string;
                };
            };
            /** @description Rate limited: retry after the `Retry-After` header’s seconds */
            429: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "text/html": string;
                };
            };
            /** @description Unavailable for a moment (the store or the mail server): retry later */
            503: {
                headers: {
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Id of this request in the server logs (the client’s own X-Request-Id when it sent one) */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "text/html": string;
                };
            };
        };
    };
}
