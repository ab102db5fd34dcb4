/**
 * Import boundaries (docs/architecture.md "Layers"): `npm run lint` fails on any violation.
 * web/ talks to the API only through the wire contract (worker/schemas) and the room messages;
 * web dependencies run one way: routes → features → components/lib; features never import each other.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'web-imports-worker-only-through-schemas',
      comment: 'The web may import worker/schemas/** (and the AppType of worker/app.ts, type only), nothing else of worker/.',
      severity: 'error',
      from: { path: '^web/' },
      to: { path: '^worker/', pathNot: ['^worker/schemas/', '^worker/app\\.ts$'] },
    },
    {
      name: 'only-the-api-client-imports-the-app-type',
      comment: 'worker/app.ts is imported for its type (hc<AppType>) by web/src/lib/api-client.ts alone.',
      severity: 'error',
      from: { path: '^web/', pathNot: '^web/src/lib/api-client\\.ts$' },
      to: { path: '^worker/app\\.ts$' },
    },
    {
      name: 'web-imports-party-only-messages',
      severity: 'error',
      from: { path: '^web/' },
      to: { path: '^party/', pathNot: '^party/(messages|watch-messages)\\.ts$' },
    },
    {
      name: 'features-do-not-import-each-other',
      comment: 'Compose features in web/src/routes (or web/src/app), never inside another feature.',
      severity: 'error',
      from: { path: '^web/src/features/([^/]+)/' },
      to: { path: '^web/src/features/', pathNot: '^web/src/features/$1/' },
    },
    {
      name: 'shared-web-code-does-not-import-features-or-routes',
      severity: 'error',
      from: { path: '^web/src/(components|lib)/' },
      to: { path: '^web/src/(features|routes|app)/' },
    },
    {
      name: 'features-do-not-import-routes',
      severity: 'error',
      from: { path: '^web/src/features/' },
      to: { path: '^web/src/(routes|app)/' },
    },
    {
      name: 'schemas-are-pure',
      comment: 'worker/schemas is the wire contract: zod and other schema modules only (web bundles it).',
      severity: 'error',
      from: { path: '^worker/schemas/' },
      to: { path: '^(worker/(?!schemas/)|party/|web/)' },
    },
    {
      name: 'no-sql-in-routes-and-hosts',
      comment: 'Routes, middleware and hosts hold no SQL: queries live in the services of their feature.',
      severity: 'error',
      from: { path: '^(worker/routes/|worker/lib/|worker/node\\.ts$|worker/index\\.ts$|scripts/start\\.ts$)' },
      to: { path: '(^worker/db/schema\\.ts$|node_modules/drizzle-orm/)' },
    },
    {
      name: 'features-do-not-import-duty-owners',
      comment:
        'Undo, erasure and export each have one registry filled by the composition root (worker/wiring.ts, docs/decisions/1040): a feature exports its handler and imports only the types of worker/lib/duties.ts, never the owner of a duty.',
      severity: 'error',
      from: { path: '^worker/services/', pathNot: '^worker/services/(admin/audit-undo|account/erasure|account/data-export)\\.ts$' },
      to: { path: '^worker/services/(admin/audit-undo|account/erasure|account/data-export)\\.ts$' },
    },
    {
      name: 'only-the-composition-root-imports-the-wiring',
      severity: 'error',
      from: { path: '^worker/', pathNot: '^worker/(app|scheduled)\\.ts$' },
      to: { path: '^worker/wiring\\.ts$' },
    },
    {
      name: 'worker-does-not-import-web',
      severity: 'error',
      from: { path: '^(worker|party)/' },
      to: { path: '^web/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|coverage)/|routeTree\\.gen\\.ts$' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
