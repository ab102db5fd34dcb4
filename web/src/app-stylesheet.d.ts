// web/vite-plugins.ts appStylesheetTable: the built stylesheet in pieces, in the server renderer's build only.
declare module 'virtual:app-stylesheet' {
  const table: import('../../worker/schemas/stylesheet').StylesheetTable | null;
  export default table;
}
