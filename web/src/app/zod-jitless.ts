import { config } from 'zod/v4/core';

// zod probes `new Function` (its JIT) when the first object schema is built: the CSP forbids eval, and the
// browser reports the refused probe as a CSP issue (Lighthouse best practices). The plain parser is as
// correct. main.tsx imports this module first, so it runs before any schema module is evaluated.
config({ jitless: true });
