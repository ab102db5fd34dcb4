import { describe, expect, it } from 'vitest';
import { fold, slugify } from '../../worker/db/fold';

describe('fold', () => {
  it('strips Vietnamese diacritics and folds đ/Đ', () => {
    expect(fold('Đất Rừng Phương Nam')).toBe('dat rung phuong nam');
    expect(fold('ĐẤT')).toBe('dat');
    expect(fold('Mắt Biếc')).toBe('mat biec');
    expect(fold('  Tiệc   Trăng Máu ')).toBe('tiec trang mau');
  });
  it('is stable on composed and decomposed input', () => {
    expect(fold('Phượng'.normalize('NFD'))).toBe(fold('Phượng'.normalize('NFC')));
  });
});

describe('slugify', () => {
  it('makes ASCII slugs', () => {
    expect(slugify('Đất Rừng Phương Nam (2023)')).toBe('dat-rung-phuong-nam-2023');
    expect(slugify('!!!')).toBe('');
  });
});
