// `tsx demo/serve.ts [--port 8788] [--host 127.0.0.1] [--media-base URL]`: the demo source on its own.
// Posters and the clip are prepared in demoMediaDir(); the app serves them at /demo-media.
import { parseArgs } from 'node:util';
import { demoMediaDir, prepareDemoMedia } from './media';
import { DEFAULT_MEDIA_BASE, startDemoSource } from './server';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: process.env.DEMO_SOURCE_PORT ?? '8788' },
    host: { type: 'string', default: '127.0.0.1' },
    'media-base': { type: 'string', default: process.env.DEMO_MEDIA_BASE ?? DEFAULT_MEDIA_BASE },
  },
});

const media = await prepareDemoMedia();
const demo = await startDemoSource({ port: Number(values.port), host: values.host, mediaBase: values['media-base'] });
console.log(
  `Demo OPhim source: ${demo.url} (${demo.films.length} films, media in ${demoMediaDir()}, ${media.postersWritten} posters written)`,
);
console.log(`  try:   curl ${demo.url}/danh-sach/phim-moi-cap-nhat?page=1`);
console.log(`  crawl: npm run crawl -- --source ${demo.url}`);
const stop = async () => {
  await demo.close();
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
