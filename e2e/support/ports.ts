// Ports of the end-to-end run. Set E2E_PORT to run two suites side by side; the mail reader,
// and the third-party stand-ins take the ports just above it.
export const E2E_PORT = Number(process.env.E2E_PORT ?? 8181);
export const MAIL_READER_PORT = E2E_PORT + 1;
/** Test-only seeding of database rows from the launcher (support/seed-control.ts). */
export const SEED_PORT = E2E_PORT + 2;
/** First port for local stand-ins of third-party providers (LLM, speech, ...). */
export const STAND_IN_BASE_PORT = E2E_PORT + 10;
