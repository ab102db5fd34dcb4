// `npm run bench -- crawl`: round trips of a crawl of two sources that share most films (issue 32), on the Worker's
// path (@libsql/client/web against the Hrana test server: each pipeline is one network round trip to Turso). The
// first source's films are all new; the second source has 90 % of them (a third under other slugs, a fifth without
// ids) and 10 % of its own. Goals: ≤ 0.5 round trips per new film, ≤ 1 per merged film.
import { loadavg } from 'node:os';
import { measureTwoSourceCrawl } from '../tests/helpers/two-source-trips';

const FILMS = Number(process.env.BENCH_CRAWL_FILMS ?? 480);
const SHARED = Math.round(FILMS * 0.9);

console.log(`Crawl of two sources sharing ${SHARED} of ${FILMS} films (load average ${loadavg()[0]!.toFixed(1)})`);
const m = await measureTwoSourceCrawl(FILMS, SHARED);
const rows = [
  ['first source: new films', m.newFilms, m.tripsNew, m.perNewFilm, 0.5],
  ['second source: merged (+ its own)', `${m.mergedFilms} (+${m.ownFilms})`, m.tripsSecond, m.perMergedFilm, 1],
] as const;
console.log('| crawl | films | round trips | per film | goal |');
console.log('| --- | --- | --- | --- | --- |');
for (const [name, films, trips, per, goal] of rows)
  console.log(`| ${name} | ${films} | ${trips} | ${per.toFixed(3)} | ≤ ${goal} ${per <= goal ? '(met)' : '(NOT met)'} |`);
console.log(`catalogue afterwards: ${m.catalogue} films (each shared film once); ${m.seconds} s in all`);
if (m.perNewFilm > 0.5 || m.perMergedFilm > 1) process.exitCode = 1;
