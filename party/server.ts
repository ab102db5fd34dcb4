import type * as Party from 'partykit/server';

/**
 * PartyKit requires a main party; ours serves nothing. The live rooms are the "comments" party
 * (party/comments.ts), reached at /parties/comments/{film slug}.
 */
export default class MainParty implements Party.Server {
  constructor(readonly room: Party.Room) {}

  static onBeforeConnect() {
    return new Response('Not found', { status: 404 });
  }

  onRequest(): Response {
    return new Response('Not found', { status: 404 });
  }
}

MainParty satisfies Party.Worker;
