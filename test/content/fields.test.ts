/** The shared field schemas, starting with the date every collection uses. */
import { describe, expect, it } from 'vitest';
import { date } from '../../generator/schemas/fields.ts';
import { parseYaml } from '../../generator/pipeline/load/parse-yaml.ts';

const DATE_MESSAGE = 'must be a date written YYYY-MM-DD';

/** The messages of a refused value, or a failed test if it was accepted. */
function messagesFor(value: unknown): string[] {
  const result = date.safeParse(value);
  if (result.success) throw new Error(`accepted ${String(value)} as ${result.data}`);
  return result.error.issues.map((issue) => issue.message);
}

describe('date', () => {
  it('accepts a YYYY-MM-DD string as it is', () => {
    expect(date.parse('2025-07-30')).toBe('2025-07-30');
  });

  it('accepts a Date, as YAML gives for an unquoted date, and turns it into YYYY-MM-DD', () => {
    expect(date.parse(new Date(Date.UTC(2025, 6, 30)))).toBe('2025-07-30');
  });

  it('accepts the 29th of February in a leap year only', () => {
    expect(date.parse('2024-02-29')).toBe('2024-02-29');
    expect(messagesFor('2025-02-29')).toEqual([DATE_MESSAGE]);
  });

  it('refuses 2025-02-30, a day that does not exist', () => {
    expect(messagesFor('2025-02-30')).toEqual([DATE_MESSAGE]);
  });

  it('refuses other spellings of a date', () => {
    for (const value of ['2025-7-30', '30/07/2025', '2025-07-30T10:00:00Z', '20250730', '']) {
      expect(messagesFor(value)).toEqual([DATE_MESSAGE]);
    }
  });

  it('refuses an invalid Date and values that are not dates at all', () => {
    expect(messagesFor(new Date('not a date'))).toEqual([DATE_MESSAGE]);
    expect(messagesFor(20250730)).toEqual([DATE_MESSAGE]);
    expect(messagesFor(undefined)).toEqual([DATE_MESSAGE]);
  });
});

describe('date read from YAML', () => {
  const read = (yaml: string) => (parseYaml(yaml).data as { date: unknown }).date;

  it('accepts an unquoted and a quoted date alike', () => {
    expect(read('date: 2025-07-30')).toBeInstanceOf(Date);
    expect(date.parse(read('date: 2025-07-30'))).toBe('2025-07-30');
    expect(date.parse(read('date: "2025-07-30"'))).toBe('2025-07-30');
  });

  it('refuses an unquoted 2025-02-30 instead of rolling it over to March', () => {
    expect(read('date: 2025-02-30')).toBe('2025-02-30');
    expect(messagesFor(read('date: 2025-02-30'))).toEqual([DATE_MESSAGE]);
  });
});
