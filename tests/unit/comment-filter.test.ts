// The comment filter (worker/services/comments/filter.ts): entries match through the usual evasions without an
// admin writing a pattern, ordinary Vietnamese is left alone, and the matching stays linear whatever the list holds
// (every compiled term a plain literal; fuzzed with fast-check). How fast it is: bench/comment-filter.ts.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fold } from '../../worker/db/fold';
import { CommentFilter, fingerprintOf, hasLink, hasPhoneNumber, normalise, type WordEntry } from '../../worker/services/comments/filter';
import { STARTER_WORDS } from '../../worker/services/comments/starter-words';

const starter: WordEntry[] = STARTER_WORDS.map((w, i) => ({ id: i + 1, ...w }));
const filter = new CommentFilter(starter);

/** The evasions the issue names, each a way of writing `phrase`. */
const LEET: Record<string, string> = { a: '4', e: '3', i: '1', o: '0' };
const evasions = (phrase: string): string[] => [
  phrase,
  fold(phrase),
  phrase.toUpperCase(),
  [...phrase].join(' '),
  [...phrase].map((c) => (/\p{L}/u.test(c) ? c + c + c : c)).join(''),
  fold(phrase).replace(/[aeio]/g, (c) => LEET[c]!),
  phrase.replace(/đ/g, 'd'),
  [...fold(phrase)].join('.'),
  phrase.normalize('NFD'),
];

describe('the starter list', () => {
  it('is what the migration inserts', () => {
    const sql = readFileSync(resolve(import.meta.dirname, '../../drizzle/20261126195721_comment_starter_words.sql'), 'utf8');
    const rows = [...sql.matchAll(/\('((?:[^']|'')*)', '(hold|mask)'\)/g)].map((m) => ({
      phrase: m[1]!.replace(/''/g, "'"),
      action: m[2],
    }));
    expect(rows).toEqual(STARTER_WORDS);
  });

  it('matches each entry through spacing, repeats, digits for letters, missing marks and đ/d', () => {
    for (const entry of starter) {
      for (const written of evasions(entry.phrase)) {
        const text = `mở đầu ${written} kết thúc`;
        expect(
          filter.find(text).some((f) => f.entry.id === entry.id),
          `${entry.phrase} as "${written}"`,
        ).toBe(true);
      }
    }
  });

  it('leaves everyday comments alone', () => {
    const ordinary = [
      'Phim hay quá, xem mà khóc luôn',
      'Các bạn ơi tập này có vietsub chưa?',
      'Buổi tối ngồi xem với cả nhà, rất cảm động',
      'Đi làm về xem một tập là hết mệt',
      'Diễn viên chính đẹp trai, lòng tốt thật sự',
      'Long lanh như giọt sương',
      'Nhạc phim đỉnh, ai biết tên bài không?',
      'Tập 12 đánh nhau hay, cảnh quay đẹp',
      'Hình ảnh sắc nét. Nét diễn tự nhiên',
      'Mới xem xong phần 2, chờ phần 3',
      'Cái kết hơi buồn nhưng hợp lý',
      'Mình thích nhân vật cô em gái nhất',
      'Cảm ơn admin đã up phim nhanh',
      'Phim này quay ở Đà Lạt đúng không mọi người',
      'Xem lần thứ ba vẫn thấy hay',
      'Ông bố trong phim diễn quá đạt',
      'Ai xem ở rạp chưa, có đông không',
      'cac ban oi phim nay hay lam, xem di',
      'Dịch hay, cảm ơn nhóm sub',
      'Thà xem lại phim cũ còn hơn',
      // An entry read across words from the middle of one: "anh à, cái" folds to "anhacai", which holds "nhacai".
      'Anh à, cái kết này buồn quá',
      'Thanh à cái phim này hay lắm',
    ];
    for (const text of ordinary) {
      expect(filter.find(text), text).toEqual([]);
      expect(hasLink(text), text).toBe(false);
      expect(hasPhoneNumber(text), text).toBe(false);
    }
  });

  it('tells words apart by the marks their writer used', () => {
    const f = new CommentFilter([
      { id: 1, phrase: 'lồn', action: 'mask' },
      { id: 2, phrase: 'cặc', action: 'mask' },
      { id: 3, phrase: 'đĩ', action: 'mask' },
    ]);
    const masked = (t: string) => f.check(t, { holdContacts: false }).text;
    expect(masked('vãi lồn')).toBe('vãi ***');
    expect(masked('vai lon')).toBe('vai ***');
    expect(masked('lòng tốt, long lanh, salon')).toBe('lòng tốt, long lanh, salon');
    expect(masked('các bạn')).toBe('các bạn');
    expect(masked('c ặ c')).toBe('* * *');
    expect(masked('đi học')).toBe('đi học');
    expect(masked('con đĩ')).toBe('con **');
    expect(masked('con dĩ')).toBe('con **');
  });
});

