import { Hono } from 'hono';
import { requireViewer, withViewer } from '../lib/auth-middleware';
import type { AppEnv } from '../lib/context';
import { validate } from '../lib/validate';
import { createPartyBodySchema, joinPartyBodySchema, partyParamSchema } from '../schemas/watch-party';
import { createParty, joinParty, PartyEndedError } from '../services/watch-party/parties';

/** Watch parties (issue 28), mounted under /api/parties. */
export const partyRoutes = new Hono<AppEnv>()
  .post('/', requireViewer, validate('json', createPartyBodySchema), async (c) => {
    const party = await createParty(c.var.deps, c.var.db, c.var.viewer, c.req.valid('json'), c.var.caches.films);
    return c.json(party, 201);
  })
  .post('/:id/token', validate('param', partyParamSchema), withViewer, validate('json', joinPartyBodySchema), async (c) => {
    try {
      return c.json(await joinParty(c.var.deps, c.var.viewer, c.req.valid('param').id, c.req.valid('json')), 200);
    } catch (err) {
      // An ended party's link offers the episode alone: the answer says which.
      if (err instanceof PartyEndedError) return c.json({ error: { code: err.code, message: err.message }, party: err.party }, 410);
      throw err;
    }
  });
