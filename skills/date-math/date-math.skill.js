// Pure computation: runs in a sandbox without Node APIs. All arithmetic is in UTC
// calendar days, so daylight-saving changes never shift a result by an hour.

export const frontmatter = {
  name: 'date-math',
  description:
    'Exact calendar arithmetic: add or subtract days, weeks, months or years (optionally business days), and measure the days, business days or full months between two dates. Use whenever an answer depends on counting dates.',
  metadata: {
    version: '1.0.0',
    tags: ['dates', 'calendar'],
    params: {
      type: 'object',
      properties: {
        operation: { type: 'string', enum: ['add', 'diff', 'weekday'], description: 'add: date + amount; diff: from date to end date; weekday: day of week of date.' },
        date: { type: 'string', format: 'date', description: 'Start date, YYYY-MM-DD.' },
        end: { type: 'string', format: 'date', description: 'End date for diff, YYYY-MM-DD.' },
        amount: { type: 'integer', description: 'How many units to add (negative subtracts).' },
        unit: { type: 'string', enum: ['days', 'business_days', 'weeks', 'months', 'years'], description: 'Unit of amount (default days).' },
        holidays: { type: 'array', items: { type: 'string', format: 'date' }, description: 'Dates skipped as business days.' },
      },
      required: ['operation', 'date'],
      examples: [{ operation: 'add', date: '2026-03-02', amount: 10, unit: 'business_days' }],
    },
  },
};

const DAY = 86400000;
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

function parse(s) {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(String(s ?? ''));
  if (!m) throw new Error(`"${s}" is not a YYYY-MM-DD date`);
  const t = Date.UTC(+m[1], +m[2] - 1, +m[3]);
  if (new Date(t).getUTCDate() !== +m[3]) throw new Error(`"${s}" is not a real date`);
  return t;
}
const fmt = (t) => new Date(t).toISOString().slice(0, 10);
const isBusiness = (t, holidays) => {
  const d = new Date(t).getUTCDay();
  return d !== 0 && d !== 6 && !holidays.has(fmt(t));
};

function addMonths(t, n) {
  const d = new Date(t);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth() + n;
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  // Jan 31 + 1 month = Feb 28/29: clamp to the month's last day
  return Date.UTC(y, m, Math.min(d.getUTCDate(), last));
}

export default async function dateMath(ctx, args) {
  try {
    const start = parse(args.date);
    const holidays = new Set(args.holidays ?? []);
    if (args.operation === 'weekday') return { date: fmt(start), weekday: WEEKDAYS[new Date(start).getUTCDay()] };
    if (args.operation === 'add') {
      const n = Math.trunc(args.amount ?? 0);
      const unit = args.unit ?? 'days';
      let t = start;
      if (unit === 'days') t = start + n * DAY;
      else if (unit === 'weeks') t = start + n * 7 * DAY;
      else if (unit === 'months') t = addMonths(start, n);
      else if (unit === 'years') t = addMonths(start, 12 * n);
      else {
        const step = n < 0 ? -1 : 1;
        for (let left = Math.abs(n); left > 0; ) {
          t += step * DAY;
          if (isBusiness(t, holidays)) left--;
        }
      }
      return { date: fmt(t), weekday: WEEKDAYS[new Date(t).getUTCDay()] };
    }
    if (args.operation === 'diff') {
      const end = parse(args.end);
      const days = Math.round((end - start) / DAY);
      let business = 0;
      const step = days < 0 ? -1 : 1;
      for (let t = start; t !== end; t += step * DAY) if (isBusiness(t + (step > 0 ? 0 : -DAY), holidays)) business += step;
      const a = new Date(Math.min(start, end));
      const b = new Date(Math.max(start, end));
      let months = (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + b.getUTCMonth() - a.getUTCMonth();
      if (b.getUTCDate() < a.getUTCDate()) months--;
      return { days, weeks: Math.trunc(days / 7), businessDays: business, fullMonths: step * months };
    }
    return { error: 'INVALID_OPERATION', message: `unknown operation ${args.operation}` };
  } catch (e) {
    return { error: 'INVALID_DATE', message: e.message };
  }
}
