// Suppression keys in one Unicode form (NFC), as suppressionKey() now makes them: a key stored
// decomposed (e + combining diaeresis) would never match the composed key a send now looks up. Where an
// account has both forms of one address, the composed row stays (its reason and date are kept) and the
// other goes; every other row is re-keyed. ASCII keys are NFC already and are not touched.
export const sql = `
DELETE FROM suppressions s
 WHERE s.email_key <> normalize(s.email_key, NFC)
   AND EXISTS (SELECT 1 FROM suppressions t WHERE t.account_id = s.account_id AND t.email_key = normalize(s.email_key, NFC));
DELETE FROM suppressions s
 WHERE s.email_key <> normalize(s.email_key, NFC)
   AND EXISTS (
       SELECT 1 FROM suppressions t
        WHERE t.account_id = s.account_id AND t.email_key <> normalize(t.email_key, NFC)
          AND normalize(t.email_key, NFC) = normalize(s.email_key, NFC) AND t.email_key < s.email_key
   );
UPDATE suppressions SET email_key = normalize(email_key, NFC) WHERE email_key <> normalize(email_key, NFC);
`;