describe('links and phone numbers', () => {
  it('finds them however they are written', () => {
    for (const t of [
      'https://x.example/a',
      'www.phimlau.net',
      'vào phimlau.com nhé',
      'phimlau . com',
      'abc(.)net',
      'abc chấm com',
      't.me/kenh',
      'zalo.me/123',
    ])
      expect(hasLink(t), t).toBe(true);
    for (const t of ['0912345678', '0912 345 678', '0912.345.678', '+84 912 345 678', 'gọi 84912345678', 'số 1 0912-345-678'])
      expect(hasPhoneNumber(t), t).toBe(true);
    for (const t of ['tập 12 phút 45', '1764170000000', 'năm 2026 tháng 12', 'điểm 8.5/10'])
      expect(hasPhoneNumber(t) || hasLink(t), t).toBe(false);
  });
});

describe('fingerprints', () => {
  it('are the same for the same text however it is spaced, cased or marked', () => {
    const a = fingerprintOf('Nhắn tin cho mình nhé');
    expect(fingerprintOf('NHẮN   TIN cho mình nhé!!').key).toBe(a.key);
    expect(fingerprintOf('nhan tin cho minh nhe').key).toBe(a.key);
    expect(fingerprintOf('Nhắn tin cho bạn nhé').key).not.toBe(a.key);
  });
});

// ---- fuzzing ---------------------------------------------------------------------------------------------------

const SYLLABLES = [
  'nhà',
  'cái',
  'cược',
  'đánh',
  'bạc',
  'khốn',
  'ngu',
  'xỉu',
  'hũ',
  'gà',
  'kèo',
  'lô',
  'đề',
  'thưởng',
  'mẹ',
  'quá',
  'trời',
  'ơi',
];
const phraseArb = fc.array(fc.constantFrom(...SYLLABLES), { minLength: 1, maxLength: 3 }).map((s) => s.join(' '));
const anyText = fc.string({
  unit: fc.constantFrom(...'aăâbcdđeêghiklmnoôơpqrstuưvxyáàảãạếềểễệóòỏõọớờởỡợúùủũụ 0123456789.,!?-_@$\u0301\u0300'),
  maxLength: 2000,
});

describe('fuzzing', () => {
  it('compiles any word list to plain literals: no quantifier, no alternation, nothing to backtrack over', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ phrase: fc.string({ maxLength: 80 }), action: fc.constantFrom('hold', 'mask') }), { maxLength: 30 }),
        (list) => {
          const f = new CommentFilter(list.map((w, i) => ({ id: i + 1, phrase: w.phrase, action: w.action as 'hold' | 'mask' })));
          for (const p of f.patterns) expect(p).toMatch(/^[a-z0-9]{2,60}$/);
        },
      ),
    );
  });

  it('finds an entry planted in any text, written with any mix of the evasions', () => {
    fc.assert(
      fc.property(phraseArb, anyText, anyText, fc.nat(8), (phrase, before, after, which) => {
        const f = new CommentFilter([{ id: 1, phrase, action: 'mask' }]);
        const written = evasions(phrase)[which]!;
        const text = `${before} ${written} ${after}`;
        expect(f.find(text).some((x) => x.entry.id === 1)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('never throws, keeps an NFC text the same length and only stars what it masks, on any input up to 2,000 characters', () => {
    fc.assert(
      fc.property(fc.oneof(anyText, fc.string({ maxLength: 2000 }), fc.string({ unit: 'grapheme', maxLength: 500 })), (raw) => {
        const text = raw.normalize('NFC');
        const verdict = filter.check(text, { holdContacts: true });
        expect(verdict.text).toHaveLength(text.length);
        for (let i = 0; i < text.length; i++) if (verdict.text[i] !== text[i]) expect(verdict.text[i]).toBe('*');
        expect(normalise(text).length).toBeLessThanOrEqual(text.length);
      }),
      { numRuns: 300 },
    );
  });

  it('handles the inputs that make a backtracking pattern blow up, with answers that are right', () => {
    const hostile = [
      'a'.repeat(2000),
      'nha'.repeat(666),
      `${'n h a c a '.repeat(199)}x`,
      `${'0'.repeat(1999)}`,
      `${'0 '.repeat(999)}9`,
      `${'a.'.repeat(999)}c`,
      `${'www '.repeat(499)}`,
      `${'x '.repeat(999)}.`,
      `${'ồ'.repeat(2000)}`,
      `${'o\u0302\u0300'.repeat(666)}`,
    ];
    for (const text of hostile) expect(() => filter.check(text, { holdContacts: true })).not.toThrow();
    expect(filter.check(`${'n h a c a '.repeat(199)}i`, { holdContacts: false }).hold).toBe('word');
    expect(filter.check('0'.repeat(1999), { holdContacts: true }).hold).toBe('phone');
  });
});
