// `npm run bench -- comment-filter`: the comment filter (worker/services/comments/filter.ts) over 10,000 real-shaped
// comments: Vietnamese sentences with and without diacritics, some with links, phone numbers and the usual evasions of
// the starter list's words, 1 to 2,000 characters. Prints p50 and p99 time per comment of the whole check (word list,
// links, phone numbers, the duplicate fingerprint) against a floor measured in the same run on the same texts: fold()
// alone, the normalisation search already does for every film title. No network, no database.
import { performance } from 'node:perf_hooks';
import { fold } from '../worker/db/fold';
import { CommentFilter, fingerprintOf } from '../worker/services/comments/filter';
import { STARTER_WORDS } from '../worker/services/comments/starter-words';
import { seededRandom } from '../demo/catalogue';

const COMMENTS = Number(process.env.BENCH_COMMENTS ?? 10_000);
const ROUNDS = 3;

const random = seededRandom(33);
const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;

const SENTENCES = [
  'Phim hay quá, xem mà khóc luôn',
  'Các bạn ơi tập này có vietsub chưa vậy',
  'Buổi tối ngồi xem với cả nhà rất cảm động',
  'Diễn viên chính diễn quá đạt, nhất là đoạn cuối',
  'Nhạc phim đỉnh thật, ai biết tên bài hát không',
  'Tập mười hai đánh nhau hay, cảnh quay đẹp',
  'Cái kết hơi buồn nhưng mà hợp lý',
  'Cảm ơn admin đã up phim nhanh như vậy',
  'Phim này quay ở Đà Lạt đúng không mọi người',
  'Xem lần thứ ba rồi mà vẫn thấy hay',
  'Mình thích nhân vật cô em gái nhất phim',
  'Ai xem ở rạp chưa, có đông không',
  'Dịch hay lắm, cảm ơn nhóm sub nhiều',
  'Đoạn này làm mình nhớ tuổi thơ ghê',
  'Chờ phần hai mãi chưa thấy ra',
  'Hình ảnh sắc nét, âm thanh sống động',
];
const EXTRAS = [
  () => `xem full tại https://phim${Math.floor(random() * 999)}.example/tap-${Math.floor(random() * 40)}`,
  () => `vào ${pick(['phimlau', 'nhacai', 'xemnhanh'])} . com nhé`,
  () =>
    `liên hệ zalo 09${Math.floor(random() * 1e8)
      .toString()
      .padStart(8, '0')
      .replace(/(\d{2})(\d{3})(\d{3})/, '$1 $2 $3')}`,
  () => `+84 ${Math.floor(random() * 1e9)}`,
  () => pick(STARTER_WORDS).phrase,
  () => [...pick(STARTER_WORDS).phrase].join(' '),
  () => fold(pick(STARTER_WORDS).phrase).replace(/[aeio]/g, (c) => ({ a: '4', e: '3', i: '1', o: '0' })[c]!),
  () => pick(STARTER_WORDS).phrase.replace(/[aeiouơư]/g, (c) => c.repeat(3)),
];

/** Lengths like a comment thread's: most short, some paragraphs, a few at the 2,000-character limit. */
function length(): number {
  const r = random();
  if (r < 0.6) return 1 + Math.floor(random() * 80);
  if (r < 0.9) return 80 + Math.floor(random() * 400);
  if (r < 0.98) return 480 + Math.floor(random() * 1000);
  return 2000;
}

function comment(): string {
  const target = length();
  const stripped = random() < 0.3;
  let text = '';
  while ([...text].length < target) {
    let part = random() < 0.15 ? pick(EXTRAS)() : pick(SENTENCES);
    if (stripped) part = fold(part);
    text += (text ? (random() < 0.5 ? '. ' : ' ') : '') + part;
  }
  return [...text].slice(0, target).join('');
}

const all = Array.from({ length: COMMENTS }, comment);
const texts = all;
const filter = new CommentFilter(STARTER_WORDS.map((w, i) => ({ id: i + 1, ...w })));

function measure(
  name: string,
  run: (text: string) => unknown,
  texts: readonly string[] = all,
): { name: string; p50: number; p99: number; max: number; total: number } {
  for (const t of texts.slice(0, 500)) run(t); // warm-up
  const times: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const t of texts) {
      const start = performance.now();
      run(t);
      times.push(performance.now() - start);
    }
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  return { name, p50: at(0.5), p99: at(0.99), max: times.at(-1)!, total: times.reduce((a, b) => a + b, 0) / ROUNDS };
}

let held = 0;
let masked = 0;
for (const t of texts) {
  const v = filter.check(t, { holdContacts: true });
  if (v.hold) held++;
  if (v.text !== t) masked++;
}
const chars = texts.reduce((n, t) => n + t.length, 0);
console.log(
  `comment filter: ${COMMENTS} comments (${chars} characters, ${held} held, ${masked} masked), ${filter.patterns.length} list entries, ${ROUNDS} rounds`,
);
const floor = measure('floor: fold() alone', (t) => fold(t));
const full = measure('filter.check + fingerprint', (t) => {
  filter.check(t, { holdContacts: true });
  fingerprintOf(t);
});
const long = texts.filter((t) => t.length >= 1900);
const check = (t: string) => {
  filter.check(t, { holdContacts: true });
  fingerprintOf(t);
};
const longFloor = measure('floor on 1,900–2,000 characters', (t) => fold(t), long);
const rows = [
  { ...floor, vs: floor },
  { ...full, vs: floor },
  { ...longFloor, vs: longFloor },
  { ...measure('filter on 1,900–2,000 characters', check, long), vs: longFloor },
];
const ms = (x: number) => `${(x * 1000).toFixed(1)} µs`;
console.log('| measure | p50 per comment | p99 per comment | max | all comments (one round) | p50 ÷ its floor |');
console.log('| --- | --- | --- | --- | --- | --- |');
for (const r of rows)
  console.log(`| ${r.name} | ${ms(r.p50)} | ${ms(r.p99)} | ${ms(r.max)} | ${r.total.toFixed(0)} ms | ${(r.p50 / r.vs.p50).toFixed(1)} |`);
console.log(`${long.length} comments of 1,900–2,000 characters; the filter's budget is a few milliseconds for one of them.`);
