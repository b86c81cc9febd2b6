/**
 * Custom property types as data (docs/behaviour.md "Custom properties"): the formats of the date
 * and time types, the ids derived from names, and the value checks of each served property type.
 */
import { describe, expect, it } from 'vitest';
import type { CatalogContext } from './context.ts';
import { checkFormat, formatMatches } from './date-formats.ts';
import { nameUuid, propertyTypeNamed, propertyTypes } from './property-types.ts';

describe('date, dateTime and time formats', () => {
  it('a format uses only its kind of letters (given a format, want accepted or the message)', () => {
    const given: { type: 'date-cp' | 'dateTime-cp' | 'time-cp'; format: unknown; want: string | undefined }[] = [
      { type: 'date-cp', format: 'yyyy-MM-dd', want: undefined },
      { type: 'date-cp', format: 'dd MMM yyyy', want: undefined },
      { type: 'date-cp', format: 'yyyy-MM-dd HH:mm', want: 'Invalid date format: yyyy-MM-dd HH:mm' },
      { type: 'dateTime-cp', format: "yyyy-MM-dd'T'HH:mm:ss", want: undefined },
      { type: 'time-cp', format: 'HH:mm:ss', want: undefined },
      { type: 'time-cp', format: 'yyyy', want: 'Invalid time format: yyyy' },
      { type: 'date-cp', format: undefined, want: 'Invalid date format must have Config populated with format.' },
    ];
    for (const { type, format, want } of given) {
      let got: string | undefined;
      try {
        checkFormat(type, format);
      } catch (error) {
        got = (error as Error).message;
      }
      expect({ type, format, got }).toEqual({ type, format, got: want });
    }
  });

  it('a value matches when it has the shape and its fields are in range (given format and value, want match)', () => {
    const given = [
      { format: 'yyyy-MM-dd', value: '2025-02-28', want: true },
      { format: 'yyyy-MM-dd', value: '2025-13-01', want: false },
      { format: 'yyyy-MM-dd', value: '2025-2-28', want: false },
      { format: 'dd/MM/yyyy', value: '28/02/2025', want: true },
      { format: 'dd MMM yyyy', value: '28 Feb 2025', want: true },
      { format: "yyyy-MM-dd'T'HH:mm:ss", value: '2025-02-28T23:59:59', want: true },
      { format: 'yyyy-MM-dd HH:mm', value: '2025-02-28 24:00', want: false },
      { format: 'HH:mm', value: '07:30', want: true },
      { format: 'hh:mm a', value: '07:30 PM', want: true },
      { format: 'HH:mm', value: '7.30', want: false },
    ];
    for (const { format, value, want } of given) expect({ format, value, match: formatMatches(format, value) }).toEqual({ format, value, match: want });
  });
});

describe('property types', () => {
  it('ids are name-based UUIDs: stable, distinct, version 5', () => {
    const ids = propertyTypes().map((t) => nameUuid(t.name));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(nameUuid('table')).toBe(nameUuid('table'));
  });

  it('each checks its values and names the property (given a type and a value, want the stored value or the message)', () => {
    const ctx = {} as CatalogContext;
    const given: { type: string; value: unknown; config?: unknown; want: unknown }[] = [
      { type: 'string', value: 'x', want: 'x' },
      { type: 'string', value: 1, want: 'Custom field p has invalid JSON [$: integer found, string expected]' },
      { type: 'integer', value: 2.5, want: 'Custom field p has invalid JSON [$: number found, integer expected]' },
      { type: 'number', value: 2.5, want: 2.5 },
      { type: 'email', value: 'ana@example.com', want: 'ana@example.com' },
      { type: 'email', value: 'ana', want: 'Custom field p has invalid JSON [$: does not match the email pattern]' },
      { type: 'timestamp', value: 1_700_000_000_000, want: 1_700_000_000_000 },
      { type: 'timeInterval', value: { start: 1, end: 2 }, want: { start: 1, end: 2 } },
      {
        type: 'timeInterval',
        value: { start: 1, at: 2 },
        want: 'Custom field p has invalid JSON [$.at: is not defined in the schema and the schema does not allow additional properties]',
      },
      { type: 'enum', value: ['b', 'a'], config: { values: ['a', 'b'], multiSelect: true }, want: ['a', 'b'] },
      { type: 'enum', value: 'a', config: { values: ['a'] }, want: 'Custom field p has invalid JSON [$: string found, array of strings expected]' },
      { type: 'hyperlink-cp', value: { url: 'https://acme.example/runbook' }, want: { url: 'https://acme.example/runbook' } },
      { type: 'hyperlink-cp', value: { url: 'ftp://acme.example' }, want: "Invalid URL protocol for field 'p': URL must use http or https protocol" },
      { type: 'time-cp', value: '07:30', config: 'HH:mm', want: '07:30' },
    ];
    for (const { type, value, config, want } of given) {
      let got: unknown;
      try {
        got = propertyTypeNamed(type)!.value(ctx, 'p', value, config);
      } catch (error) {
        got = (error as Error).message;
      }
      expect({ type, value, got }).toEqual({ type, value, got: want });
    }
  });
});
