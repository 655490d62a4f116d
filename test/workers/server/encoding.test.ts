// Non-UTF-8 pages. The fixtures were encoded from UTF-8 sources (encodings/src/) with GNU iconv; the Worker
// decodes them with workerd's TextDecoder; the expected strings below are typed in UTF-8 here.

import { describe, expect, it } from 'vitest';
import { decodeBody, detectEncoding } from '../../../src/io/charset';
import { call, extractPath, page } from './helpers';

interface Case {
  name: string;
  signal: string;
  encoding: string;
  title: string;
  phrases: string[];
}

const CASES: Case[] = [
  { name: 'windows-1251', signal: 'header', encoding: 'windows-1251', title: 'Весенний паводок на Волге', phrases: ['Уровень воды в Волге у Ярославля', 'подъём продолжится ещё несколько дней'] },
  { name: 'shift_jis', signal: '<meta charset>', encoding: 'shift_jis', title: '京都の桜、今年は早咲き', phrases: ['京都市内の桜が例年より一週間ほど早く満開を迎えました。', '見頃は今週末まで続く見込みです'] },
  // WHATWG maps the label ISO-8859-1 to windows-1252, a superset that decodes every Latin-1 byte the same way.
  { name: 'iso-8859-1', signal: '<meta http-equiv>', encoding: 'windows-1252', title: 'Die Bäckerei am Marktplatz schließt', phrases: ['Nach 112 Jahren schließt die Bäckerei Müller', 'die Brezeln und der Käsekuchen'] },
  // WHATWG decodes the label GBK with the gb18030 decoder, a superset of GBK.
  { name: 'gbk', signal: 'header', encoding: 'gbk', title: '杭州西湖迎来赏荷季', phrases: ['杭州西湖的荷花陆续开放', '市民可以通过官方小程序查询实时客流'] },
  { name: 'utf-8-bom', signal: 'BOM', encoding: 'utf-8', title: 'Die Bäckerei am Marktplatz schließt', phrases: ['Nach 112 Jahren schließt die Bäckerei Müller'] },
];

describe('charset detection and decoding', () => {
  it('the fixtures really are in their encodings (hand-checked bytes)', async () => {
    // "Весенний" in windows-1251: В=C2 е=E5 с=F1 е=E5 н=ED н=ED и=E8 й=E9.
    const cp1251 = new Uint8Array(await (await fetch(page('/enc/windows-1251'))).arrayBuffer());
    expect(indexOfBytes(cp1251, [0xc2, 0xe5, 0xf1, 0xe5, 0xed, 0xed, 0xe8, 0xe9])).toBeGreaterThan(0);
    // "京都" in Shift_JIS: 8B 9E 93 73.
    const sjis = new Uint8Array(await (await fetch(page('/enc/shift_jis'))).arrayBuffer());
    expect(indexOfBytes(sjis, [0x8b, 0x9e, 0x93, 0x73])).toBeGreaterThan(0);
    // "ä" in ISO-8859-1: E4 (in "Bäckerei").
    const latin1 = new Uint8Array(await (await fetch(page('/enc/iso-8859-1'))).arrayBuffer());
    expect(indexOfBytes(latin1, [0x42, 0xe4, 0x63, 0x6b])).toBeGreaterThan(0);
    // "杭州" in GBK: BA BC D6 DD.
    const gbk = new Uint8Array(await (await fetch(page('/enc/gbk'))).arrayBuffer());
    expect(indexOfBytes(gbk, [0xba, 0xbc, 0xd6, 0xdd])).toBeGreaterThan(0);
  });

  for (const c of CASES) {
    it(`decodeBody: ${c.name}, announced by ${c.signal}`, async () => {
      const res = await fetch(page(`/enc/${c.name}`));
      const bytes = new Uint8Array(await res.arrayBuffer());
      const { text, encoding } = decodeBody(bytes, res.headers.get('content-type') ?? '');
      expect(encoding).toBe(c.encoding);
      expect(text).toContain(`<title>${c.title}</title>`);
      for (const phrase of c.phrases) expect(text).toContain(phrase);
      expect(text).not.toContain('\uFFFD');
    });

    it(`GET /v1/extract: ${c.name}, announced by ${c.signal}`, async () => {
      const res = await call(extractPath(page(`/enc/${c.name}`)));
      expect(res.status).toBe(200);
      const body = (await res.json()) as { title: string; text: string; encoding: string };
      expect(body.encoding).toBe(c.encoding);
      expect(body.title).toBe(c.title);
      for (const phrase of c.phrases) expect(body.text).toContain(phrase);
      expect(body.text).not.toContain('\uFFFD');
    });
  }
});

describe('charset precedence', () => {
  const enc = new TextEncoder();
  it('header, then BOM, then <meta>, else UTF-8; a BOM wins over a disagreeing header', () => {
    const meta = enc.encode('<html><head><meta charset="windows-1251"></head></html>');
    expect(detectEncoding(meta, 'text/html; charset=gbk')).toBe('gbk');
    expect(detectEncoding(meta, 'text/html')).toBe('windows-1251');
    expect(detectEncoding(enc.encode('<p>x</p>'), 'text/html')).toBe('utf-8');
    expect(detectEncoding(new Uint8Array([0xef, 0xbb, 0xbf, ...meta]), 'text/html; charset=gbk')).toBe('utf-8');
    expect(detectEncoding(new Uint8Array([0xff, 0xfe, 0x3c, 0x00]), '')).toBe('utf-16le');
  });

  it('an unknown header label falls through to the document; <meta> UTF-16 means UTF-8', () => {
    const meta = enc.encode('<meta http-equiv="content-type" content="text/html; charset=shift_jis">');
    expect(detectEncoding(meta, 'text/html; charset=no-such-charset')).toBe('shift_jis');
    expect(detectEncoding(enc.encode('<meta charset="utf-16">'), 'text/html')).toBe('utf-8');
    expect(detectEncoding(enc.encode('<?xml version="1.0" encoding="ISO-8859-2"?><html/>'), 'application/xhtml+xml')).toBe('iso-8859-2');
  });
});

function indexOfBytes(haystack: Uint8Array, needle: number[]): number {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}
