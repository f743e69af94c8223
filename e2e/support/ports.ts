// Ports of one end-to-end server (E2E_PORT … E2E_PORT + 9, ten in all): the server, the mail
// reader, the seed control, the third-party stand-ins and one host page. scripts/e2e.mjs runs
// its jobs side by side at E2E_PORT, +10, +20…, so a job's ports must stay within these ten.
export const E2E_PORT = Number(process.env.E2E_PORT ?? 8181);
export const MAIL_READER_PORT = E2E_PORT + 1;
/** Test-only seeding of database rows from the launcher (support/seed-control.ts). */
export const SEED_PORT = E2E_PORT + 2;
/** First of the six ports of the local stand-ins of third-party providers (LLM, speech, ...). */
export const STAND_IN_BASE_PORT = E2E_PORT + 3;
/** The page that embeds the player (support/host-page.ts): one spec file at a time serves it,
 *  opening it in beforeAll and closing it in afterAll (a job runs its spec files one by one). */
export const HOST_PAGE_PORT = E2E_PORT + 9;
