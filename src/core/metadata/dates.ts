// Publication and modification dates as YYYY-MM-DD, from the many ways pages write them.

const ISO_DATE = /^\s*(\d{4})-(\d{1,2})-(\d{1,2})(?:[T\s]|$)/;
const YMD = /\b(\d{4})[/.](\d{1,2})[/.](\d{1,2})\b/;
const COMPACT = /^\s*(\d{4})(\d{2})(\d{2})(?:T|\s|$)/;
const EPOCH = /^\s*(\d{10})(\d{3})?\s*$/;
const MONTHS: Readonly<Record<string, number>> = {
  jan: 1, january: 1, feb: 2, february: 2, mar: 3, march: 3, apr: 4, april: 4, may: 5, jun: 6, june: 6,
  jul: 7, july: 7, aug: 8, august: 8, sep: 9, sept: 9, september: 9, oct: 10, october: 10, nov: 11,
  november: 11, dec: 12, december: 12,
};
const MONTH_NAMES = Object.keys(MONTHS).sort((a, b) => b.length - a.length).join('|');
const MDY = new RegExp(`\\b(${MONTH_NAMES})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'i');
const DMY = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\.?\\s+(?:of\\s+)?(${MONTH_NAMES})\\.?,?\\s+(\\d{4})\\b`, 'i');
const NUMERIC_DMY = /\b(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})\b/;

/** A date as YYYY-MM-DD: ISO 8601 (the date as written, no time-zone shift), y/m/d, "March 5, 2024", "5 March 2024", epoch seconds; else null. */
export function normaliseDate(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined) return null;
  const s = raw.trim();
  if (s === '') return null;
  let m = ISO_DATE.exec(s) ?? YMD.exec(s) ?? COMPACT.exec(s);
  if (m) return ymd(+m[1], +m[2], +m[3]);
  m = MDY.exec(s);
  if (m) return ymd(+m[3], MONTHS[m[1].toLowerCase()], +m[2]);
  m = DMY.exec(s);
  if (m) return ymd(+m[3], MONTHS[m[2].toLowerCase()], +m[1]);
  m = EPOCH.exec(s);
  if (m) {
    const d = new Date(Number(m[1]) * 1000);
    return ymd(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate());
  }
  m = NUMERIC_DMY.exec(s);
  if (m) {
    // day first unless that is impossible (13/05 is day-first, 05/13 is month-first; ambiguous: month-first, US style)
    const a = +m[1];
    const b = +m[2];
    return a > 12 ? ymd(+m[3], b, a) : ymd(+m[3], a, b);
  }
  return null;
}

function ymd(y: number, mo: number, d: number): string | null {
  if (!(y >= 1990 && y <= 2100 && mo >= 1 && mo <= 12 && d >= 1 && d <= 31)) return null;
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCMonth() !== mo - 1) return null;
  return `${y}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

export function firstDate(...values: Array<string | null | undefined>): string | null {
  for (const v of values) {
    const d = normaliseDate(v);
    if (d !== null) return d;
  }
  return null;
}
