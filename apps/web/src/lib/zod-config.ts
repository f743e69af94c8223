// Zod without its JIT (decision 412): the portal's Content-Security-Policy has no 'unsafe-eval',
// and Zod's first parse probes `new Function` — refused and caught, but the browser still reports
// a `securitypolicyviolation` for it. Imported first by main.tsx, before any schema parses.
import { z } from 'zod';

z.config({ jitless: true });
