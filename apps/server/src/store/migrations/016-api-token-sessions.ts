// API tokens go with the sessions that made them (issue 26). A password change signs every other
// session out; a token minted by one of them (a stolen session's, say) is revoked with it, so it
// cannot outlive the change. `session_id` is the session (refresh-token family) whose access token
// created the token. No foreign key: ended sessions are pruned at the account's next sign-in, and the
// token must keep its creator's id whether or not the session row is still there.
//
// Tokens made before this migration have no recorded session (NULL): a password change cannot tell
// whose they are, so it keeps them, and lists them with the others that remain (flowctl set-password
// prints them, with flowctl tokens revoke to follow). A password reset still revokes every token.
export const sql = `
ALTER TABLE api_tokens ADD COLUMN session_id text;
`;
